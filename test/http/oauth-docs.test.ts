/**
 * The /docs page's OAuth2 (Authorize) button over HTTP: the redirect URL the page configures is served (swagger-ui's
 * own redirect page and its script, under a policy that lets it run), PKCE is on, and an application registered with
 * that redirect URI completes the authorization code flow the way swagger-ui drives it. The browser run of the same
 * button is test/browser/oauth.test.ts.
 */
import vm from 'node:vm';
import { pkce, queryOf, rawRequest } from '../support/oauth';
import { signUp, useTestService } from '../support/service';

let base: string;
let origin: string;
useTestService((svc) => {
  base = svc.base;
  origin = new URL(svc.base).origin;
});

/** What /docs/init.js hands swagger-ui, found by running it against a stand-in. */
async function docsConfiguration() {
  const init = await fetch(`${origin}/docs/init.js`);
  expect(init.status).toBe(200);
  const seen: { config?: Record<string, unknown>; oauth?: Record<string, unknown> } = {};
  const SwaggerUIBundle = (config: Record<string, unknown>) => {
    seen.config = config;
    return { initOAuth: (oauth: Record<string, unknown>) => void (seen.oauth = oauth) };
  };
  vm.runInNewContext(await init.text(), { SwaggerUIBundle, location: { origin } });
  return seen;
}

describe('the /docs OAuth2 button', () => {
  it('is configured with a redirect page that exists, and with PKCE', async () => {
    const { config, oauth } = await docsConfiguration();
    expect(config?.oauth2RedirectUrl).toBe(`${origin}/docs/oauth2-redirect.html`);
    expect(oauth).toEqual({ usePkceWithAuthorizationCodeGrant: true });

    const page = await fetch(config!.oauth2RedirectUrl as string);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    const scripts = [...html.matchAll(/<script src="([^"]+)"><\/script>/g)].map((m) => m[1]);
    expect(scripts).toEqual(['oauth2-redirect.js']);
    expect(html).not.toMatch(/<script>/); // nothing inline: the policy allows scripts from this origin only
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self'/);
    const script = await fetch(new URL(scripts[0], page.url));
    expect(script.status).toBe(200);
    expect(script.headers.get('content-type')).toMatch(/javascript/);
    expect(await script.text()).toContain('swaggerUIRedirectOauth2');
  });

  it('the document\'s oauth2 scheme points at the endpoints, and says which redirect URI to register', async () => {
    const doc = (await (await fetch(`${origin}/openapi.json`)).json()) as { components: { securitySchemes: Record<string, any> } };
    const scheme = doc.components.securitySchemes.oauth2;
    expect(scheme.flows.authorizationCode).toMatchObject({ authorizationUrl: '/api/v1/oauth/authorize', tokenUrl: '/api/v1/oauth/token' });
    expect(scheme.description).toContain('/docs/oauth2-redirect.html');
  });

  it('a public application registered with that redirect URI completes the flow swagger-ui runs', async () => {
    const redirectUri = `${origin}/docs/oauth2-redirect.html`;
    const developer = await signUp(base);
    const registered = await developer.call('POST', '/oauth/applications', { name: 'API docs', redirectUri, scopes: ['events:read'], public: true });
    expect(registered.status).toBe(201);
    const clientId = registered.body.clientId as string;

    const user = await signUp(base);
    const { verifier, challenge } = pkce();
    const params = { response_type: 'code', client_id: clientId, redirect_uri: redirectUri, scope: 'events:read', state: 'docs-state', code_challenge: challenge, code_challenge_method: 'S256' };
    const allowed = await rawRequest(base, 'POST', '/oauth/authorize', {
      headers: { cookie: `session=${user.token}`, origin }, form: { ...params, decision: 'allow' },
    });
    expect(allowed.status).toBe(302);
    const back = new URL(allowed.headers.get('location')!);
    expect(`${back.origin}${back.pathname}`).toBe(redirectUri);
    expect(back.searchParams.get('state')).toBe('docs-state');
    expect((await fetch(back)).status).toBe(200); // the page the popup lands on

    // As swagger-ui sends it: form parameters, an empty client_secret for a public client.
    const token = await rawRequest(base, 'POST', '/oauth/token', {
      headers: { origin },
      form: { grant_type: 'authorization_code', code: back.searchParams.get('code')!, client_id: clientId, client_secret: '', redirect_uri: redirectUri, code_verifier: verifier },
    });
    expect(token.status).toBe(200);
    expect(token.body.scope).toBe('events:read');
    const events = await fetch(`${base}/events?${queryOf({ from: '2032-05-01T00:00:00Z', to: '2032-06-01T00:00:00Z' })}`, {
      headers: { authorization: `Bearer ${token.body.access_token}` },
    });
    expect(events.status).toBe(200);
  });
});
