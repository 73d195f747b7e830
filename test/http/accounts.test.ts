/**
 * Accounts and sessions over real HTTP: signup, login, logout, the session cookie and its Origin check, and the
 * profile (GET/PATCH /me). Contract: addendum.md "Accounts and sessions", "Errors"; api-spec.md "Profile".
 */
import http from 'node:http';
import { type ApiResponse, request, signUp, useTestService } from '../support/service';

let base: string;
useTestService((started) => (base = started.base));

// ---- helpers -------------------------------------------------------------------------------------------------

let seq = 0;
const uniqueEmail = (local = 'person') =>
  `${local}-${Date.now()}-${seq++}-${Math.random().toString(36).slice(2, 8)}@example.com`;
const PASSWORD = 'correct horse battery';
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const cookie = (token: string) => ({ cookie: `session=${token}` });

const signupBody = (over: Record<string, unknown> = {}) => ({ email: uniqueEmail(), password: PASSWORD, name: 'Ada Lovelace', ...over });

function expectError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe('string');
}

/** 400 invalid_request whose details.issues name the offending field. */
function expectInvalid(res: ApiResponse, field: string): void {
  expectError(res, 400, 'invalid_request');
  const issues = res.body.error.details?.issues;
  expect(Array.isArray(issues)).toBe(true);
  expect(issues.length).toBeGreaterThan(0);
  for (const issue of issues) expect(issue).toEqual({ path: expect.any(String), message: expect.any(String) });
  expect(issues.some((i: { path: string }) => i.path.includes(field))).toBe(true);
}

function sessionCookieOf(res: ApiResponse): string {
  const raw = res.headers.getSetCookie().find((c) => c.startsWith('session='));
  expect(raw).toBeDefined();
  return raw!;
}

/** A request with full control over Host (fetch drops it). */
function rawPost(path: string, body: unknown, headers: Record<string, string>) {
  const url = new URL(`${base}${path}`);
  const payload = JSON.stringify(body);
  return new Promise<{ status: number; headers: http.IncomingHttpHeaders }>((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), ...headers } },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers }));
      },
    );
    req.on('error', reject);
    req.end(payload);
  });
}

// ---- signup --------------------------------------------------------------------------------------------------

describe('POST /auth/signup', () => {
  it('answers 201 {user, session} and creates a personal Space with a default calendar', async () => {
    const body = signupBody({ timeZone: 'Europe/Berlin' });
    const res = await request(base, 'POST', '/auth/signup', body);
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['session', 'user']);
    const { user, session } = res.body;
    expect(session.token).toMatch(/^cs_\S+$/);
    expect(Date.parse(session.expiresAt)).toBeGreaterThan(Date.now());
    expect(user).toMatchObject({ email: body.email, name: 'Ada Lovelace', timeZone: 'Europe/Berlin' });
    expect(user.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(user.username).toMatch(/^[a-z0-9][a-z0-9-]*$/);
    expect(user).not.toHaveProperty('password');
    expect(user).not.toHaveProperty('passwordHash');

    const spaces = await request(base, 'GET', '/spaces', undefined, bearer(session.token));
    expect(spaces.status).toBe(200);
    expect(spaces.body.spaces).toEqual([
      expect.objectContaining({ id: user.personalSpaceId, kind: 'personal', ownerId: user.id }),
    ]);

    const calendars = await request(base, 'GET', '/calendars', undefined, bearer(session.token));
    expect(calendars.status).toBe(200);
    expect(calendars.body.calendars).toEqual([
      expect.objectContaining({ id: user.defaultCalendarId, spaceId: user.personalSpaceId, isDefault: true }),
    ]);
  });

  it('gives every user a unique username, even for the same local part of the email', async () => {
    const local = `twin${Date.now()}`;
    const a = await request(base, 'POST', '/auth/signup', signupBody({ email: `${local}@one.example.com` }));
    const b = await request(base, 'POST', '/auth/signup', signupBody({ email: `${local}@two.example.com` }));
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(a.body.user.username).not.toEqual(b.body.user.username);
  });

  it('refuses a taken email with 409 email_taken, also in another letter case', async () => {
    const body = signupBody();
    expect((await request(base, 'POST', '/auth/signup', body)).status).toBe(201);
    expectError(await request(base, 'POST', '/auth/signup', body), 409, 'email_taken');
    const shouting = { ...body, email: body.email.toUpperCase() };
    expectError(await request(base, 'POST', '/auth/signup', shouting), 409, 'email_taken');
  });

  it('ten concurrent signups with one email (in mixed letter case): exactly one 201, the rest 409 email_taken', async () => {
    const email = uniqueEmail('race');
    const bodies = Array.from({ length: 10 }, (_, i) => ({
      email: i % 2 ? email.toUpperCase() : email, password: `password-${i}`, name: `Racer ${i}`,
    }));
    const results = await Promise.all(bodies.map((b) => request(base, 'POST', '/auth/signup', b)));
    const statuses = results.map((r) => r.status);
    expect([...statuses].sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('email_taken');

    // The account is the winner's: its name, and its password signs in.
    const w = statuses.indexOf(201);
    expect(results[w].body.user.name).toBe(`Racer ${w}`);
    const me = await request(base, 'GET', '/me', undefined, bearer(results[w].body.session.token));
    expect(me.status).toBe(200);
    expect(me.body.user.name).toBe(`Racer ${w}`);
    const login = await request(base, 'POST', '/auth/login', { email, password: `password-${w}` });
    expect(login.status).toBe(200);
    expect(login.body.user.id).toBe(results[w].body.user.id);
    for (let i = 0; i < bodies.length; i++) {
      if (i === w) continue;
      expect((await request(base, 'POST', '/auth/login', { email, password: `password-${i}` })).status).toBe(401);
    }
  });

  it.each([
    ['missing email', { email: undefined }, 'email'],
    ['missing password', { password: undefined }, 'password'],
    ['missing name', { name: undefined }, 'name'],
    ['short password (7 characters)', { password: '1234567' }, 'password'],
    ['malformed email', { email: 'not-an-email' }, 'email'],
    ['unknown time zone', { timeZone: 'Mars/Olympus_Mons' }, 'timeZone'],
  ])('refuses a body with %s: 400 invalid_request with details.issues', async (_label, over, field) => {
    const res = await request(base, 'POST', '/auth/signup', signupBody(over));
    expectInvalid(res, field);
  });

  it('accepts a password of exactly 8 characters', async () => {
    const res = await request(base, 'POST', '/auth/signup', signupBody({ password: '12345678' }));
    expect(res.status).toBe(201);
  });
});

// ---- login / logout ------------------------------------------------------------------------------------------

describe('POST /auth/login and /auth/logout', () => {
  it('signs in with 200 and the same shape as signup', async () => {
    const body = signupBody();
    const signed = await request(base, 'POST', '/auth/signup', body);
    const res = await request(base, 'POST', '/auth/login', { email: body.email, password: PASSWORD });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(['session', 'user']);
    expect(res.body.user.id).toBe(signed.body.user.id);
    expect(res.body.session.token).toMatch(/^cs_/);
    expect(res.body.session.token).not.toBe(signed.body.session.token);
    expect(Date.parse(res.body.session.expiresAt)).toBeGreaterThan(Date.now());
    const me = await request(base, 'GET', '/me', undefined, bearer(res.body.session.token));
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(signed.body.user.id);
  });

  it('accepts the email in another letter case', async () => {
    const body = signupBody();
    await request(base, 'POST', '/auth/signup', body);
    const res = await request(base, 'POST', '/auth/login', { email: body.email.toUpperCase(), password: PASSWORD });
    expect(res.status).toBe(200);
  });

  it('answers a wrong password and an unknown email alike: 401 invalid_credentials, same body', async () => {
    const body = signupBody();
    await request(base, 'POST', '/auth/signup', body);
    const wrong = await request(base, 'POST', '/auth/login', { email: body.email, password: 'wrong password' });
    const unknown = await request(base, 'POST', '/auth/login', { email: uniqueEmail('nobody'), password: PASSWORD });
    expectError(wrong, 401, 'invalid_credentials');
    expectError(unknown, 401, 'invalid_credentials');
    expect(unknown.body).toEqual(wrong.body);
    expect(wrong.headers.getSetCookie()).toEqual([]);
  });

  it('logout with the cookie answers 204, clears the cookie and ends that session', async () => {
    const signed = await request(base, 'POST', '/auth/signup', signupBody());
    const token = signed.body.session.token;
    const out = await request(base, 'POST', '/auth/logout', undefined, cookie(token));
    expect(out.status).toBe(204);
    const cleared = sessionCookieOf(out);
    expect(cleared).toMatch(/^session=;/);
    expect(cleared).toMatch(/Max-Age=0|Expires=Thu, 01 Jan 1970/i);
    expectError(await request(base, 'GET', '/me', undefined, cookie(token)), 401, 'unauthenticated');
    expectError(await request(base, 'GET', '/me', undefined, bearer(token)), 401, 'unauthenticated');
  });

  it('logout answers 204 and the token stops working at once (other sessions keep working)', async () => {
    const body = signupBody();
    const signed = await request(base, 'POST', '/auth/signup', body);
    const token = signed.body.session.token;
    const other = (await request(base, 'POST', '/auth/login', { email: body.email, password: PASSWORD })).body.session.token;
    expect((await request(base, 'GET', '/me', undefined, bearer(token))).status).toBe(200);

    const out = await request(base, 'POST', '/auth/logout', undefined, bearer(token));
    expect(out.status).toBe(204);

    expectError(await request(base, 'GET', '/me', undefined, bearer(token)), 401, 'unauthenticated');
    expectError(await request(base, 'GET', '/me', undefined, cookie(token)), 401, 'unauthenticated');
    expect((await request(base, 'GET', '/me', undefined, bearer(other))).status).toBe(200);
  });
});

// ---- cookie sessions -----------------------------------------------------------------------------------------

describe('session cookie', () => {
  it('signup and login set an HttpOnly, SameSite=Lax cookie `session` carrying the session token', async () => {
    const body = signupBody();
    const signed = await request(base, 'POST', '/auth/signup', body);
    const c1 = sessionCookieOf(signed);
    expect(c1.startsWith(`session=${signed.body.session.token};`)).toBe(true);
    expect(c1).toMatch(/;\s*HttpOnly/i);
    expect(c1).toMatch(/;\s*SameSite=Lax/i);

    const logged = await request(base, 'POST', '/auth/login', { email: body.email, password: PASSWORD });
    const c2 = sessionCookieOf(logged);
    expect(c2.startsWith(`session=${logged.body.session.token};`)).toBe(true);
    expect(c2).toMatch(/;\s*HttpOnly/i);
    expect(c2).toMatch(/;\s*SameSite=Lax/i);
  });

  it('marks the cookie Secure outside localhost', async () => {
    const res = await rawPost('/auth/signup', signupBody(), { host: 'calendar.example.com' });
    expect(res.status).toBe(201);
    const c = (res.headers['set-cookie'] ?? []).find((x) => x.startsWith('session='));
    expect(c).toBeDefined();
    expect(c).toMatch(/;\s*Secure/i);
    expect(c).toMatch(/;\s*HttpOnly/i);
  });

  it('the cookie alone authenticates GET /me', async () => {
    const signed = await request(base, 'POST', '/auth/signup', signupBody());
    const token = signed.body.session.token;
    const me = await request(base, 'GET', '/me', undefined, cookie(token));
    expect(me.status).toBe(200);
    expect(me.body.user.id).toBe(signed.body.user.id);
  });

  it('a cookie-authenticated POST from a foreign Origin is refused with 403 and writes nothing', async () => {
    const signed = await request(base, 'POST', '/auth/signup', signupBody());
    const token = signed.body.session.token;
    const refused = await request(base, 'POST', '/spaces', { name: 'From evil' }, { ...cookie(token), origin: 'https://evil.example' });
    expect(refused.status).toBe(403);
    expect(typeof refused.body.error.code).toBe('string');

    const spaces = await request(base, 'GET', '/spaces', undefined, bearer(token));
    expect(spaces.body.spaces.map((s: { name: string }) => s.name)).not.toContain('From evil');
  });

  it('cookie-authenticated PATCH and DELETE from a foreign (or null) Origin are refused too, and change nothing', async () => {
    const signed = await request(base, 'POST', '/auth/signup', signupBody({ name: 'Unchanged' }));
    const token = signed.body.session.token;
    const ev = await request(base, 'POST', '/events', { title: 'Target', startsAt: '2031-09-01T10:00:00Z', endsAt: '2031-09-01T11:00:00Z' }, bearer(token));
    expect(ev.status).toBe(201);
    for (const origin of ['https://evil.example', 'null']) {
      const h = { ...cookie(token), origin };
      expect((await request(base, 'PATCH', '/me', { name: 'Hacked' }, h)).status).toBe(403);
      expect((await request(base, 'PATCH', `/events/${ev.body.event.id}`, { title: 'Hacked' }, h)).status).toBe(403);
      expect((await request(base, 'DELETE', `/events/${ev.body.event.id}`, undefined, h)).status).toBe(403);
      expect((await request(base, 'POST', '/events', { title: 'Planted', startsAt: '2031-09-02T10:00:00Z', endsAt: '2031-09-02T11:00:00Z' }, h)).status).toBe(403);
    }
    expect((await request(base, 'GET', '/me', undefined, bearer(token))).body.user.name).toBe('Unchanged');
    const after = await request(base, 'GET', `/events/${ev.body.event.id}`, undefined, bearer(token));
    expect(after.status).toBe(200);
    expect(after.body.event.title).toBe('Target');
    // A cookie-authenticated GET is a safe request: no Origin check.
    expect((await request(base, 'GET', '/me', undefined, { ...cookie(token), origin: 'https://evil.example' })).status).toBe(200);
  });

  it('a cookie-authenticated POST without Origin, or from the service own origin, passes', async () => {
    const signed = await request(base, 'POST', '/auth/signup', signupBody());
    const token = signed.body.session.token;
    const noOrigin = await request(base, 'POST', '/spaces', { name: 'No origin' }, cookie(token));
    expect(noOrigin.status).toBe(201);
    const own = new URL(base).origin;
    const sameOrigin = await request(base, 'POST', '/spaces', { name: 'Same origin' }, { ...cookie(token), origin: own });
    expect(sameOrigin.status).toBe(201);
    const names = (await request(base, 'GET', '/spaces', undefined, bearer(token))).body.spaces.map((s: { name: string }) => s.name);
    expect(names).toEqual(expect.arrayContaining(['No origin', 'Same origin']));
  });

  it('a bearer-authenticated POST is not subject to the Origin check', async () => {
    const signed = await request(base, 'POST', '/auth/signup', signupBody());
    const res = await request(base, 'POST', '/spaces', { name: 'Bearer' }, { ...bearer(signed.body.session.token), origin: 'https://elsewhere.example' });
    expect(res.status).toBe(201);
  });
});

// ---- profile -------------------------------------------------------------------------------------------------

describe('GET/PATCH /me', () => {
  it('GET /me returns the profile', async () => {
    const c = await signUp(base, { name: 'Grace', timeZone: 'America/Chicago' });
    const res = await c.call('GET', '/me');
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      id: c.userId, email: c.email, name: 'Grace', timeZone: 'America/Chicago',
      weekStartsOn: expect.any(Number), enabledModules: expect.any(Object), preferences: expect.any(Object),
      username: expect.any(String),
    });
  });

  it('updates name, timeZone and weekStartsOn, and GET /me shows them', async () => {
    const c = await signUp(base);
    const res = await c.call('PATCH', '/me', { name: 'Renamed', timeZone: 'Asia/Tokyo', weekStartsOn: 0 });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ id: c.userId, name: 'Renamed', timeZone: 'Asia/Tokyo', weekStartsOn: 0 });
    const me = await c.call('GET', '/me');
    expect(me.body.user).toMatchObject({ name: 'Renamed', timeZone: 'Asia/Tokyo', weekStartsOn: 0 });
  });

  it('a partial PATCH leaves the other fields alone', async () => {
    const c = await signUp(base, { name: 'Keep me', timeZone: 'Europe/Lisbon' });
    const res = await c.call('PATCH', '/me', { weekStartsOn: 3 });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({ name: 'Keep me', timeZone: 'Europe/Lisbon', weekStartsOn: 3 });
  });

  it('merges preferences key by key', async () => {
    const c = await signUp(base);
    expect((await c.call('PATCH', '/me', { preferences: { theme: 'dark', density: 'cozy' } })).status).toBe(200);
    const res = await c.call('PATCH', '/me', { preferences: { density: 'compact', clock: '24h' } });
    expect(res.status).toBe(200);
    expect(res.body.user.preferences).toEqual({ theme: 'dark', density: 'compact', clock: '24h' });
    expect((await c.call('GET', '/me')).body.user.preferences).toEqual({ theme: 'dark', density: 'compact', clock: '24h' });
  });

  it.each([
    ['an unknown time zone', { timeZone: 'Nowhere/Land' }, 'timeZone'],
    ['weekStartsOn out of range', { weekStartsOn: 7 }, 'weekStartsOn'],
    ['an empty name', { name: '' }, 'name'],
    ['a username with capitals', { username: 'Not-Valid' }, 'username'],
  ])('refuses %s with 400 and changes nothing', async (_label, body, field) => {
    const c = await signUp(base);
    const before = (await c.call('GET', '/me')).body.user;
    expectInvalid(await c.call('PATCH', '/me', body), field);
    expect((await c.call('GET', '/me')).body.user).toEqual(before);
  });

  it('changes the username; another user asking for it gets 409 username_taken', async () => {
    const a = await signUp(base);
    const b = await signUp(base);
    const wanted = `handle-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 6)}`;
    const res = await a.call('PATCH', '/me', { username: wanted });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe(wanted);
    expect((await a.call('GET', '/me')).body.user.username).toBe(wanted);

    const bBefore = (await b.call('GET', '/me')).body.user;
    expectError(await b.call('PATCH', '/me', { username: wanted, name: 'Thief' }), 409, 'username_taken');
    expect((await b.call('GET', '/me')).body.user).toEqual(bBefore);
    expect((await a.call('GET', '/me')).body.user.username).toBe(wanted);
  });

  it('PATCH /me with the own current username is fine', async () => {
    const a = await signUp(base);
    const current = (await a.call('GET', '/me')).body.user.username;
    const res = await a.call('PATCH', '/me', { username: current });
    expect(res.status).toBe(200);
    expect(res.body.user.username).toBe(current);
  });
});
