/**
 * Sign-in throttling over HTTP with two client addresses (the service trusts X-Forwarded-For from its loopback
 * proxy, which is how the test speaks as two clients): a stranger's wrong passwords for someone's email lock the
 * stranger's address out for that email, while the owner signs in from their own address at once.
 */
import { expectError } from '../support/api-expect';
import { request, startTestService, type TestService } from '../support/service';

const MAX_FAILURES = 19;
let svc: TestService;

beforeAll(async () => {
  svc = await startTestService({ LOGIN_FREE_FAILURES: '50', LOGIN_MAX_FAILURES: String(MAX_FAILURES) });
});
afterAll(() => svc?.stop());

const ATTACKER = { 'X-Forwarded-For': '203.0.113.7' };
const OWNER = { 'X-Forwarded-For': '198.51.100.23' };
const login = (email: string, password: string, from: Record<string, string>) =>
  request(svc.base, 'POST', '/auth/login', { email, password }, from);

async function signUpOwner(): Promise<string> {
  const email = `owner${Date.now()}${Math.random().toString(36).slice(2, 6)}@example.com`;
  expect((await request(svc.base, 'POST', '/auth/signup', { email, password: 'the right password', name: 'Owner' }, OWNER)).status).toBe(201);
  return email;
}

describe('POST /auth/login throttling', () => {
  it('locks out the guessing address, never the owner signing in from another', async () => {
    const email = await signUpOwner();
    for (let i = 0; i < MAX_FAILURES; i++) expect((await login(email, `guess ${i}`, ATTACKER)).status).toBe(401);
    const locked = await login(email, 'the right password', ATTACKER);
    expectError(locked, 429, 'rate_limited');
    expect(Number(locked.headers.get('retry-after'))).toBeGreaterThan(0);

    const owner = await login(email, 'the right password', OWNER);
    expect(owner.status).toBe(200);
    expect(owner.body.user.email).toBe(email);
    // The owner's own mistake from their address is a plain 401, counted for them alone.
    expectError(await login(email, 'a typo', OWNER), 401, 'invalid_credentials');
    expect((await login(email, 'the right password', OWNER)).status).toBe(200);
    // Still locked where the guessing came from.
    expectError(await login(email, 'the right password', ATTACKER), 429, 'rate_limited');
  });

  it('the guessing address may still sign in to another account', async () => {
    const victim = await signUpOwner();
    const own = await signUpOwner();
    for (let i = 0; i < MAX_FAILURES; i++) await login(victim, `guess ${i}`, ATTACKER);
    expect((await login(own, 'the right password', ATTACKER)).status).toBe(200);
  });
});
