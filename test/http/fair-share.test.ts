/**
 * One user's many legal, expensive reads against everyone else: a calendar of 22 hourly series makes GET
 * /availability over 14 days take a while, and 30 of them at once from one credential run two at a time with a few
 * waiting, the rest told 429 with Retry-After; another user's reads and writes meanwhile are answered as usual.
 * Large answers are worked out on an answer thread, and say the same as those worked out on the request's thread.
 */
import { useTestService, signUp, type Client, type TestService } from '../support/service';

jest.setTimeout(60_000);

let svc: TestService;
useTestService((s) => (svc = s), { HEAVY_READS_PER_CALLER: '2', HEAVY_READS_QUEUE: '3', HEAVY_READS_TOTAL: '4' });

const DAYS = '/availability?from=2032-01-05&days=14';

async function hourlySeries(c: Client, count: number) {
  for (let i = 0; i < count; i++) {
    const start = Date.parse('2032-01-05T00:00:00Z') + i * 2 * 60_000;
    const res = await c.call('POST', '/events', {
      title: `Hourly ${i}`, startsAt: new Date(start).toISOString(), endsAt: new Date(start + 30 * 60_000).toISOString(),
      recurrenceRule: 'FREQ=HOURLY', allowOverlap: true,
    });
    expect(res.status).toBe(201);
  }
}

describe('fair shares of expensive reads', () => {
  let heavy: Client;
  let other: Client;

  beforeAll(async () => {
    heavy = await signUp(svc.base);
    other = await signUp(svc.base);
    await hourlySeries(heavy, 22);
  });

  it('runs a credential\'s first few at once, queues a few, refuses the rest with 429; another user is served meanwhile', async () => {
    const alone = await heavy.call('GET', DAYS);
    expect(alone.status).toBe(200);
    expect(alone.body.days).toHaveLength(14);
    expect(alone.body.days[0].events).toHaveLength(22 * 24);

    const burst = Array.from({ length: 30 }, () => heavy.call('GET', DAYS));
    const [slots, write] = await Promise.all([
      other.call('GET', '/available-slots?from=2032-01-05&days=14'),
      other.call('POST', '/events', { title: 'Mine', startsAt: '2032-01-06T09:00:00Z', endsAt: '2032-01-06T10:00:00Z' }),
    ]);
    expect([slots.status, write.status]).toEqual([200, 201]);

    const answers = await Promise.all(burst);
    const byStatus = (status: number) => answers.filter((a) => a.status === status);
    expect(answers.length).toBe(byStatus(200).length + byStatus(429).length);
    expect(byStatus(200).length).toBeGreaterThanOrEqual(2);
    expect(byStatus(429).length).toBeGreaterThan(0);
    for (const refused of byStatus(429)) {
      expect(refused.body.error.code).toBe('too_many_concurrent_requests');
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    }
    for (const answered of byStatus(200)) expect(answered.body).toEqual(alone.body);
  });

  it('counts each credential on its own: the other user\'s heavy reads are not refused for the first one\'s', async () => {
    const burst = Array.from({ length: 30 }, () => heavy.call('GET', DAYS));
    const mine = await Promise.all(Array.from({ length: 2 }, () => other.call('GET', '/free-busy?from=2032-01-05T00:00:00Z&to=2032-01-19T00:00:00Z')));
    expect(mine.map((r) => r.status)).toEqual([200, 200]);
    expect(mine[0].body.busy).toEqual([{ startsAt: '2032-01-06T09:00:00.000Z', endsAt: '2032-01-06T10:00:00.000Z' }]);
    await Promise.all(burst);
  });
});
