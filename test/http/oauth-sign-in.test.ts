/**
 * The sign-in page of the authorization endpoint over real HTTP: who gets it (a browser without a session) and who
 * keeps the JSON 401 (programs), what it carries, POST /oauth/sign-in (303 back to the exact consent URL with the
 * session cookie; a wrong password shown on the page; the login throttle shared with /auth/login), the return target
 * (the authorization endpoint only, never an open redirect) and its Origin check (login CSRF).
 */
import { pkce, queryOf, rawRequest, type RawOptions } from '../support/oauth';
import { request, signUp, startTestService, type Client, type TestService } from '../support/service';

const PASSWORD = 'correct horse'; // what signUp gives every user
const REDIRECT = 'https://client.example/callback';
const HTML = { accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };

let svc: TestService;
let base: string;
let origin: string;

beforeAll(async () => {
  // Small throttle limits, so the suite can reach them: one free failure per email, refused after two.
  svc = await startTestService({ LOGIN_FREE_FAILURES: '1', LOGIN_MAX_FAILURES: '2' });
  base = svc.base;
  origin = new URL(base).origin;
});
afterAll(() => svc.stop());

const raw = (method: string, path: string, opts: RawOptions = {}) => rawRequest(base, method, path, opts);

async function createApp(owner: Client, name = 'Acme Planner') {
  const res = await owner.call('POST', '/oauth/applications', { name, redirectUri: REDIRECT, scopes: ['events:read', 'calendars:read'] });
  expect(res.status).toBe(201);
  return { clientId: res.body.clientId as string, clientSecret: res.body.clientSecret as string };
}

/** An authorization request of a fresh application, as path and query below the API. */
async function authorizationPath(over: Record<string, string | undefined> = {}, name?: string) {
  const app = await createApp(await signUp(base), name);
  const { verifier, challenge } = pkce();
  const params = {
    response_type: 'code', client_id: app.clientId, redirect_uri: REDIRECT, scope: 'events:read', state: 'st-1',
    code_challenge: challenge, code_challenge_method: 'S256', ...over,
  };
  return { app, verifier, path: `/oauth/authorize?${queryOf(params)}` };
}

/** The sign-in form's POST as the page sends it: form-encoded, from our own origin. */
const signIn = (form: Record<string, string | undefined>, headers: Record<string, string> = { origin }) =>
  raw('POST', '/oauth/sign-in', { headers: { ...HTML, ...headers }, form });

const hidden = (html: string, name: string) =>
  new RegExp(`<input type="hidden" name="${name}" value="([^"]*)">`).exec(html)?.[1].replace(/&amp;/g, '&');

describe('GET /oauth/authorize without a session', () => {
  it('gives a browser the sign-in page: labelled fields, the app\'s name, the way back, and no script', async () => {
    const { path } = await authorizationPath({}, 'Acme <Planner>');
    const res = await raw('GET', path, { headers: HTML });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    const csp = res.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("form-action 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    const html = res.text;
    expect(html).not.toMatch(/<script/i);
    expect(html).toContain('<h1>Sign in to continue to <strong>Acme &lt;Planner&gt;</strong></h1>');
    expect(html).toContain('<form method="post" action="sign-in">');
    expect(html).toMatch(/<label for="email">Email<\/label>\s*<input id="email" name="email" type="email" autocomplete="username" required/);
    expect(html).toMatch(/<label for="password">Password<\/label>\s*<input id="password" name="password" type="password" autocomplete="current-password" required/);
    expect(html).toContain('name="viewport" content="width=device-width, initial-scale=1"');
    expect(hidden(html, 'return_to')).toBe(`/api/v1${path}`);
  });

  it('gives it to a browser whose session cookie is unknown or expired too', async () => {
    const { path } = await authorizationPath();
    const res = await raw('GET', path, { headers: { ...HTML, cookie: 'session=cs_expired-or-unknown' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain('action="sign-in"');
  });

  it.each([
    ['no Accept', {}],
    ['Accept: application/json', { accept: 'application/json' }],
    ['Accept: */*', { accept: '*/*' }],
    ['JSON preferred over HTML', { accept: 'application/json, text/html;q=0.5' }],
  ])('keeps the JSON 401 for a program (%s)', async (_label, headers) => {
    const { path } = await authorizationPath();
    const res = await raw('GET', path, { headers });
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 401, code: 'unauthenticated' });
  });

  it('checks the client before asking anyone to sign in: a bad client_id or redirect_uri gets the error page', async () => {
    const { path } = await authorizationPath({ redirect_uri: 'https://attacker.example/callback' });
    const res = await raw('GET', path, { headers: HTML });
    expect(res.status).toBe(400);
    expect(res.headers.get('location')).toBeNull();
    expect(res.text).toContain('This authorization request cannot be completed');
    expect(res.text).not.toContain('action="sign-in"');
  });

  it('sends a request the client got wrong back to it, as when signed in', async () => {
    const { path } = await authorizationPath({ scope: 'events:delete' });
    const res = await raw('GET', path, { headers: HTML });
    expect(res.status).toBe(302);
    const to = new URL(res.headers.get('location')!);
    expect(`${to.origin}${to.pathname}`).toBe(REDIRECT);
    expect(to.searchParams.get('error')).toBe('invalid_scope');
    expect(to.searchParams.get('state')).toBe('st-1');
  });
});

describe('POST /oauth/sign-in', () => {
  it('signs in with the session cookie and returns to the exact consent URL; from there, Allow gives a code that works', async () => {
    const user = await signUp(base);
    const { app, verifier, path } = await authorizationPath();
    const returnTo = hidden((await raw('GET', path, { headers: HTML })).text, 'return_to')!;
    const res = await signIn({ return_to: returnTo, email: user.email, password: PASSWORD });
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/api/v1${path}`);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    const cookie = res.headers.get('set-cookie')!;
    expect(cookie).toMatch(/^session=cs_[A-Za-z0-9_-]{43}; Path=\/; HttpOnly; SameSite=Lax; Max-Age=\d+$/); // no Secure on 127.0.0.1
    const session = cookie.split(';')[0];

    const consent = await raw('GET', path, { headers: { ...HTML, cookie: session } });
    expect(consent.status).toBe(200);
    expect(consent.text).toContain('wants to access your calendar account');
    expect(consent.text).toContain(user.email);

    const form = Object.fromEntries(new URL(path, 'http://x').searchParams);
    const allowed = await raw('POST', '/oauth/authorize', { headers: { cookie: session, origin }, form: { ...form, decision: 'allow' } });
    expect(allowed.status).toBe(302);
    const code = new URL(allowed.headers.get('location')!).searchParams.get('code')!;
    const token = await raw('POST', '/oauth/token', {
      form: { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier, client_id: app.clientId, client_secret: app.clientSecret },
    });
    expect(token.status).toBe(200);
    const me = await request(base, 'GET', `/events?from=2032-05-01T00:00:00Z&to=2032-06-01T00:00:00Z`, undefined, { authorization: `Bearer ${token.body.access_token}` });
    expect(me.status).toBe(200);
  });

  it.each([
    ['a wrong password', (u: Client) => ({ email: u.email, password: 'not the password' })],
    ['an unknown email', () => ({ email: 'nobody-here@example.com', password: PASSWORD })],
  ])('answers %s with the page again, saying so, and no session', async (_label, credentials) => {
    const user = await signUp(base);
    const { path } = await authorizationPath();
    const sent = credentials(user);
    const res = await signIn({ return_to: `/api/v1${path}`, ...sent });
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('location')).toBeNull();
    expect(res.text).toContain('<p class="problem" id="problem" role="alert">Email or password is wrong.</p>');
    expect(res.text).toContain(`value="${sent.email}"`);
    expect(res.text).toContain('Sign in to continue to <strong>Acme Planner</strong>');
    expect(hidden(res.text, 'return_to')).toBe(`/api/v1${path}`);
    expect(res.text).not.toContain(sent.password);
  });

  it('goes through the same throttle as POST /auth/login: failures on either count, and past the limit even the right password is 429', async () => {
    const user = await signUp(base);
    const { path } = await authorizationPath();
    const login = (password: string) => request(base, 'POST', '/auth/login', { email: user.email, password });
    expect((await login('wrong one')).status).toBe(401);
    expect((await signIn({ return_to: `/api/v1${path}`, email: user.email, password: 'wrong two' })).status).toBe(401);

    const page = await signIn({ return_to: `/api/v1${path}`, email: user.email, password: PASSWORD });
    expect(page.status).toBe(429);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(Number(page.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(page.headers.get('set-cookie')).toBeNull();
    expect(page.text).toMatch(/role="alert">Too many failed sign-ins; retry in \d+ s\.</);
    const json = await login(PASSWORD);
    expect({ status: json.status, code: json.body.error.code }).toEqual({ status: 429, code: 'rate_limited' });
  });

  it.each([
    ['another site', 'https://attacker.example/callback'],
    ['a protocol-relative URL', '//attacker.example/api/v1/oauth/authorize'],
    ['a backslash path', '/\\attacker.example/api/v1/oauth/authorize'],
    ['another page of the service', '/api/v1/me'],
    ['a path that only starts like the endpoint', '/api/v1/oauth/authorized?client_id=x'],
    ['a fragment', '/api/v1/oauth/authorize?client_id=x#frag'],
    ['a header break', '/api/v1/oauth/authorize?x=1\r\nSet-Cookie: a=b'],
    ['a javascript: URL', 'javascript:alert(1)'],
    ['nothing', undefined],
  ])('refuses a return target that is %s with 400 invalid_request, before signing in', async (_label, returnTo) => {
    const user = await signUp(base);
    const res = await signIn({ return_to: returnTo, email: user.email, password: PASSWORD });
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 400, code: 'invalid_request' });
    expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toEqual(['body.return_to']);
    expect(res.headers.get('location')).toBeNull();
    expect(res.headers.get('set-cookie')).toBeNull();
  });

  it.each([
    ['a foreign origin', 'https://attacker.example'],
    ['Origin: null', 'null'],
  ])('refuses the form from %s (login CSRF) with 403 origin_not_allowed and no session', async (_label, from) => {
    const user = await signUp(base);
    const { path } = await authorizationPath();
    const res = await signIn({ return_to: `/api/v1${path}`, email: user.email, password: PASSWORD }, { origin: from });
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 403, code: 'origin_not_allowed' });
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('location')).toBeNull();
  });

  it('lets a request without Origin through (not a browser: no CSRF to fear)', async () => {
    const user = await signUp(base);
    const { path } = await authorizationPath();
    const res = await signIn({ return_to: `/api/v1${path}`, email: user.email, password: PASSWORD }, {});
    expect(res.status).toBe(303);
  });
});
