/**
 * With PUBLIC_URL set, the OAuth issuer is that address however the server is reached: discovery announces it,
 * access tokens carry it, and a token is accepted under every name the server answers to.
 */
import { pkce, rawRequest } from '../support/oauth';
import { signUp, useTestService, type TestService } from '../support/service';

const PUBLIC_URL = 'https://calendar.example';
let svc: TestService;
useTestService((s) => (svc = s), { PUBLIC_URL });

const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1], 'base64url').toString());

it('announces PUBLIC_URL as the issuer, signs tokens with it, and accepts them at any of the server\'s names', async () => {
  const origin = new URL(svc.base).origin;
  const localhost = origin.replace('127.0.0.1', 'localhost');
  for (const at of [origin, localhost]) {
    const metadata = await rawRequest(at, 'GET', '/.well-known/oauth-authorization-server');
    expect(metadata.body.issuer).toBe(PUBLIC_URL);
  }

  const developer = await signUp(svc.base);
  const user = await signUp(svc.base);
  const redirectUri = 'https://planner.example/callback';
  const created = await developer.call('POST', '/oauth/applications', { name: 'Planner', redirectUri, scopes: ['events:read'] });
  expect(created.status).toBe(201);
  const { verifier, challenge } = pkce();
  const params = {
    response_type: 'code', client_id: created.body.clientId, redirect_uri: redirectUri, scope: 'events:read', state: 's1',
    code_challenge: challenge, code_challenge_method: 'S256',
  };
  const allowed = await rawRequest(svc.base, 'POST', '/oauth/authorize', {
    form: { ...params, decision: 'allow' }, headers: { cookie: `session=${user.token}`, origin },
  });
  expect(allowed.status).toBe(302);
  const code = new URL(allowed.headers.get('location')!).searchParams.get('code')!;
  const token = await rawRequest(svc.base, 'POST', '/oauth/token', {
    form: {
      grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: created.body.clientId,
      client_secret: created.body.clientSecret, code_verifier: verifier,
    },
  });
  expect(token.status).toBe(200);
  expect(claimsOf(token.body.access_token).iss).toBe(PUBLIC_URL);
  for (const at of [origin, localhost]) {
    const events = await rawRequest(`${at}/api/v1`, 'GET', '/events?from=2032-01-01T00:00:00Z&to=2032-01-02T00:00:00Z', { headers: { authorization: `Bearer ${token.body.access_token}` } });
    expect(events.status).toBe(200);
  }
});
