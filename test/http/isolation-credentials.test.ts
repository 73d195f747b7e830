/**
 * Two users and every credential-bearing resource: API keys, OAuth applications and webhooks. Neither user can list,
 * change or delete the other's (404 for the other's ids, never 403), and nothing of the other's changes.
 */
import { signUp, startTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
let a: Client;
let b: Client;
const ids = { key: '', app: '', webhook: '' };

beforeAll(async () => {
  svc = await startTestService({ WEBHOOK_ALLOW_PRIVATE_URLS: 'true' });
  [a, b] = [await signUp(svc.base), await signUp(svc.base)];
  ids.key = (await a.call('POST', '/api-keys', { name: 'A key', scopes: ['events:read'] })).body.apiKey.id;
  ids.app = (await a.call('POST', '/oauth/applications', { name: 'A app', redirectUri: 'http://localhost:9/cb', scopes: ['events:read'] })).body.application.id;
  ids.webhook = (await a.call('POST', '/webhooks', { name: 'A hook', url: 'http://127.0.0.1:9/hook', events: ['*'] })).body.webhook.id;
});
afterAll(() => svc.stop());

describe("one user never reaches another's credentials", () => {
  it('lists only their own', async () => {
    for (const [path, field] of [['/api-keys', 'apiKeys'], ['/oauth/applications', 'applications'], ['/webhooks', 'webhooks']] as const) {
      const mine = await a.call('GET', path);
      const theirs = await b.call('GET', path);
      expect({ path, mine: mine.body[field].length }).toEqual({ path, mine: 1 });
      expect({ path, theirs: theirs.body[field] }).toEqual({ path, theirs: [] });
    }
  });

  it.each([
    ['DELETE', () => `/api-keys/${ids.key}`, undefined],
    ['DELETE', () => `/oauth/applications/${ids.app}`, undefined],
    ['PATCH', () => `/webhooks/${ids.webhook}`, { name: 'taken over' }],
    ['DELETE', () => `/webhooks/${ids.webhook}`, undefined],
    ['POST', () => `/webhooks/${ids.webhook}/test`, {}],
    ['GET', () => `/webhooks/${ids.webhook}/deliveries`, undefined],
  ] as const)('%s on the other user\'s id is 404', async (method, path, body) => {
    const res = await b.call(method, path(), body);
    expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 404, code: 'not_found' });
  });

  it("leaves the owner's resources as they were", async () => {
    expect((await a.call('GET', '/api-keys')).body.apiKeys.map((k: { id: string }) => k.id)).toEqual([ids.key]);
    expect((await a.call('GET', '/oauth/applications')).body.applications.map((x: { id: string }) => x.id)).toEqual([ids.app]);
    const [hook] = (await a.call('GET', '/webhooks')).body.webhooks;
    expect(hook).toMatchObject({ id: ids.webhook, name: 'A hook' });
  });
});
