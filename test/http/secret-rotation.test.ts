/**
 * Key rotation (issue 8.8): SERVER_SECRET and OAUTH_JWT_SECRET take a comma list; the first key signs and encrypts,
 * every key verifies and decrypts. A generated key, once a key is configured, only decrypts what it sealed.
 * The same data directory is served four times: generated keys, OLD, NEW+OLD, NEW alone.
 */
import jwt from 'jsonwebtoken';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyWebhookSignature } from '../../contracts/webhook-signature';
import { WEBHOOKS, type WebhookDoc } from '../../services/dispatcher/webhook-store';
import { Keyring } from '../../services/keyring';
import { freePort } from '../bench/util';
import { startReceiver, until, type Receiver } from '../support/receiver';
import { request, startTestService, type TestService } from '../support/service';

const OLD = 'old-server-secret-0123456789';
const NEW = 'new-server-secret-9876543210';
const OLD_JWT = 'old-oauth-jwt-secret-0123456789abcdef';
const NEW_JWT = 'new-oauth-jwt-secret-fedcba9876543210';
const dataDir = mkdtempSync(path.join(tmpdir(), 'calendar-rotation-'));
jest.setTimeout(120_000);

let receiver: Receiver;
// Every run on one port: an OAuth access token is accepted only at the origin that issued it (its `iss`).
let port = '';
beforeAll(async () => {
  receiver = await startReceiver();
  port = String(await freePort());
});
afterAll(() => receiver.close());

async function serve<T>(keys: Record<string, string>, use: (svc: TestService) => Promise<T>): Promise<T> {
  const svc = await startTestService({ DATA_DIR: dataDir, PORT: port, WEBHOOK_ALLOW_PRIVATE_URLS: 'true', ...keys });
  try {
    return await use(svc);
  } finally {
    await svc.stop();
  }
}

const auth = (token: string) => ({ authorization: `Bearer ${token}` });
const sealedSecret = async (svc: TestService, id: string) =>
  (await svc.service.context.store.collection<WebhookDoc>(WEBHOOKS).get(id))!.sealedSecret;

/** An OAuth access token for `token`'s user, through an application of its own and the consent POST. */
async function oauthToken(svc: TestService, token: string): Promise<string> {
  const redirectUri = 'https://client.example/callback';
  const app = await request(svc.base, 'POST', '/oauth/applications', { name: 'Rotating', redirectUri, scopes: ['events:read'] }, auth(token));
  expect(app.status).toBe(201);
  const consent = await fetch(`${svc.base}/oauth/authorize`, {
    method: 'POST',
    redirect: 'manual',
    headers: { cookie: `session=${token}`, origin: svc.service.url!, 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ response_type: 'code', client_id: app.body.clientId, redirect_uri: redirectUri, scope: 'events:read', state: 's', decision: 'allow' }),
  });
  const code = new URL(consent.headers.get('location')!).searchParams.get('code')!;
  const issued = await fetch(`${svc.base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ grant_type: 'authorization_code', code, redirect_uri: redirectUri, client_id: app.body.clientId, client_secret: app.body.clientSecret }),
  });
  expect(issued.status).toBe(200);
  return ((await issued.json()) as { access_token: string }).access_token;
}

describe('key rotation', () => {
  let session = '';
  const hooks: Record<string, { id: string; secret: string; route: string }> = {};
  const cursors: Record<string, string> = {};
  let oldToken = '';
  let firstReply: Record<string, any> = {};
  const event = { title: 'rotated', startsAt: '2031-07-01T09:00:00Z', endsAt: '2031-07-01T10:00:00Z' };

  const addHook = async (svc: TestService, name: string) => {
    const route = `/rotation-${name}`;
    const res = await request(svc.base, 'POST', '/webhooks', { name, url: receiver.url(route), events: ['event.created'] }, auth(session));
    expect(res.status).toBe(201);
    hooks[name] = { id: res.body.webhook.id, secret: res.body.secret, route };
  };
  const cursor = async (svc: TestService) => (await request(svc.base, 'GET', '/me/bootstrap', undefined, auth(session))).body.cursor as string;
  const sync = (svc: TestService, since: string) => request(svc.base, 'GET', `/sync?since=${encodeURIComponent(since)}`, undefined, auth(session));

  it('with generated keys: stores a webhook secret and issues a cursor', async () => {
    await serve({}, async (svc) => {
      const signup = await request(svc.base, 'POST', '/auth/signup', { email: 'rotation@example.com', password: 'long enough', name: 'R' });
      session = signup.body.session.token;
      await addHook(svc, 'generated');
      cursors.generated = await cursor(svc);
    });
  });

  it('once OLD is configured: the generated key still decrypts, but no longer verifies', async () => {
    await serve({ SERVER_SECRET: OLD, OAUTH_JWT_SECRET: OLD_JWT }, async (svc) => {
      expect((await sync(svc, cursors.generated)).status).toBe(410);
      await addHook(svc, 'old');
      cursors.old = await cursor(svc);
      oldToken = await oauthToken(svc, session);
      const created = await request(svc.base, 'POST', '/events', event, { ...auth(session), 'idempotency-key': 'rotation-1' });
      expect(created.status).toBe(201);
      firstReply = created.body;
      for (const name of ['generated', 'old']) await until(() => receiver.received(hooks[name].route).length === 1, 45_000, name);
    });
    const got = receiver.received(hooks.generated.route)[0];
    const signed = { timestamp: got.headers['x-calendar-timestamp'], signature: got.headers['x-calendar-signature'], body: got.body };
    expect(verifyWebhookSignature({ secret: hooks.generated.secret, ...signed })).toBe(true);
  });

  it('with NEW,OLD: everything OLD made still reads; what is made now uses NEW', async () => {
    await serve({ SERVER_SECRET: `${NEW},${OLD}`, OAUTH_JWT_SECRET: `${NEW_JWT},${OLD_JWT}` }, async (svc) => {
      expect((await sync(svc, cursors.old)).status).toBe(200);
      expect((await request(svc.base, 'GET', '/events?from=2031-07-01T00:00:00Z&to=2031-07-02T00:00:00Z', undefined, auth(oldToken))).status).toBe(200);
      const replay = await request(svc.base, 'POST', '/events', event, { ...auth(session), 'idempotency-key': 'rotation-1' });
      expect(replay.status).toBe(201);
      expect(replay.body).toEqual(firstReply);

      const later = await request(svc.base, 'POST', '/events', { ...event, title: 'after rotation', startsAt: '2031-07-02T09:00:00Z', endsAt: '2031-07-02T10:00:00Z' }, auth(session));
      expect(later.status).toBe(201);
      for (const name of ['generated', 'old']) {
        await until(() => receiver.received(hooks[name].route).length === 2, 45_000, name);
        const got = receiver.received(hooks[name].route)[1];
        expect(got.json.data.title).toBe('after rotation');
        expect(verifyWebhookSignature({
          secret: hooks[name].secret, timestamp: got.headers['x-calendar-timestamp'], signature: got.headers['x-calendar-signature'], body: got.body,
        })).toBe(true);
      }

      await addHook(svc, 'new');
      const sealed = await sealedSecret(svc, hooks.new.id);
      expect(new Keyring([NEW]).sealer('webhook-secret').open(sealed)).toBe(hooks.new.secret);
      expect(() => new Keyring([OLD]).sealer('webhook-secret').open(sealed)).toThrow();
      const newToken = await oauthToken(svc, session);
      expect(() => jwt.verify(newToken, NEW_JWT)).not.toThrow();
      expect(() => jwt.verify(newToken, OLD_JWT)).toThrow(/invalid signature/);
      cursors.new = await cursor(svc);
    });
  });

  it('with NEW alone: NEW\'s cursors read, OLD\'s are refused', async () => {
    await serve({ SERVER_SECRET: NEW, OAUTH_JWT_SECRET: NEW_JWT }, async (svc) => {
      expect((await sync(svc, cursors.new)).status).toBe(200);
      expect((await sync(svc, cursors.old)).status).toBe(410);
      expect((await request(svc.base, 'GET', '/me', undefined, auth(oldToken))).status).toBe(401);
    });
  });
});
