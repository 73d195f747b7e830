/**
 * Push delivery end to end with PUSH_MODE=deliver against local endpoints: Web Push (encrypted, VAPID-signed) to a
 * subscription on 127.0.0.1, ios/android through a local gateway, failures recorded on the device, and new
 * notifications pushed by the consumer group (event log -> relay -> bus -> push consumer) to the user's devices only,
 * once per device, only to devices registered before the notification.
 */
import { createPublicKey, randomBytes, verify } from 'node:crypto';
import { PushService } from '../../services/push/push-service';
import { appendDomainEvent, bookingPayload } from '../support/domain-events';
import { startReceiver, until, type Receiver } from '../support/receiver';
import { type Client, signUp, startTestService, type TestService } from '../support/service';
import { webSubscription } from '../support/web-push-client';

/** Kafka needs seconds for a consumer group to join; everything else is quick. */
const WAIT_MS = 45_000;
jest.setTimeout(90_000);

let svc: TestService;
let receiver: Receiver;
let base: string;

beforeAll(async () => {
  receiver = await startReceiver();
  svc = await startTestService({
    PUSH_MODE: 'deliver', PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true', PUSH_GATEWAY_URL: receiver.url('/gateway'), PUSH_GATEWAY_TOKEN: 'gateway-secret',
  });
  base = svc.base;
});
afterAll(async () => {
  await svc.stop();
  await receiver.close();
});

let paths = 0;
const nativeToken = () => randomBytes(32).toString('hex');

async function register(c: Client, body: Record<string, unknown>) {
  const res = await c.call('POST', '/devices', body);
  expect(res.status).toBe(201);
  return res.body.device as Record<string, any>;
}

async function webDevice(c: Client) {
  const path = `/web-${paths++}`;
  const subscription = webSubscription(receiver.url(path));
  const device = await register(c, { platform: 'web', name: 'Browser', pushToken: subscription.token });
  return { path, subscription, device };
}

const gatewayCalls = (token: string) => receiver.received('/gateway').filter((r) => r.json?.token === token);

/** The VAPID JWT of `authorization: vapid t=<jwt>, k=<key>`, checked against the key it names (ES256). */
function vapidClaims(authorization: string, publicKey: string): Record<string, any> {
  const [, jwt, key] = /^vapid t=([^,]+), k=(.+)$/.exec(authorization) ?? [];
  expect(key).toBe(publicKey);
  const [header, payload, signature] = jwt.split('.');
  const raw = Buffer.from(key, 'base64url');
  const jwk = { kty: 'EC', crv: 'P-256', x: raw.subarray(1, 33).toString('base64url'), y: raw.subarray(33).toString('base64url') };
  const valid = verify('sha256', Buffer.from(`${header}.${payload}`), { key: createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, Buffer.from(signature, 'base64url'));
  expect(valid).toBe(true);
  return JSON.parse(Buffer.from(payload, 'base64url').toString());
}

describe('POST /devices/{id}/test with real providers', () => {
  it('web: an encrypted Web Push to the subscription\'s endpoint, signed with the service\'s VAPID key', async () => {
    const c = await signUp(base);
    const { path, subscription, device } = await webDevice(c);
    receiver.on(path, () => 201);
    const res = await c.call('POST', `/devices/${device.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sent: true, push: { kind: 'test', provider: 'web-push', outcome: 'sent', status: 201, error: null } });

    const [arrived] = receiver.received(path);
    expect(arrived.headers['content-encoding']).toBe('aes128gcm');
    expect(Number(arrived.headers.ttl)).toBeGreaterThan(0);
    const vapidPublicKey = (await c.call('GET', '/devices')).body.webPush.vapidPublicKey;
    const claims = vapidClaims(String(arrived.headers.authorization), vapidPublicKey);
    expect(claims).toMatchObject({ aud: new URL(receiver.url('/')).origin, sub: 'mailto:push@localhost' });
    expect(subscription.decrypt(arrived.raw)).toEqual({ title: 'Test notification', body: 'Push notifications reach this device.', data: { kind: 'test' } });
  });

  it('ios/android: a JSON call to the gateway with its token', async () => {
    const c = await signUp(base);
    const token = nativeToken();
    const device = await register(c, { platform: 'android', pushToken: token });
    const res = await c.call('POST', `/devices/${device.id}/test`);
    expect(res.body).toMatchObject({ sent: true, push: { provider: 'gateway', outcome: 'sent', status: 200 } });
    const [call] = gatewayCalls(token);
    expect(call.headers.authorization).toBe('Bearer gateway-secret');
    expect(call.json).toEqual({
      platform: 'android', token, notification: { title: 'Test notification', body: 'Push notifications reach this device.' }, data: { kind: 'test' },
    });
  });

  it('web with an opaque token (an FCM web token, not a PushSubscription): through the gateway', async () => {
    const c = await signUp(base);
    const token = `fcm-web:${nativeToken()}`;
    const device = await register(c, { platform: 'web', pushToken: token });
    const res = await c.call('POST', `/devices/${device.id}/test`);
    expect(res.body).toMatchObject({ sent: true, push: { provider: 'gateway', outcome: 'sent', status: 200 } });
    expect(gatewayCalls(token).map((call) => call.json)).toEqual([{
      platform: 'web', token, notification: { title: 'Test notification', body: 'Push notifications reach this device.' }, data: { kind: 'test' },
    }]);
  });

  it('a refused push is 200 with sent false, and recorded as failed on the device', async () => {
    const c = await signUp(base);
    const { path, device } = await webDevice(c);
    receiver.on(path, () => 410);
    const res = await c.call('POST', `/devices/${device.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ sent: false, push: { provider: 'web-push', outcome: 'failed', status: 410 } });
    expect(res.body.push.error).toContain('expired');
    expect((await c.call('GET', '/devices')).body.devices[0].lastPush).toEqual(res.body.push);
  });

  it('one push id is sent once, however often it is asked for', async () => {
    const c = await signUp(base);
    const token = nativeToken();
    const device = await register(c, { platform: 'ios', pushToken: token });
    const push = new PushService(svc.service.context.config, svc.service.context.store);
    const target = { id: device.id, userId: c.userId, platform: 'ios' as const, pushToken: token };
    const message = { title: 'Once', body: null, data: {} };
    const id = '6f9619ff-8b86-4d01-b42d-00cf4fc964ff';
    const results = await Promise.all([push.push(target, message, { id, kind: 'test', notificationId: null }), push.push(target, message, { id, kind: 'test', notificationId: null })]);
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(gatewayCalls(token)).toHaveLength(1);
  });
});

describe('new notifications are pushed', () => {
  it('to every device of their user that has a token, and to nobody else', async () => {
    const host = await signUp(base);
    const other = await signUp(base);
    const web = await webDevice(host);
    const androidToken = nativeToken();
    const android = await register(host, { platform: 'android', pushToken: androidToken });
    await register(host, { platform: 'ios', name: 'No token yet' });
    const otherToken = nativeToken();
    await register(other, { platform: 'ios', pushToken: otherToken });

    const { position } = await appendDomainEvent(svc, 'booking.created', bookingPayload(host.userId), null);
    await until(() => receiver.received(web.path).length === 1 && gatewayCalls(androidToken).length === 1, WAIT_MS, 'pushes to both devices');
    const notification = (await host.call('GET', '/notifications', undefined, { 'X-Calendar-Min-Position': String(position) })).body.notifications[0];
    const pushed = web.subscription.decrypt(receiver.received(web.path)[0].raw);
    expect(pushed).toEqual({
      title: 'New booking: Ana Costa', body: notification.body,
      data: { notificationId: notification.id, kind: 'booking_created', source: notification.source },
    });
    expect(gatewayCalls(androidToken)[0].json).toMatchObject({ platform: 'android', notification: { title: 'New booking: Ana Costa' } });

    await until(async () => {
      const devices = (await host.call('GET', '/devices')).body.devices as Array<Record<string, any>>;
      return devices.filter((d) => d.lastPush?.outcome === 'sent').length === 2;
    }, WAIT_MS, 'both pushes recorded as sent');
    const listed = (await host.call('GET', '/devices')).body.devices as Array<Record<string, any>>;
    expect(listed.find((d) => d.id === android.id)!.lastPush).toMatchObject({ kind: 'notification', notificationId: notification.id, provider: 'gateway' });
    expect(listed.find((d) => d.name === 'No token yet')!.pushes).toEqual([]);

    // The other user's own notification comes after: by then the host's would have reached them too.
    await appendDomainEvent(svc, 'booking.created', bookingPayload(other.userId), null);
    await until(() => gatewayCalls(otherToken).length === 1, WAIT_MS, 'the other user\'s push');
    expect(gatewayCalls(otherToken)[0].json.notification.title).toBe('New booking: Ana Costa');
    expect(receiver.received(web.path)).toHaveLength(1);
    expect(gatewayCalls(androidToken)).toHaveLength(1);
  });

  it('a device registered after a notification gets only the later ones', async () => {
    const c = await signUp(base);
    const firstToken = nativeToken();
    await register(c, { platform: 'ios', pushToken: firstToken });
    await appendDomainEvent(svc, 'booking.created', bookingPayload(c.userId), null);
    await until(() => gatewayCalls(firstToken).length === 1, WAIT_MS, 'the first push');

    const laterToken = nativeToken();
    await register(c, { platform: 'android', pushToken: laterToken });
    await appendDomainEvent(svc, 'booking.cancelled', bookingPayload(c.userId, { status: 'cancelled', cancelledBy: 'host' }), null);
    await until(() => gatewayCalls(laterToken).length === 1 && gatewayCalls(firstToken).length === 2, WAIT_MS, 'the second push');
    expect(gatewayCalls(laterToken)[0].json.notification.title).toBe('Booking cancelled: Ana Costa');
  });
});
