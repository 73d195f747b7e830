/**
 * Rate limits hold against made-up credentials (issue 8.3): only a verified credential has a bucket of its own;
 * requests with no token or a forged one count against the client's address.
 */
import { randomBytes } from 'node:crypto';
import { request, signUp, useTestService, type TestService } from '../support/service';

const PER_ADDRESS = 40;
let svc: TestService;
useTestService((s) => (svc = s), { RATE_LIMIT_PER_IP: String(PER_ADDRESS), RATE_LIMIT_PER_CREDENTIAL: '100000' });

describe('rate limits', () => {
  it('counts 1,300 sign-ups with random forged bearer tokens against the address; a real session keeps its own bucket', async () => {
    const user = await signUp(svc.base); // one call against the address
    const statuses: number[] = [];
    for (let batch = 0; batch < 26; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, (_, i) =>
          request(svc.base, 'POST', '/auth/signup',
            { email: `forged-${batch}-${i}@example.com`, password: 'long enough', name: 'F' },
            { authorization: `Bearer x${randomBytes(16).toString('hex')}` }),
        ),
      );
      statuses.push(...answers.map((a) => a.status));
    }
    expect(statuses).toHaveLength(1300);
    const limited = statuses.filter((s) => s === 429).length;
    expect(limited).toBe(1300 - (PER_ADDRESS - 1));
    expect(statuses.filter((s) => s !== 429).every((s) => s === 201)).toBe(true);

    const anonymous = await request(svc.base, 'GET', '/webhooks/event-types');
    expect(anonymous.status).toBe(429);
    expect(anonymous.body.error.code).toBe('rate_limited');
    expect(Number(anonymous.headers.get('retry-after'))).toBeGreaterThan(0);

    const mine = await user.call('GET', '/me');
    expect(mine.status).toBe(200);
    expect(mine.headers.get('ratelimit-limit')).toBe('100000');
  }, 120_000);
});
