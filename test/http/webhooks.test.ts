/**
 * Webhook management over real HTTP: create (secret once), list (never the secret), update, enable/disable,
 * delete, test, the event-type catalogue, validation, refused private URLs, isolation between users.
 * Contract: api-spec.md section 6, addendum.md "Webhook management".
 */
import { verifyWebhookSignature } from '../../contracts/webhook-signature';
import { startReceiver, type Receiver } from '../support/receiver';
import { request, signUp, startTestService, type ApiResponse, type Client, type TestService } from '../support/service';

const env = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50,50', WEBHOOK_TIMEOUT_MS: '1000' };

let svc: TestService;
let receiver: Receiver;
let a: Client;
let b: Client;

beforeAll(async () => {
  [svc, receiver] = await Promise.all([startTestService(env), startReceiver()]);
  [a, b] = await Promise.all([signUp(svc.base), signUp(svc.base)]);
});
afterAll(async () => {
  await svc.stop();
  await receiver.close();
});

let paths = 0;
const freshUrl = () => receiver.url(`/mgmt-${paths++}`);

async function createHook(c: Client, body: Record<string, unknown> = {}) {
  const res = await c.call('POST', '/webhooks', { name: 'Hook', url: freshUrl(), events: ['*'], ...body });
  expect(res.status).toBe(201);
  return res.body as { webhook: Record<string, any>; secret: string };
}

function expectInvalid(res: ApiResponse, path?: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 400, code: 'invalid_request' });
  if (path) expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
}

describe('create and list', () => {
  it('answers 201 {webhook, secret} with a whsec_ secret shown once; the list never shows it', async () => {
    const url = freshUrl();
    const res = await a.call('POST', '/webhooks', { name: 'CRM', url, events: ['event.created', 'event.cancelled'] });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['secret', 'webhook']);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{24,}$/);
    const hook = res.body.webhook;
    expect(Object.keys(hook).sort()).toEqual(['createdAt', 'enabled', 'events', 'id', 'name', 'updatedAt', 'url']);
    expect(hook).toMatchObject({ name: 'CRM', url, events: ['event.created', 'event.cancelled'], enabled: true });

    const list = await a.call('GET', '/webhooks');
    expect(list.status).toBe(200);
    expect(list.body.webhooks).toContainEqual(hook);
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(res.body.secret);
    expect(text).not.toContain('secret');
  });

  it('gives every webhook its own secret', async () => {
    const [one, two] = await Promise.all([createHook(a), createHook(a)]);
    expect(one.secret).not.toBe(two.secret);
  });

  it('returns the same webhook and secret for a retried create with the same Idempotency-Key', async () => {
    const body = { name: 'Retry', url: freshUrl(), events: ['*'] };
    const first = await a.call('POST', '/webhooks', body, { 'Idempotency-Key': 'create-hook-1' });
    const again = await a.call('POST', '/webhooks', body, { 'Idempotency-Key': 'create-hook-1' });
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const named = (await a.call('GET', '/webhooks')).body.webhooks.filter((w: { name: string }) => w.name === 'Retry');
    expect(named).toHaveLength(1);
  });

  it('refuses unknown types, "*" mixed with types, empty lists, bad URLs and missing fields (400)', async () => {
    const base = { name: 'X', url: freshUrl(), events: ['event.created'] };
    expectInvalid(await a.call('POST', '/webhooks', { ...base, events: ['event.exploded'] }), 'body.events.0');
    expectInvalid(await a.call('POST', '/webhooks', { ...base, events: ['*', 'event.created'] }), 'body.events');
    expectInvalid(await a.call('POST', '/webhooks', { ...base, events: [] }), 'body.events');
    expectInvalid(await a.call('POST', '/webhooks', { ...base, url: 'ftp://example.com/x' }), 'body.url');
    expectInvalid(await a.call('POST', '/webhooks', { ...base, url: 'not a url' }), 'body.url');
    expectInvalid(await a.call('POST', '/webhooks', { url: base.url, events: base.events }), 'body.name');
    expectInvalid(await a.call('POST', '/webhooks', { ...base, secret: 'mine' }), 'body.secret');
  });

  it('accepts every catalogue type, integration types included', async () => {
    const types = (await a.call('GET', '/webhooks/event-types')).body.eventTypes.map((t: { type: string }) => t.type);
    const { webhook } = await createHook(a, { events: types });
    expect(webhook.events).toEqual(types);
  });

  it('is session only', async () => {
    expect((await request(svc.base, 'GET', '/webhooks')).status).toBe(401);
    expect((await request(svc.base, 'POST', '/webhooks', { name: 'x', url: freshUrl(), events: ['*'] })).status).toBe(401);
  });
});

describe('GET /webhooks/event-types', () => {
  it('lists the seventeen domain types in the spec\'s order, then the three integration types', async () => {
    const res = await a.call('GET', '/webhooks/event-types');
    expect(res.status).toBe(200);
    const rows = res.body.eventTypes.map((t: Record<string, unknown>) => [t.type, t.listedInSettings, t.integration]);
    expect(rows).toEqual([
      ['event.created', true, false], ['event.updated', true, false], ['event.cancelled', true, false],
      ['task.created', true, false], ['task.updated', true, false], ['task.completed', true, false],
      ['task.assigned', true, false], ['task.due_changed', true, false], ['task.deleted', true, false],
      ['booking.created', true, false], ['booking.cancelled', true, false], ['booking.rescheduled', true, false],
      ['routine.created', true, false], ['routine.updated', true, false], ['routine.deleted', true, false],
      ['routine.period.completed', true, false], ['routine.period.skipped', false, false],
      ['messaging.received', false, true], ['payments.event', false, true], ['form.submitted', false, true],
    ]);
    for (const t of res.body.eventTypes) expect(typeof t.description).toBe('string');
  });

  it('publishes every payload schema in the OpenAPI document', async () => {
    const doc = (await request(svc.base.replace(/\/api\/v1$/, ''), 'GET', '/openapi.json')).body;
    expect(Object.keys(doc.webhooks)).toHaveLength(20);
    const booking = doc.components.schemas['WebhookBody.booking.rescheduled'];
    expect(booking.properties.previous.$ref).toBe('#/components/schemas/BookingRescheduledPrevious');
    expect(doc.components.schemas.BookingRescheduledPrevious.required).toContain('startsAt');
    expect(doc.webhooks['event.created'].post.parameters.map((p: { name: string }) => p.name)).toEqual([
      'X-Calendar-Signature', 'X-Calendar-Event', 'X-Calendar-Delivery', 'X-Calendar-Timestamp',
    ]);
  });
});

describe('update, enable, disable, delete', () => {
  it('changes name, URL, types and enabled; refuses unknown types', async () => {
    const { webhook } = await createHook(a);
    const url = freshUrl();
    const res = await a.call('PATCH', `/webhooks/${webhook.id}`, { name: 'Renamed', url, events: ['event.updated'], enabled: false });
    expect(res.status).toBe(200);
    expect(res.body.webhook).toMatchObject({ id: webhook.id, name: 'Renamed', url, events: ['event.updated'], enabled: false });
    expect(Date.parse(res.body.webhook.updatedAt)).toBeGreaterThanOrEqual(Date.parse(webhook.updatedAt));
    const on = await a.call('PATCH', `/webhooks/${webhook.id}`, { enabled: true });
    expect(on.body.webhook).toMatchObject({ name: 'Renamed', enabled: true });
    expectInvalid(await a.call('PATCH', `/webhooks/${webhook.id}`, { events: ['task.exploded'] }), 'body.events.0');
  });

  it('deletes (204); afterwards the webhook is gone (404)', async () => {
    const { webhook } = await createHook(a);
    expect((await a.call('DELETE', `/webhooks/${webhook.id}`)).status).toBe(204);
    expect((await a.call('GET', '/webhooks')).body.webhooks.map((w: { id: string }) => w.id)).not.toContain(webhook.id);
    expect((await a.call('PATCH', `/webhooks/${webhook.id}`, { enabled: false })).status).toBe(404);
    expect((await a.call('GET', `/webhooks/${webhook.id}/deliveries`)).status).toBe(404);
    expect((await a.call('DELETE', `/webhooks/${webhook.id}`)).status).toBe(404);
  });
});

describe('POST /webhooks/{id}/test', () => {
  it('sends one signed test delivery and reports status and response time', async () => {
    const path = `/test-ok-${paths++}`;
    const { webhook, secret } = await createHook(a, { url: receiver.url(path) });
    const res = await a.call('POST', `/webhooks/${webhook.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ok: true, status: 200, responseTimeMs: expect.any(Number), error: null });
    const [got] = receiver.received(path);
    expect(got.json).toMatchObject({ type: 'webhook.test', data: { webhookId: webhook.id } });
    expect(got.headers['x-calendar-event']).toBe('webhook.test');
    expect(verifyWebhookSignature({
      secret, timestamp: got.headers['x-calendar-timestamp'], signature: got.headers['x-calendar-signature'], body: got.body,
    })).toBe(true);
  });

  it('reports a failing, a redirecting and a silent receiver', async () => {
    const failing = `/test-500-${paths++}`;
    receiver.on(failing, () => 503);
    const one = await createHook(a, { url: receiver.url(failing) });
    expect((await a.call('POST', `/webhooks/${one.webhook.id}/test`)).body).toMatchObject({ ok: false, status: 503 });

    const redirecting = `/test-302-${paths++}`;
    const target = `/test-302-target-${paths++}`;
    receiver.on(redirecting, () => (res) => res.writeHead(302, { location: receiver.url(target) }).end());
    const two = await createHook(a, { url: receiver.url(redirecting) });
    expect((await a.call('POST', `/webhooks/${two.webhook.id}/test`)).body).toMatchObject({ ok: false, status: 302 });
    expect(receiver.received(target)).toHaveLength(0);

    const silent = `/test-silent-${paths++}`;
    receiver.on(silent, () => () => undefined);
    const three = await createHook(a, { url: receiver.url(silent) });
    const res = await a.call('POST', `/webhooks/${three.webhook.id}/test`);
    expect(res.body).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/timed out/) });
    expect(res.body.responseTimeMs).toBeGreaterThanOrEqual(900);
  });
});

describe('isolation between users', () => {
  it('B can neither see nor change A\'s webhook or deliveries: 404, never 403', async () => {
    const { webhook } = await createHook(a);
    expect((await b.call('GET', '/webhooks')).body.webhooks.map((w: { id: string }) => w.id)).not.toContain(webhook.id);
    for (const [method, path, body] of [
      ['PATCH', `/webhooks/${webhook.id}`, { enabled: false }],
      ['POST', `/webhooks/${webhook.id}/test`, undefined],
      ['GET', `/webhooks/${webhook.id}/deliveries`, undefined],
      ['DELETE', `/webhooks/${webhook.id}`, undefined],
    ] as const) {
      const res = await b.call(method, path, body);
      expect({ method, path, status: res.status, code: res.body?.error?.code }).toEqual({ method, path, status: 404, code: 'not_found' });
    }
    expect((await a.call('GET', '/webhooks')).body.webhooks).toContainEqual(webhook);
  });
});

describe('private URLs', () => {
  let strict: TestService;
  let c: Client;
  beforeAll(async () => {
    strict = await startTestService({ WEBHOOK_ALLOW_PRIVATE_URLS: 'false' });
    c = await signUp(strict.base);
  });
  afterAll(() => strict.stop());

  it.each([
    'http://127.0.0.1:9/hook', 'http://localhost:9/hook', 'http://[::1]/hook', 'http://10.1.2.3/hook',
    'http://169.254.169.254/latest/meta-data', 'http://192.168.0.10/hook', 'http://[fd00::1]/hook',
    'http://[::ffff:127.0.0.1]/hook', 'http://0.0.0.0/hook',
  ])('refuses %s at create and update (400) unless the operator allows it', async (url) => {
    expectInvalid(await c.call('POST', '/webhooks', { name: 'x', url, events: ['*'] }), 'body.url');
    const ok = await c.call('POST', '/webhooks', { name: 'x', url: 'http://93.184.216.34/hook', events: ['*'] });
    expect(ok.status).toBe(201);
    expectInvalid(await c.call('PATCH', `/webhooks/${ok.body.webhook.id}`, { url }), 'body.url');
  });

  it('refuses to send to a private address at send time too (the test endpoint)', async () => {
    // Saved while allowed elsewhere, or a name whose DNS answer changed: simulated by a literal written directly.
    const ok = await c.call('POST', '/webhooks', { name: 'x', url: 'http://93.184.216.34/hook', events: ['*'] });
    const doc = await strict.service.context.store.collection('_webhooks').get(ok.body.webhook.id);
    await strict.service.context.store.collection('_webhooks').put({ ...doc!, url: 'http://127.0.0.1:9/hook' });
    const res = await c.call('POST', `/webhooks/${ok.body.webhook.id}/test`);
    expect(res.body).toMatchObject({ ok: false, status: null, error: expect.stringMatching(/private/) });
  });
});
