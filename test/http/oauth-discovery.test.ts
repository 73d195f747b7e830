/**
 * OAuth as an integrator's library sees it: openid-client (v6) finds the endpoints through RFC 8414 discovery, then
 * runs authorization code + PKCE, calls the API with the access token, and rotates the refresh token. The user's
 * consent is given the way the consent page's form gives it.
 */
import * as oauth from 'openid-client';
import { SCOPES } from '../../services/http/access';
import { request, signUp, useTestService, type Client } from '../support/service';

let base: string;
let origin: string;
useTestService((svc) => {
  base = svc.base;
  origin = new URL(svc.base).origin;
});

const REDIRECT = 'https://planner.example/callback';
const RANGE = `from=${encodeURIComponent('2032-05-01T00:00:00Z')}&to=${encodeURIComponent('2032-06-01T00:00:00Z')}`;

async function registerApp(developer: Client, isPublic: boolean) {
  const res = await developer.call('POST', '/oauth/applications', {
    name: 'Planner', redirectUri: REDIRECT, scopes: ['events:read', 'events:create'], public: isPublic,
  });
  expect(res.status).toBe(201);
  return { clientId: res.body.clientId as string, clientSecret: res.body.clientSecret as string | null };
}

const discover = (clientId: string, clientSecret: string | null) =>
  oauth.discovery(new URL(origin), clientId, clientSecret ?? undefined, clientSecret ? oauth.ClientSecretBasic(clientSecret) : oauth.None(), {
    algorithm: 'oauth2',
    execute: [oauth.allowInsecureRequests], // the test service listens on plain http on 127.0.0.1
  });

/** The user opens the authorization URL (consent page) and allows: the answer is the redirect back to the client. */
async function consent(user: Client, authorizationUrl: URL): Promise<URL> {
  const page = await fetch(authorizationUrl, { headers: { cookie: `session=${user.token}` }, redirect: 'manual' });
  expect(page.status).toBe(200);
  expect(await page.text()).toContain('Planner');
  const form = new URLSearchParams(authorizationUrl.searchParams);
  form.set('decision', 'allow');
  const allowed = await fetch(`${base}/oauth/authorize`, {
    method: 'POST', redirect: 'manual', body: form,
    headers: { cookie: `session=${user.token}`, origin, 'content-type': 'application/x-www-form-urlencoded' },
  });
  expect(allowed.status).toBe(302);
  return new URL(allowed.headers.get('location')!);
}

describe('RFC 8414 metadata', () => {
  it('names the issuer, the endpoints, scopes, grants, PKCE and client authentication methods', async () => {
    const res = await request(origin, 'GET', '/.well-known/oauth-authorization-server');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(expect.objectContaining({
      issuer: origin,
      authorization_endpoint: `${base}/oauth/authorize`,
      token_endpoint: `${base}/oauth/token`,
      scopes_supported: [...SCOPES],
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: expect.arrayContaining(['client_secret_basic', 'client_secret_post', 'none']),
    }));
  });
});

describe.each([
  ['a confidential client (client_secret_basic)', false],
  ['a public client (PKCE only)', true],
])('openid-client discovery(), then authorization code + PKCE and refresh, as %s', (_label, isPublic) => {
  it('gets tokens that work on the API, and rotates the refresh token', async () => {
    const developer = await signUp(base);
    const user = await signUp(base);
    const app = await registerApp(developer, isPublic);
    const config = await discover(app.clientId, app.clientSecret);
    expect(config.serverMetadata().issuer).toBe(origin);

    const verifier = oauth.randomPKCECodeVerifier();
    const state = oauth.randomState();
    const authorizationUrl = oauth.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT, scope: 'events:read', state,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    expect(authorizationUrl.href.startsWith(`${base}/oauth/authorize?`)).toBe(true);

    const callback = await consent(user, authorizationUrl);
    const tokens = await oauth.authorizationCodeGrant(config, callback, { pkceCodeVerifier: verifier, expectedState: state });
    expect(tokens.token_type.toLowerCase()).toBe('bearer');
    expect(tokens.scope).toBe('events:read');
    expect(tokens.refresh_token).toMatch(/^cr_/);
    // The access token names the issuer the client discovered (RFC 9068 2.2).
    const claims = JSON.parse(Buffer.from(tokens.access_token.split('.')[1], 'base64url').toString('utf8'));
    expect(claims.iss).toBe(config.serverMetadata().issuer);

    const events = await oauth.fetchProtectedResource(config, tokens.access_token, new URL(`${base}/events?${RANGE}`), 'GET');
    expect(events.status).toBe(200);
    expect(await events.json()).toEqual({ events: [], nextPageToken: null });
    // The scope granted was events:read only.
    const write = await oauth.fetchProtectedResource(config, tokens.access_token, new URL(`${base}/events`), 'POST',
      JSON.stringify({ title: 'x', startsAt: '2032-05-02T10:00:00Z', endsAt: '2032-05-02T11:00:00Z' }), new Headers({ 'content-type': 'application/json' }));
    expect(write.status).toBe(403);

    const refreshed = await oauth.refreshTokenGrant(config, tokens.refresh_token!);
    expect(refreshed.refresh_token).toMatch(/^cr_/);
    expect(refreshed.refresh_token).not.toBe(tokens.refresh_token);
    const again = await oauth.fetchProtectedResource(config, refreshed.access_token, new URL(`${base}/events?${RANGE}`), 'GET');
    expect(again.status).toBe(200);

    // Each refresh token is single-use: the spent one is refused the RFC 6749 way.
    await expect(oauth.refreshTokenGrant(config, tokens.refresh_token!)).rejects.toMatchObject({ error: 'invalid_grant' });
  });

  it('refuses a code redeemed without the PKCE verifier it was issued for', async () => {
    const developer = await signUp(base);
    const user = await signUp(base);
    const app = await registerApp(developer, isPublic);
    const config = await discover(app.clientId, app.clientSecret);
    const verifier = oauth.randomPKCECodeVerifier();
    const authorizationUrl = oauth.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT, scope: 'events:read', state: 'one',
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier), code_challenge_method: 'S256',
    });
    const callback = await consent(user, authorizationUrl);
    await expect(oauth.authorizationCodeGrant(config, callback, { pkceCodeVerifier: oauth.randomPKCECodeVerifier(), expectedState: 'one' }))
      .rejects.toMatchObject({ error: 'invalid_grant' });
  });
});
