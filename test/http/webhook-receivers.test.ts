/**
 * What an integrator's receiver relies on (issue 9, items 6 and 7): every delivery verifies with the
 * `standardwebhooks` package and the shown secret, unchanged, besides the X-Calendar signature; and deliveries of one
 * aggregate to one webhook arrive in log order even when the receiver fails the first attempt.
 */
import { Webhook } from 'standardwebhooks';
import { verifyWebhookSignature } from '../../contracts/webhook-signature';
import { startReceiver, until, type Received, type Receiver } from '../support/receiver';
import { signUp, useTestService, type Client, type TestService } from '../support/service';

const WAIT_MS = 45_000; // Kafka needs seconds for a consumer group to join
jest.setTimeout(90_000);

let svc: TestService;
let receiver: Receiver;
useTestService((s) => (svc = s), { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_DELAYS_MS: '300,300,300,300,300' });
beforeAll(async () => void (receiver = await startReceiver()));
afterAll(() => receiver.close());

async function hook(c: Client, route: string) {
  const res = await c.call('POST', '/webhooks', { name: route, url: receiver.url(route), events: ['*'] });
  expect(res.status).toBe(201);
  return res.body.secret as string;
}

const headersOf = (r: Received) => Object.fromEntries(Object.entries(r.headers).map(([k, v]) => [k, String(v)]));

describe('Standard Webhooks', () => {
  it('a real delivery verifies with the standardwebhooks package and with the X-Calendar signature, one secret', async () => {
    const c = await signUp(svc.base);
    const secret = await hook(c, '/standard');
    expect(secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
    const created = await c.call('POST', '/events', { title: 'Standard', startsAt: '2031-10-01T09:00:00Z', endsAt: '2031-10-01T10:00:00Z' });
    expect(created.status).toBe(201);
    await until(() => receiver.received('/standard').length > 0, WAIT_MS, 'the delivery');

    const [got] = receiver.received('/standard');
    const headers = headersOf(got);
    expect(new Webhook(secret).verify(got.body, headers)).toEqual(got.json);
    expect(headers['webhook-id']).toBe(headers['x-calendar-delivery']);
    expect(headers['webhook-timestamp']).toBe(headers['x-calendar-timestamp']);
    expect(headers['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]{43}=$/);
    expect(() => new Webhook(secret).verify(got.body.replace('Standard', 'Forged'), headers)).toThrow(/signature/i);
    expect(verifyWebhookSignature({
      secret, timestamp: headers['x-calendar-timestamp'], signature: headers['x-calendar-signature'], body: got.body,
    })).toBe(true);
  });
});

describe('order of deliveries', () => {
  it('keeps log order for one aggregate while the receiver fails the first attempt and it is retried', async () => {
    const c = await signUp(svc.base);
    receiver.on('/ordered', (_r, nth) => (nth === 1 ? 503 : 200));
    await hook(c, '/ordered');
    const created = await c.call('POST', '/events', { title: 'v1', startsAt: '2031-11-01T09:00:00Z', endsAt: '2031-11-01T10:00:00Z' });
    expect(created.status).toBe(201);
    const id = created.body.event.id as string;
    expect((await c.call('PATCH', `/events/${id}`, { title: 'v2' })).status).toBe(200);
    expect((await c.call('PATCH', `/events/${id}`, { title: 'v3' })).status).toBe(200);
    expect((await c.call('DELETE', `/events/${id}`)).status).toBe(204);

    await until(() => receiver.received('/ordered').length >= 5, WAIT_MS, 'five requests');
    const arrivals = receiver.received('/ordered').map((r) => `${r.json.type} ${r.json.data.title}`);
    expect(arrivals).toEqual(['event.created v1', 'event.created v1', 'event.updated v2', 'event.updated v3', 'event.cancelled v3']);
  });
});
