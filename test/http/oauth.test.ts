/**
 * OAuth 2.0 over real HTTP, as a client and as an attacker would use it: application management, the consent page,
 * the allow/deny POST, the code exchange (with and without PKCE), refresh rotation and reuse detection, revocation
 * by deleting the application, and forged access tokens.
 * Contract: api-spec.md sections 4 (Keys and OAuth apps) and 5; addendum.md (OAuth, token prefixes, RFC 6749 errors).
 */
import { createHash, generateKeyPairSync } from 'node:crypto';
import jwt from 'jsonwebtoken';
import { OAUTH_APPLICATIONS, type ApplicationDoc } from '../../write-api/oauth/applications';
import { OAUTH_CODES } from '../../write-api/oauth/grants';
import { pkce, queryOf, rawRequest, type Raw, type RawOptions } from '../support/oauth';
import { request, signUp, startTestService, type ApiResponse, type Client, type TestService } from '../support/service';

const JWT_SECRET = 'test-oauth-signing-secret-0123456789abcdef';
const REDIRECT = 'https://client.example/callback';

let svc: TestService;
let base: string;
let origin: string;

beforeAll(async () => {
  svc = await startTestService({ OAUTH_JWT_SECRET: JWT_SECRET });
  base = svc.base;
  origin = new URL(base).origin;
});
afterAll(async () => {
  await svc.stop();
});

// ---- helpers -------------------------------------------------------------------------------------------------

const raw = (method: string, path: string, opts: RawOptions = {}) => rawRequest(base, method, path, opts);

const cookie = (c: Client) => ({ cookie: `session=${c.token}` });
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const api = (token: string, method: string, path: string, body?: unknown) => request(base, method, path, body, bearer(token));

const RANGE = `from=${encodeURIComponent('2032-05-01T00:00:00Z')}&to=${encodeURIComponent('2032-06-01T00:00:00Z')}`;

interface App {
  id: string;
  clientId: string;
  clientSecret: string | null;
  redirectUri: string;
}

async function createApp(owner: Client, over: Record<string, unknown> = {}): Promise<App> {
  const res = await owner.call('POST', '/oauth/applications', {
    name: 'Acme Planner', redirectUri: REDIRECT, scopes: ['events:read', 'calendars:read', 'events:create'], ...over,
  });
  expect(res.status).toBe(201);
  return { id: res.body.application.id, clientId: res.body.clientId, clientSecret: res.body.clientSecret, redirectUri: res.body.application.redirectUri };
}

const authParams = (app: App, over: Record<string, string | undefined> = {}) => ({
  response_type: 'code', client_id: app.clientId, redirect_uri: app.redirectUri, scope: 'events:read', state: 'xyz-123', ...over,
});

/** The consent POST as the page's form sends it: form-encoded, with the session cookie, from our own origin. */
const decide = (user: Client, params: Record<string, string | undefined>, decision: 'allow' | 'deny', headers: Record<string, string> = {}) =>
  raw('POST', '/oauth/authorize', { headers: { ...cookie(user), origin, ...headers }, form: { ...params, decision } });

function redirectedTo(res: Raw): URL {
  expect(res.status).toBe(302);
  const location = res.headers.get('location');
  expect(location).toBeTruthy();
  return new URL(location!);
}

async function authorize(user: Client, app: App, over: Record<string, string | undefined> = {}): Promise<string> {
  const url = redirectedTo(await decide(user, authParams(app, over), 'allow'));
  expect(`${url.origin}${url.pathname}`).toBe(app.redirectUri);
  expect(url.searchParams.get('state')).toBe(over.state ?? 'xyz-123');
  return url.searchParams.get('code')!;
}

const exchange = (app: App, code: string, over: Record<string, string | undefined> = {}) =>
  raw('POST', '/oauth/token', {
    form: { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri, client_id: app.clientId, client_secret: app.clientSecret ?? undefined, ...over },
  });

const refresh = (app: App, refreshToken: string, over: Record<string, string | undefined> = {}) =>
  raw('POST', '/oauth/token', {
    form: { grant_type: 'refresh_token', refresh_token: refreshToken, client_id: app.clientId, client_secret: app.clientSecret ?? undefined, ...over },
  });

function expectOAuthError(res: Raw, status: number, error: string): void {
  expect({ status: res.status, error: res.body?.error }).toEqual({ status, error });
  expect(typeof res.body.error_description).toBe('string');
  expect(res.headers.get('cache-control')).toMatch(/no-store/);
}

function expectEnvelope(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
}

/** Signed up user, an application of another user's, and tokens from a full authorization. */
async function connected(scope = 'events:read', appOver: Record<string, unknown> = {}) {
  const developer = await signUp(base);
  const user = await signUp(base);
  const app = await createApp(developer, appOver);
  const code = await authorize(user, app, { scope });
  const res = await exchange(app, code);
  expect(res.status).toBe(200);
  return { developer, user, app, tokens: res.body as { access_token: string; refresh_token: string; scope: string } };
}

// ---- applications --------------------------------------------------------------------------------------------

describe('OAuth applications', () => {
  it('POST answers 201 with the client ID and the secret once; GET never shows the secret; only hashes are stored', async () => {
    const dev = await signUp(base);
    const res = await dev.call('POST', '/oauth/applications', { name: 'Acme', redirectUri: REDIRECT, scopes: ['events:read'] });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    const { application, clientId, clientSecret } = res.body;
    expect(application).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Acme', clientId, redirectUri: REDIRECT, scopes: ['events:read'],
      public: false, createdAt: expect.any(String),
    });
    expect(typeof clientSecret).toBe('string');
    expect(clientSecret.length).toBeGreaterThanOrEqual(40);

    const list = await dev.call('GET', '/oauth/applications');
    expect(list.status).toBe(200);
    expect(list.body.applications).toEqual([application]);
    expect(JSON.stringify(list.body)).not.toContain(clientSecret);
    const stored = await svc.service.context.store.collection<ApplicationDoc>(OAUTH_APPLICATIONS).get(clientId);
    expect(JSON.stringify(stored)).not.toContain(clientSecret);
    expect(stored!.secretHash).toBe(createHash('sha256').update(clientSecret).digest('hex'));
  });

  it('a public application has no secret', async () => {
    const dev = await signUp(base);
    const app = await createApp(dev, { public: true, redirectUri: 'http://localhost:8765/cb' });
    expect(app.clientSecret).toBeNull();
    expect((await dev.call('GET', '/oauth/applications')).body.applications[0].public).toBe(true);
  });

  it.each([
    ['plain http to a public host', { redirectUri: 'http://client.example/cb' }, 'redirectUri'],
    ['a fragment', { redirectUri: 'https://client.example/cb#x' }, 'redirectUri'],
    ['a javascript: URI', { redirectUri: 'javascript:alert(1)' }, 'redirectUri'],
    ['credentials in the URI', { redirectUri: 'https://user:pw@client.example/cb' }, 'redirectUri'],
    ['not a URL', { redirectUri: 'callback' }, 'redirectUri'],
    ['an unknown scope', { scopes: ['events:read', 'admin'] }, 'scopes'],
    ['no scopes', { scopes: [] }, 'scopes'],
    ['no name', { name: undefined }, 'name'],
  ])('refuses %s with 400 invalid_request', async (_label, over, field) => {
    const dev = await signUp(base);
    const res = await dev.call('POST', '/oauth/applications', { name: 'Bad', redirectUri: REDIRECT, scopes: ['events:read'], ...over });
    expectEnvelope(res, 400, 'invalid_request');
    expect(res.body.error.details.issues.some((i: { path: string }) => i.path.includes(field))).toBe(true);
    expect((await dev.call('GET', '/oauth/applications')).body.applications).toEqual([]);
  });

  it.each(['http://localhost:3000/cb', 'http://127.0.0.1/cb', 'https://client.example/cb?tenant=1'])('accepts the redirect URI %s', async (uri) => {
    const dev = await signUp(base);
    expect((await dev.call('POST', '/oauth/applications', { name: 'Ok', redirectUri: uri, scopes: ['events:read'] })).status).toBe(201);
  });

  it('another user\'s application id is 404 on DELETE, and the application stays', async () => {
    const a = await signUp(base);
    const b = await signUp(base);
    const app = await createApp(a);
    expectEnvelope(await b.call('DELETE', `/oauth/applications/${app.id}`), 404, 'not_found');
    expect((await a.call('GET', '/oauth/applications')).body.applications).toHaveLength(1);
    expect((await b.call('GET', '/oauth/applications')).body.applications).toEqual([]);
  });

  it('an OAuth access token cannot manage applications or keys (403 session_required)', async () => {
    const { tokens, app } = await connected();
    for (const [method, path] of [
      ['GET', '/oauth/applications'], ['POST', '/oauth/applications'], ['DELETE', `/oauth/applications/${app.id}`],
      ['GET', '/api-keys'], ['POST', '/api-keys'], ['GET', '/me'],
    ]) {
      expectEnvelope(await api(tokens.access_token, method, path, method === 'POST' ? {} : undefined), 403, 'session_required');
    }
  });
});

// ---- the authorization endpoint ------------------------------------------------------------------------------

describe('GET /oauth/authorize', () => {
  it('shows the signed-in user a consent page with the application name and the requested scopes', async () => {
    const dev = await signUp(base);
    const user = await signUp(base, { name: 'Consenting Carol' });
    const app = await createApp(dev);
    const { challenge } = pkce();
    const params = authParams(app, { scope: 'events:read calendars:read', code_challenge: challenge, code_challenge_method: 'S256' });
    const res = await raw('GET', `/oauth/authorize?${queryOf(params)}`, { headers: cookie(user) });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    expect(res.headers.get('x-frame-options')).toBe('DENY');
    expect(res.headers.get('content-security-policy')).toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('content-security-policy')).toContain("form-action 'self' https://client.example;");
    // Not the service's no-referrer: under it a browser posts the form with Origin: null, which the check refuses.
    expect(res.headers.get('referrer-policy')).toBe('same-origin');
    const html = res.text;
    expect(html).toContain('Acme Planner');
    expect(html).toContain('events:read');
    expect(html).toContain('calendars:read');
    expect(html).not.toContain('events:create'); // allowed for the app, but not requested
    expect(html).toContain('Consenting Carol');
    expect(html).toMatch(/<form method="post" action="authorize">/);
    for (const [name, value] of Object.entries(params)) expect(html).toContain(`name="${name}" value="${value}"`);
    expect(html).toMatch(/name="decision" value="allow"/);
    expect(html).toMatch(/name="decision" value="deny"/);
  });

  it('escapes what the application and the request control', async () => {
    const dev = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(dev, { name: '<script>alert(1)</script> & "Co"' });
    const res = await raw('GET', `/oauth/authorize?${queryOf(authParams(app, { state: '"><script>alert(2)</script>' }))}`, { headers: cookie(user) });
    expect(res.status).toBe(200);
    expect(res.text).not.toContain('<script>');
    expect(res.text).toContain('&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Co&quot;');
    expect(res.text).toContain('value="&quot;&gt;&lt;script&gt;alert(2)&lt;/script&gt;"');
  });

  it('without a scope asks for every scope the application allows', async () => {
    const dev = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(dev);
    const res = await raw('GET', `/oauth/authorize?${queryOf(authParams(app, { scope: undefined }))}`, { headers: cookie(user) });
    expect(res.status).toBe(200);
    for (const s of ['events:read', 'calendars:read', 'events:create']) expect(res.text).toContain(s);
  });

  it('needs a signed-in session (401 without, 403 session_required with an API key)', async () => {
    const dev = await signUp(base);
    const app = await createApp(dev);
    const path = `/oauth/authorize?${queryOf(authParams(app))}`;
    // A program without a session (a browser gets the sign-in page: oauth-sign-in.test.ts).
    for (const accept of [undefined, 'application/json', '*/*']) {
      const res = await raw('GET', path, { headers: accept ? { accept } : {} });
      expect({ accept, status: res.status, code: res.body?.error?.code }).toEqual({ accept, status: 401, code: 'unauthenticated' });
    }
    const key = (await dev.call('POST', '/api-keys', { name: 'k', scopes: ['events:read'] })).body.key;
    expect((await raw('GET', path, { headers: bearer(key) })).status).toBe(403);
  });

  it.each([
    ['an unknown client_id', { client_id: 'nope' }],
    ['no client_id', { client_id: undefined }],
    ['another redirect URI', { redirect_uri: 'https://attacker.example/callback' }],
    ['a redirect URI that only starts like the registered one', { redirect_uri: `${REDIRECT}/../evil` }],
    ['the redirect URI with a trailing slash', { redirect_uri: `${REDIRECT}/` }],
    ['no redirect URI', { redirect_uri: undefined }],
  ])('answers %s with an error page, never a redirect', async (_label, over) => {
    const dev = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(dev);
    for (const res of [
      await raw('GET', `/oauth/authorize?${queryOf(authParams(app, over))}`, { headers: cookie(user) }),
      await decide(user, authParams(app, over), 'allow'),
    ]) {
      expect(res.status).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      expect(res.text).not.toContain('attacker.example');
    }
  });

  it.each([
    ['a scope the application may not ask for', { scope: 'events:read events:delete' }, 'invalid_scope'],
    ['an unknown scope', { scope: 'everything' }, 'invalid_scope'],
    ['response_type token', { response_type: 'token' }, 'unsupported_response_type'],
    ['PKCE with the plain method', { code_challenge: 'a'.repeat(43), code_challenge_method: 'plain' }, 'invalid_request'],
    ['a malformed code_challenge', { code_challenge: 'short', code_challenge_method: 'S256' }, 'invalid_request'],
  ])('redirects %s back to the client with error and state', async (_label, over, error) => {
    const dev = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(dev);
    for (const res of [
      await raw('GET', `/oauth/authorize?${queryOf(authParams(app, over))}`, { headers: cookie(user) }),
      await decide(user, authParams(app, over), 'allow'),
    ]) {
      const url = redirectedTo(res);
      expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
      expect(url.searchParams.get('error')).toBe(error);
      expect(url.searchParams.get('state')).toBe('xyz-123');
      expect(url.searchParams.get('code')).toBeNull();
    }
  });
});

describe('POST /oauth/authorize', () => {
  it('allow redirects to the exact redirect URI with a code and the state', async () => {
    const dev = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(dev, { redirectUri: 'https://client.example/cb?tenant=7' });
    const url = redirectedTo(await decide(user, authParams(app), 'allow'));
    expect(url.origin + url.pathname).toBe('https://client.example/cb');
    expect(url.searchParams.get('tenant')).toBe('7');
    expect(url.searchParams.get('code')).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(url.searchParams.get('state')).toBe('xyz-123');
  });

  it('deny redirects with error=access_denied and the state, and no code', async () => {
    const dev = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(dev);
    const url = redirectedTo(await decide(user, authParams(app), 'deny'));
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('state')).toBe('xyz-123');
    expect(url.searchParams.get('code')).toBeNull();
  });

  it('accepts JSON with a bearer session (phone apps)', async () => {
    const dev = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(dev);
    const res = await raw('POST', '/oauth/authorize', { headers: bearer(user.token), json: { ...authParams(app), decision: 'allow' } });
    expect(redirectedTo(res).searchParams.get('code')).toBeTruthy();
  });

  it.each([
    ['a foreign origin', 'https://attacker.example'],
    // What a browser sends from a page under Referrer-Policy: no-referrer, or from a sandboxed frame.
    ['Origin: null', 'null'],
  ])('refuses a cookie POST from %s (CSRF) and issues no code', async (_label, from) => {
    const dev = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(dev);
    const res = await decide(user, authParams(app), 'allow', { origin: from });
    expect(res.status).toBe(403);
    expect(res.body.error.code).toBe('origin_not_allowed');
    expect(res.headers.get('location')).toBeNull();
    expect(await svc.service.context.store.collection(OAUTH_CODES).find({ clientId: app.clientId })).toEqual([]);
  });

  it('a cookie POST from the service\'s own origin is let through (the consent page\'s form)', async () => {
    const dev = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(dev);
    expect(redirectedTo(await decide(user, authParams(app), 'allow', { origin })).searchParams.get('code')).toBeTruthy();
    expect(await svc.service.context.store.collection(OAUTH_CODES).find({ clientId: app.clientId })).toHaveLength(1);
  });

  it.each([['no decision', undefined], ['an unknown decision', 'maybe']])('with %s answers the 400 page and issues no code', async (_label, decision) => {
    const dev = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(dev);
    const res = await raw('POST', '/oauth/authorize', { headers: { ...cookie(user), origin }, form: { ...authParams(app), decision } });
    expect(res.status).toBe(400);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('location')).toBeNull();
  });

  it('ignores parameters it does not know (RFC 6749 3.1), at both endpoints', async () => {
    const dev = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(dev);
    const url = redirectedTo(await decide(user, { ...authParams(app), prompt: 'consent', extra: 'x' }, 'allow'));
    const code = url.searchParams.get('code')!;
    expect((await exchange(app, code, { resource: 'https://elsewhere.example' })).status).toBe(200);
  });
});

// ---- the token endpoint --------------------------------------------------------------------------------------

describe('POST /oauth/token: authorization_code', () => {
  it('exchanges a code for a JWT access token and a cr_ refresh token (standard response, no-store)', async () => {
    const developer = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(developer);
    const code = await authorize(user, app, { scope: 'events:read calendars:read' });
    const res = await exchange(app, code);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    expect(res.body).toEqual({
      access_token: expect.any(String), token_type: 'Bearer', expires_in: 900,
      refresh_token: expect.stringMatching(/^cr_[A-Za-z0-9_-]{43}$/), scope: 'events:read calendars:read',
    });
    const decoded = jwt.decode(res.body.access_token, { complete: true })!;
    expect(decoded.header.alg).toBe('HS256');
    const claims = decoded.payload as Record<string, any>;
    expect(claims).toMatchObject({ sub: user.userId, client_id: app.clientId, scope: 'events:read calendars:read' });
    // The issuer is the one discovery announces (RFC 9068 2.2).
    const metadata = await request(origin, 'GET', '/.well-known/oauth-authorization-server');
    expect(claims.iss).toBe(metadata.body.issuer);
    expect(typeof claims.fid).toBe('string');
    expect(typeof claims.jti).toBe('string');
    expect(claims.exp - claims.iat).toBe(900);
  });

  it('the access token acts for the user within the granted scopes only', async () => {
    const { user, tokens } = await connected('events:read');
    expect((await user.call('POST', '/events', { title: 'Users event', startsAt: '2032-05-02T10:00:00Z', endsAt: '2032-05-02T11:00:00Z' })).status).toBe(201);
    const list = await api(tokens.access_token, 'GET', `/events?${RANGE}`);
    expect(list.status).toBe(200);
    expect(list.body.events.map((e: { title: string }) => e.title)).toEqual(['Users event']);
    const create = await api(tokens.access_token, 'POST', '/events', { title: 'x', startsAt: '2032-05-03T10:00:00Z', endsAt: '2032-05-03T11:00:00Z' });
    expectEnvelope(create, 403, 'insufficient_scope');
    expect(create.body.error.details).toEqual({ required: 'events:create' });
    const calendars = await api(tokens.access_token, 'GET', '/calendars');
    expectEnvelope(calendars, 403, 'insufficient_scope');
    expect(calendars.body.error.details).toEqual({ required: 'calendars:read' });
  });

  it('accepts a JSON body too, and HTTP Basic client authentication', async () => {
    const developer = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(developer);
    const json = await raw('POST', '/oauth/token', {
      json: { grant_type: 'authorization_code', code: await authorize(user, app), redirect_uri: app.redirectUri, client_id: app.clientId, client_secret: app.clientSecret },
    });
    expect(json.status).toBe(200);
    const basic = Buffer.from(`${encodeURIComponent(app.clientId)}:${encodeURIComponent(app.clientSecret!)}`).toString('base64');
    const viaBasic = await raw('POST', '/oauth/token', {
      headers: { authorization: `Basic ${basic}` },
      form: { grant_type: 'authorization_code', code: await authorize(user, app), redirect_uri: app.redirectUri },
    });
    expect(viaBasic.status).toBe(200);
  });

  it('a wrong client secret is 401 invalid_client (with WWW-Authenticate for Basic), and the code stays usable', async () => {
    const developer = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(developer);
    const code = await authorize(user, app);
    expectOAuthError(await exchange(app, code, { client_secret: 'coa_wrong' }), 401, 'invalid_client');
    expectOAuthError(await exchange(app, code, { client_secret: undefined }), 401, 'invalid_client');
    expectOAuthError(await exchange(app, code, { client_id: 'unknown-client' }), 401, 'invalid_client');
    const basic = Buffer.from(`${app.clientId}:wrong`).toString('base64');
    const viaBasic = await raw('POST', '/oauth/token', {
      headers: { authorization: `Basic ${basic}` }, form: { grant_type: 'authorization_code', code, redirect_uri: app.redirectUri },
    });
    expectOAuthError(viaBasic, 401, 'invalid_client');
    expect(viaBasic.headers.get('www-authenticate')).toMatch(/^Basic/);
    expect((await exchange(app, code)).status).toBe(200);
  });

  it('a reused code is invalid_grant and revokes the tokens issued with it', async () => {
    const developer = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(developer);
    const code = await authorize(user, app);
    const first = await exchange(app, code);
    expect(first.status).toBe(200);
    expect((await api(first.body.access_token, 'GET', `/events?${RANGE}`)).status).toBe(200);
    expectOAuthError(await exchange(app, code), 400, 'invalid_grant');
    expectEnvelope(await api(first.body.access_token, 'GET', `/events?${RANGE}`), 401, 'unauthenticated');
    expectOAuthError(await refresh(app, first.body.refresh_token), 400, 'invalid_grant');
  });

  it('of concurrent exchanges of one code at most one succeeds', async () => {
    const developer = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(developer);
    const code = await authorize(user, app);
    const results = await Promise.all(Array.from({ length: 5 }, () => exchange(app, code)));
    expect(results.filter((r) => r.status === 200).length).toBeLessThanOrEqual(1);
    for (const r of results.filter((x) => x.status !== 200)) expectOAuthError(r, 400, 'invalid_grant');
  });

  it('a code is bound to its client and its redirect URI', async () => {
    const developer = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(developer);
    const other = await createApp(developer, { redirectUri: 'https://other.example/cb' });
    const code = await authorize(user, app);
    expectOAuthError(await exchange(other, code, { redirect_uri: app.redirectUri }), 400, 'invalid_grant');
    expectOAuthError(await exchange(app, code, { redirect_uri: 'https://client.example/other' }), 400, 'invalid_grant');
    expectOAuthError(await exchange(app, code, { redirect_uri: undefined }), 400, 'invalid_request');
    expect((await exchange(app, code)).status).toBe(200);
  });

  it('an expired code (older than about 60 s) is invalid_grant', async () => {
    const developer = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(developer);
    const code = await authorize(user, app);
    const codes = svc.service.context.store.collection(OAUTH_CODES);
    const id = createHash('sha256').update(code).digest('hex');
    const doc = (await codes.get(id))!;
    expect(Number(doc.expiresAt) - Date.now()).toBeLessThanOrEqual(60_000);
    await codes.put({ ...doc, expiresAt: Date.now() - 1 });
    expectOAuthError(await exchange(app, code), 400, 'invalid_grant');
  });

  it('an unknown code is invalid_grant; missing or unsupported grant types are invalid_request / unsupported_grant_type', async () => {
    const developer = await signUp(base);
    const app = await createApp(developer);
    expectOAuthError(await exchange(app, 'not-a-code'), 400, 'invalid_grant');
    expectOAuthError(await exchange(app, 'x', { grant_type: undefined }), 400, 'invalid_request');
    expectOAuthError(await exchange(app, 'x', { grant_type: 'password' }), 400, 'unsupported_grant_type');
    expectOAuthError(await exchange(app, 'x', { grant_type: 'client_credentials' }), 400, 'unsupported_grant_type');
    const wrongTypes = await raw('POST', '/oauth/token', { json: { grant_type: 42, code: ['a'] } });
    expectOAuthError(wrongTypes, 400, 'invalid_request');
  });
});

describe('PKCE', () => {
  it('a public client must use S256, and the verifier must match', async () => {
    const developer = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(developer, { public: true, redirectUri: 'http://127.0.0.1:4567/cb' });
    const without = redirectedTo(await decide(user, authParams(app), 'allow'));
    expect(without.searchParams.get('error')).toBe('invalid_request');

    const { verifier, challenge } = pkce();
    const code = await authorize(user, app, { code_challenge: challenge, code_challenge_method: 'S256' });
    expectOAuthError(await exchange(app, code), 400, 'invalid_grant');
    expectOAuthError(await exchange(app, code, { code_verifier: pkce().verifier }), 400, 'invalid_grant');
    expectOAuthError(await exchange(app, code, { code_verifier: verifier, client_secret: 'coa_made_up' }), 401, 'invalid_client');
    const ok = await exchange(app, code, { code_verifier: verifier });
    expect(ok.status).toBe(200);
    expect((await api(ok.body.access_token, 'GET', `/events?${RANGE}`)).status).toBe(200);
    const rotated = await refresh(app, ok.body.refresh_token);
    expect(rotated.status).toBe(200);
  });

  it('a confidential client may use PKCE too, and then the verifier is checked', async () => {
    const developer = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(developer);
    const { verifier, challenge } = pkce();
    const code = await authorize(user, app, { code_challenge: challenge, code_challenge_method: 'S256' });
    expectOAuthError(await exchange(app, code), 400, 'invalid_grant');
    expect((await exchange(app, code, { code_verifier: verifier })).status).toBe(200);
  });

  it('a verifier for a code issued without a challenge is refused', async () => {
    const developer = await signUp(base);
    const user = await signUp(base);
    const app = await createApp(developer);
    const code = await authorize(user, app);
    expectOAuthError(await exchange(app, code, { code_verifier: pkce().verifier }), 400, 'invalid_grant');
  });
});

describe('POST /oauth/token: refresh_token', () => {
  it('rotates: each refresh answers a new refresh token and a working access token', async () => {
    const { app, tokens } = await connected();
    const r1 = await refresh(app, tokens.refresh_token);
    expect(r1.status).toBe(200);
    expect(r1.body).toEqual({
      access_token: expect.any(String), token_type: 'Bearer', expires_in: 900,
      refresh_token: expect.stringMatching(/^cr_/), scope: 'events:read',
    });
    expect(r1.body.refresh_token).not.toBe(tokens.refresh_token);
    expect((await api(r1.body.access_token, 'GET', `/events?${RANGE}`)).status).toBe(200);
    const r2 = await refresh(app, r1.body.refresh_token);
    expect(r2.status).toBe(200);
    expect(r2.body.refresh_token).not.toBe(r1.body.refresh_token);
  });

  it('reuse of a rotated refresh token is invalid_grant and revokes the whole family', async () => {
    const { app, tokens } = await connected();
    const r1 = await refresh(app, tokens.refresh_token);
    expect(r1.status).toBe(200);
    expectOAuthError(await refresh(app, tokens.refresh_token), 400, 'invalid_grant');
    expectOAuthError(await refresh(app, r1.body.refresh_token), 400, 'invalid_grant');
    expectEnvelope(await api(r1.body.access_token, 'GET', `/events?${RANGE}`), 401, 'unauthenticated');
    expectEnvelope(await api(tokens.access_token, 'GET', `/events?${RANGE}`), 401, 'unauthenticated');
  });

  it('may narrow the scope; asking for more is invalid_scope and leaves the refresh token usable', async () => {
    const { app, tokens } = await connected('events:read calendars:read');
    expectOAuthError(await refresh(app, tokens.refresh_token, { scope: 'events:read events:create' }), 400, 'invalid_scope');
    const narrowed = await refresh(app, tokens.refresh_token, { scope: 'calendars:read' });
    expect(narrowed.status).toBe(200);
    expect(narrowed.body.scope).toBe('calendars:read');
    expect((await api(narrowed.body.access_token, 'GET', '/calendars')).status).toBe(200);
    expectEnvelope(await api(narrowed.body.access_token, 'GET', `/events?${RANGE}`), 403, 'insufficient_scope');
    const again = await refresh(app, narrowed.body.refresh_token);
    expect(again.body.scope).toBe('events:read calendars:read');
  });

  it('a refresh token works only for its own client, and needs the client secret', async () => {
    const { developer, app, tokens } = await connected();
    const other = await createApp(developer);
    expectOAuthError(await refresh(other, tokens.refresh_token), 400, 'invalid_grant');
    expectOAuthError(await refresh(app, tokens.refresh_token, { client_secret: 'coa_wrong' }), 401, 'invalid_client');
    expectOAuthError(await refresh(app, 'cr_unknown'), 400, 'invalid_grant');
    expectOAuthError(await refresh(app, '', {}), 400, 'invalid_request');
    expect((await refresh(app, tokens.refresh_token)).status).toBe(200);
  });
});

// ---- revocation ----------------------------------------------------------------------------------------------

describe('deleting the application', () => {
  it('revokes its access and refresh tokens at once, and its pending codes', async () => {
    const { developer, user, app, tokens } = await connected();
    const pending = await authorize(user, app);
    expect((await api(tokens.access_token, 'GET', `/events?${RANGE}`)).status).toBe(200);
    expect((await developer.call('DELETE', `/oauth/applications/${app.id}`)).status).toBe(204);
    expectEnvelope(await api(tokens.access_token, 'GET', `/events?${RANGE}`), 401, 'unauthenticated');
    expectOAuthError(await refresh(app, tokens.refresh_token), 401, 'invalid_client');
    expectOAuthError(await exchange(app, pending), 401, 'invalid_client');
    expect((await developer.call('GET', '/oauth/applications')).body.applications).toEqual([]);
    const page = await raw('GET', `/oauth/authorize?${queryOf(authParams(app))}`, { headers: cookie(user) });
    expect(page.status).toBe(400);
    expect(page.headers.get('location')).toBeNull();
  });
});

// ---- forged access tokens ------------------------------------------------------------------------------------

describe('access token verification', () => {
  const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');

  it('accepts a token only when signed with HS256 and the configured key and issued here; alg none, other algorithms, bad signatures and other issuers are 401', async () => {
    const { tokens } = await connected('events:read');
    const claims = jwt.decode(tokens.access_token) as Record<string, any>;
    const fresh = { ...claims, iat: Math.floor(Date.now() / 1000), exp: Math.floor(Date.now() / 1000) + 600 };
    const get = (token: string) => api(token, 'GET', `/events?${RANGE}`);

    // The forging below is sound: the same claims, signed as the service signs, pass.
    expect((await get(jwt.sign(fresh, JWT_SECRET, { algorithm: 'HS256' }))).status).toBe(200);

    const [header, payload, signature] = tokens.access_token.split('.');
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
    const forged: Array<[string, string]> = [
      ['alg none, no signature', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(fresh)}.`],
      ['alg none, the original signature', `${b64({ alg: 'none', typ: 'JWT' })}.${b64(fresh)}.${signature}`],
      ['HS512 with the right key', jwt.sign(fresh, JWT_SECRET, { algorithm: 'HS512' })],
      ['HS384 with the right key', jwt.sign(fresh, JWT_SECRET, { algorithm: 'HS384' })],
      ['RS256', jwt.sign(fresh, privateKey, { algorithm: 'RS256' })],
      ['HS256 with another key', jwt.sign(fresh, 'another-secret-another-secret-another-secret', { algorithm: 'HS256' })],
      ['a payload with more scopes', `${header}.${b64({ ...claims, scope: 'events:read events:create' })}.${signature}`],
      ['a broken signature', `${header}.${payload}.${signature.slice(0, -4)}AAAA`],
      ['expired', jwt.sign({ ...fresh, iat: fresh.iat - 7200, exp: fresh.iat - 3600 }, JWT_SECRET, { algorithm: 'HS256' })],
      ['an unknown family', jwt.sign({ ...fresh, fid: '00000000-0000-4000-8000-000000000000' }, JWT_SECRET, { algorithm: 'HS256' })],
      ['another issuer', jwt.sign({ ...fresh, iss: 'someone-else' }, JWT_SECRET, { algorithm: 'HS256' })],
      ['the issuer of another origin', jwt.sign({ ...fresh, iss: 'https://calendar.example' }, JWT_SECRET, { algorithm: 'HS256' })],
      ['the name tokens carried before the issuer was the origin', jwt.sign({ ...fresh, iss: 'calendar-service' }, JWT_SECRET, { algorithm: 'HS256' })],
      ['no issuer', jwt.sign({ ...fresh, iss: undefined }, JWT_SECRET, { algorithm: 'HS256' })],
      ['garbage', 'a.b.c'],
    ];
    for (const [label, token] of forged) {
      const res = await get(token);
      expect({ label, status: res.status, code: res.body?.error?.code }).toEqual({ label, status: 401, code: 'unauthenticated' });
    }
  });
});
