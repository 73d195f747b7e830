/**
 * The integration layer's inbound endpoint: a shared-secret signature over the raw body, a body validated per type,
 * and the same pipeline delivering the event to the user's webhooks subscribed to that type.
 * Contract: api-spec.md section 6 (the three integration types), docs/webhooks.md.
 */
import { createHmac } from 'node:crypto';
import { startReceiver, until, sleep, type Receiver } from '../support/receiver';
import { request, signUp, startTestService, type Client, type TestService } from '../support/service';

const SECRET = 'integration-secret-for-tests';
const env = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_DELAYS_MS: '50', INTEGRATIONS_SECRET: SECRET };
jest.setTimeout(90_000);

let svc: TestService;
let receiver: Receiver;
let user: Client;

beforeAll(async () => {
  [svc, receiver] = await Promise.all([startTestService(env), startReceiver()]);
  user = await signUp(svc.base);
});
afterAll(async () => {
  await svc.stop();
  await receiver.close();
});

const sign = (raw: string, secret = SECRET) => createHmac('sha256', secret).update(raw).digest('hex');

function inbound(base: string, body: unknown, signature?: string) {
  const raw = JSON.stringify(body);
  return request(base, 'POST', '/integrations/inbound', raw, {
    'content-type': 'application/json',
    ...(signature === undefined ? { 'x-integration-signature': sign(raw) } : signature ? { 'x-integration-signature': signature } : {}),
  });
}

const payment = { amount: 4200, currency: 'EUR', customer: { id: 'cus_1', email: 'buyer@example.com' }, kind: 'payment' };

describe('POST /integrations/inbound', () => {
  it('delivers a signed report to the user\'s webhooks subscribed to its type, and to no other', async () => {
    const payments = await user.call('POST', '/webhooks', { name: 'p', url: receiver.url('/payments'), events: ['payments.event'] });
    const events = await user.call('POST', '/webhooks', { name: 'e', url: receiver.url('/events-only'), events: ['event.created'] });
    const all = await user.call('POST', '/webhooks', { name: 'a', url: receiver.url('/all'), events: ['*'] });
    expect([payments.status, events.status, all.status]).toEqual([201, 201, 201]);

    const res = await inbound(svc.base, { type: 'payments.event', userId: user.userId, data: payment });
    expect(res.status).toBe(202);
    expect(res.body).toEqual({ id: expect.stringMatching(/^[0-9a-f-]{36}$/), type: 'payments.event' });
    await until(() => receiver.received('/payments').length === 1 && receiver.received('/all').length === 1, 45_000);
    await sleep(300);
    const [got] = receiver.received('/payments');
    expect(got.json).toEqual({ id: res.body.id, type: 'payments.event', createdAt: expect.any(String), data: payment });
    expect(got.headers['x-calendar-event']).toBe('payments.event');
    expect(receiver.received('/events-only')).toHaveLength(0);
  });

  it('validates the body per type and refuses unknown types (400)', async () => {
    const bad = [
      { type: 'payments.event', userId: user.userId, data: { ...payment, currency: 'euro' } },
      { type: 'messaging.received', userId: user.userId, data: { sender: '+15550100' } },
      { type: 'form.submitted', userId: user.userId, data: { answers: [] } },
      { type: 'event.created', userId: user.userId, data: {} },
      { type: 'payments.event', userId: 'nobody', data: payment },
    ];
    for (const body of bad) expect({ body, status: (await inbound(svc.base, body)).status }).toEqual({ body, status: 400 });
  });

  it('accepts messaging and form reports', async () => {
    const hook = await user.call('POST', '/webhooks', {
      name: 'm', url: receiver.url('/messages-forms'), events: ['messaging.received', 'form.submitted'],
    });
    expect(hook.status).toBe(201);
    const message = { sender: '+15550100', text: 'Running late' };
    const form = { formId: 'contact', answers: [{ question: 'Name', answer: 'Ada' }, { question: 'Topics', answer: ['a', 'b'] }] };
    expect((await inbound(svc.base, { type: 'messaging.received', userId: user.userId, data: message })).status).toBe(202);
    expect((await inbound(svc.base, { type: 'form.submitted', userId: user.userId, data: form })).status).toBe(202);
    await until(() => receiver.received('/messages-forms').length === 2, 45_000);
    const byType = Object.fromEntries(receiver.received('/messages-forms').map((r) => [r.json.type, r.json.data]));
    expect(byType).toEqual({ 'messaging.received': message, 'form.submitted': form });
  });

  it('refuses a missing or wrong signature (401) and an unknown user (404)', async () => {
    const body = { type: 'payments.event', userId: user.userId, data: payment };
    expect((await inbound(svc.base, body, '')).status).toBe(401);
    const wrong = await inbound(svc.base, body, sign(JSON.stringify(body), 'another-secret-entirely'));
    expect({ status: wrong.status, code: wrong.body.error.code }).toEqual({ status: 401, code: 'invalid_signature' });
    // Signed over other bytes than were sent (a re-serialised body does not pass).
    const raw = JSON.stringify(body, null, 2);
    const resigned = await request(svc.base, 'POST', '/integrations/inbound', JSON.stringify(body), {
      'content-type': 'application/json', 'x-integration-signature': sign(raw),
    });
    expect(resigned.status).toBe(401);
    const stranger = await inbound(svc.base, { ...body, userId: '00000000-0000-4000-8000-000000000000' });
    expect(stranger.status).toBe(404);
  });

  it('checks the signature before anything else: an unsigned caller learns nothing and claims no Idempotency-Key', async () => {
    const invalid = await inbound(svc.base, { type: 'nonsense' }, 'f'.repeat(64));
    expect({ status: invalid.status, code: invalid.body.error.code }).toEqual({ status: 401, code: 'invalid_signature' });
    const body = { type: 'payments.event', userId: user.userId, data: payment };
    const raw = JSON.stringify(body);
    const headers = { 'content-type': 'application/json', 'idempotency-key': 'shared-key' };
    const unsigned = await request(svc.base, 'POST', '/integrations/inbound', raw, { ...headers, 'x-integration-signature': 'f'.repeat(64) });
    expect(unsigned.status).toBe(401);
    const signed = await request(svc.base, 'POST', '/integrations/inbound', raw, { ...headers, 'x-integration-signature': sign(raw) });
    expect(signed.status).toBe(202);
  });

  it('answers 404 while INTEGRATIONS_SECRET is unset', async () => {
    const plain = await startTestService();
    try {
      const other = await signUp(plain.base);
      const res = await inbound(plain.base, { type: 'payments.event', userId: other.userId, data: payment });
      expect(res.status).toBe(404);
    } finally {
      await plain.stop();
    }
  });
});
