/** Security headers, CORS for the first-party origin only, body size limit, rate limits, sign-in slowdown. */
import { request, signUp, startTestService, type TestService } from '../support/service';

const WEB = 'https://app.example.com';
let svc: TestService;
let base: string;

beforeAll(async () => {
  svc = await startTestService({
    WEB_ORIGIN: WEB,
    RATE_LIMIT_PER_CREDENTIAL: '8',
    LOGIN_FREE_FAILURES: '50',
    LOGIN_MAX_FAILURES: '3',
  });
  base = svc.base;
});
afterAll(() => svc.stop());

describe('hardening', () => {
  it('sends security headers on API answers and pages', async () => {
    for (const url of [`${base}/me`, `${svc.service.url}/docs`]) {
      const res = await fetch(url);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'self'");
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('x-powered-by')).toBeNull();
    }
  });

  it('answers CORS for the web origin only', async () => {
    const ours = await fetch(`${base}/me`, { headers: { Origin: WEB } });
    expect(ours.headers.get('access-control-allow-origin')).toBe(WEB);
    expect(ours.headers.get('access-control-allow-credentials')).toBe('true');
    const theirs = await fetch(`${base}/me`, { headers: { Origin: 'https://evil.example' } });
    expect(theirs.headers.get('access-control-allow-origin')).toBeNull();
    const preflight = await fetch(`${base}/events`, {
      method: 'OPTIONS',
      headers: { Origin: WEB, 'Access-Control-Request-Method': 'POST', 'Access-Control-Request-Headers': 'content-type' },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-methods')).toContain('POST');
  });

  it('refuses bodies over 1 MB with 413 in the envelope', async () => {
    const user = await signUp(base);
    const res = await user.call('POST', '/events', { title: 'x'.repeat(1_100_000), startsAt: '2026-12-01T09:00:00Z', endsAt: '2026-12-01T10:00:00Z' });
    expect(res.status).toBe(413);
    expect(res.body.error.code).toBe('payload_too_large');
  });

  it('limits each credential, with RateLimit headers and Retry-After', async () => {
    const user = await signUp(base);
    const answers = [];
    for (let i = 0; i < 9; i++) answers.push(await user.call('GET', '/calendars'));
    expect(answers.slice(0, 8).map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(answers[0].headers.get('ratelimit-limit')).toBe('8');
    expect(answers[7].headers.get('ratelimit-remaining')).toBe('0');
    const limited = answers[8];
    expect(limited.status).toBe(429);
    expect(limited.body.error.code).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    // Another credential has its own budget.
    expect((await (await signUp(base)).call('GET', '/calendars')).status).toBe(200);
  });

  it('refuses sign-in for an email after repeated failures, even with the right password', async () => {
    const email = `locked${Date.now()}@example.com`;
    expect((await request(base, 'POST', '/auth/signup', { email, password: 'right password', name: 'L' })).status).toBe(201);
    for (let i = 0; i < 3; i++) {
      expect((await request(base, 'POST', '/auth/login', { email, password: 'wrong password' })).status).toBe(401);
    }
    const locked = await request(base, 'POST', '/auth/login', { email, password: 'right password' });
    expect(locked.status).toBe(429);
    expect(locked.body.error.code).toBe('rate_limited');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);
    const other = `free${Date.now()}@example.com`;
    expect((await request(base, 'POST', '/auth/signup', { email: other, password: 'right password', name: 'F' })).status).toBe(201);
    expect((await request(base, 'POST', '/auth/login', { email: other, password: 'right password' })).status).toBe(200);
  });

  it('never locks an address out: failures spread over many emails leave other people able to sign in', async () => {
    for (let i = 0; i < 40; i++) {
      const res = await request(base, 'POST', '/auth/login', { email: `nobody${i}-${Date.now()}@example.com`, password: 'guess' });
      expect(res.status).toBe(401);
    }
    const email = `neighbour${Date.now()}@example.com`;
    expect((await request(base, 'POST', '/auth/signup', { email, password: 'right password', name: 'N' })).status).toBe(201);
    expect((await request(base, 'POST', '/auth/login', { email, password: 'right password' })).status).toBe(200);
  });
});
