/**
 * Devices over real HTTP with the default recording push provider: register (201), the same token again (200, the
 * same device, also under concurrency), list, remove, test pushes (200, or 409 no_push_token), validation, scopes
 * and isolation. Contract: api-spec.md "Device (push)" and "Devices and notifications"; addendum.md errors.
 */
import { randomBytes } from 'node:crypto';
import webpush from 'web-push';
import { type ApiResponse, type Client, signUp, useTestService } from '../support/service';
import { webSubscription } from '../support/web-push-client';

const vapid = webpush.generateVAPIDKeys();
let base: string;
useTestService((started) => (base = started.base), { VAPID_PUBLIC_KEY: vapid.publicKey, VAPID_PRIVATE_KEY: vapid.privateKey });

const iosToken = () => randomBytes(32).toString('hex');

function expectError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe('string');
}

function expectInvalid(res: ApiResponse, field: string): void {
  expectError(res, 400, 'invalid_request');
  expect(res.body.error.details.issues.some((i: { path: string }) => i.path.includes(field))).toBe(true);
}

async function register(c: Client, body: Record<string, unknown>, status = 201) {
  const res = await c.call('POST', '/devices', body);
  expect(res.status).toBe(status);
  return res.body.device as Record<string, any>;
}

/** The same token again: 200, the same device. */
const registerAgain = (c: Client, body: Record<string, unknown>) => register(c, body, 200);

const devices = async (c: Client, query = '') => {
  const res = await c.call('GET', `/devices${query}`);
  expect(res.status).toBe(200);
  return res.body as { devices: Array<Record<string, any>>; nextPageToken: string | null; webPush: { vapidPublicKey: string } };
};

describe('POST /devices', () => {
  it('registers a device (201) and the same token again updates it (200), never a second one', async () => {
    const c = await signUp(base);
    const token = iosToken();
    const first = await register(c, { platform: 'ios', name: 'Old phone', pushToken: token });
    expect(first).toEqual({
      id: expect.any(String), platform: 'ios', name: 'Old phone', pushToken: token, lastPush: null, pushes: [],
      createdAt: expect.any(String), updatedAt: expect.any(String),
    });
    const again = await register(c, { platform: 'ios', name: 'Ana\'s iPhone', pushToken: token }, 200);
    expect(again).toMatchObject({ id: first.id, name: 'Ana\'s iPhone', createdAt: first.createdAt });
    const kept = await register(c, { platform: 'ios', pushToken: token }, 200);
    expect(kept).toMatchObject({ id: first.id, name: 'Ana\'s iPhone' });
    expect((await devices(c)).devices.map((d) => [d.id, d.name])).toEqual([[first.id, 'Ana\'s iPhone']]);
  });

  it('ten and more concurrent registrations of one token make one device: one 201, the rest 200', async () => {
    const c = await signUp(base);
    const token = iosToken();
    const results = await Promise.all(
      Array.from({ length: 12 }, (_, i) => c.call('POST', '/devices', { platform: 'android', name: `Attempt ${i}`, pushToken: token })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(results.map((r) => r.body.device.id)).size).toBe(1);
    const listed = (await devices(c)).devices;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ id: results[0].body.device.id, pushToken: token });
  });

  it('devices without a push token are each their own device', async () => {
    const c = await signUp(base);
    const a = await register(c, { platform: 'web' });
    const b = await register(c, { platform: 'web', name: 'Laptop' });
    expect(a.id).not.toBe(b.id);
    expect(a).toMatchObject({ pushToken: null, name: null });
    expect((await devices(c)).devices.map((d) => d.id)).toEqual([a.id, b.id]);
  });

  it('a web subscription is the same token whatever the key order; the stored form is canonical', async () => {
    const c = await signUp(base);
    const sub = webSubscription('https://push.example.com/send/abc123');
    const first = await register(c, { platform: 'web', pushToken: sub.token });
    expect(JSON.parse(first.pushToken)).toEqual({ endpoint: 'https://push.example.com/send/abc123', expirationTime: null, keys: sub.keys });
    const reordered = JSON.stringify({ keys: { auth: sub.keys.auth, p256dh: sub.keys.p256dh }, endpoint: 'https://push.example.com/send/abc123' });
    expect((await register(c, { platform: 'web', pushToken: reordered }, 200)).id).toBe(first.id);
  });

  it('a token another user holds is 409 push_token_taken, until that user removes the device', async () => {
    const a = await signUp(base);
    const b = await signUp(base);
    const token = iosToken();
    const da = await register(a, { platform: 'ios', name: 'A\'s phone', pushToken: token });
    expectError(await b.call('POST', '/devices', { platform: 'ios', name: 'B\'s phone', pushToken: token }), 409, 'push_token_taken');
    expectError(await b.call('POST', '/devices', { platform: 'android', pushToken: token }), 409, 'push_token_taken');
    expect((await devices(b)).devices).toEqual([]);
    expect((await devices(a)).devices.map((d) => [d.id, d.name])).toEqual([[da.id, 'A\'s phone']]);
    expect((await registerAgain(a, { platform: 'ios', pushToken: token })).id).toBe(da.id);

    expect((await a.call('DELETE', `/devices/${da.id}`)).status).toBe(204);
    const db = await register(b, { platform: 'ios', pushToken: token });
    expect(db.id).not.toBe(da.id);
    expect((await devices(a)).devices).toEqual([]);
    expect((await devices(b)).devices.map((d) => d.id)).toEqual([db.id]);
  });

  it('two users registering one token at once: one holds it, the other is refused', async () => {
    const a = await signUp(base);
    const b = await signUp(base);
    const token = iosToken();
    const [a1, b1, a2, b2] = await Promise.all([a, b, a, b].map((u) => u.call('POST', '/devices', { platform: 'ios', pushToken: token })));
    const aWon = a1.status === 201 || a2.status === 201;
    const [holder, other, held, refused] = aWon ? [a, b, [a1, a2], [b1, b2]] : [b, a, [b1, b2], [a1, a2]];
    expect(held.map((r) => r.status).sort()).toEqual([200, 201]);
    for (const r of refused) expectError(r, 409, 'push_token_taken');
    expect((await devices(holder)).devices).toHaveLength(1);
    expect((await devices(other)).devices).toEqual([]);
  });

  it.each([
    ['ios', 't1'],
    ['android', 'x'],
    ['ios', 'a token with spaces and ümlauts'],
    ['web', 'dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx'],
    ['web', 'not-json'],
  ])('takes any printable %s token (%j)', async (platform, pushToken) => {
    const c = await signUp(base);
    const device = await register(c, { platform, pushToken });
    expect(device.pushToken).toBe(pushToken);
    expect((await registerAgain(c, { platform, pushToken })).id).toBe(device.id);
  });

  it.each([
    ['no platform', { name: 'x' }, 'platform'],
    ['an unknown platform', { platform: 'blackberry' }, 'platform'],
    ['an empty token', { platform: 'ios', pushToken: '' }, 'pushToken'],
    ['a blank token', { platform: 'android', pushToken: '   ' }, 'pushToken'],
    ['a token with a line break', { platform: 'ios', pushToken: 'abc\ndef' }, 'pushToken'],
    ['a token with a NUL', { platform: 'web', pushToken: 'abc\u0000def' }, 'pushToken'],
    ['a token over 4096 characters', { platform: 'android', pushToken: 'x'.repeat(4097) }, 'pushToken'],
    ['a web token in JSON that is not a subscription', { platform: 'web', pushToken: '{"token": "abc"}' }, 'pushToken'],
    ['a web subscription without keys', { platform: 'web', pushToken: JSON.stringify({ endpoint: 'https://push.example.com/x' }) }, 'pushToken'],
    ['a web subscription with a short p256dh', {
      platform: 'web', pushToken: JSON.stringify({ endpoint: 'https://push.example.com/x', keys: { p256dh: 'AAAA', auth: randomBytes(16).toString('base64url') } }),
    }, 'pushToken'],
    ['a web subscription with an ftp endpoint', {
      platform: 'web', pushToken: webSubscription('ftp://push.example.com/x').token,
    }, 'pushToken'],
    ['an empty name', { platform: 'ios', name: '' }, 'name'],
    ['a name over 200 characters', { platform: 'ios', name: 'x'.repeat(201) }, 'name'],
    ['an unknown field', { platform: 'ios', model: 'iPhone 15' }, 'model'],
  ])('refuses %s with 400 and registers nothing', async (_label, body, field) => {
    const c = await signUp(base);
    expectInvalid(await c.call('POST', '/devices', body), field);
    expect((await devices(c)).devices).toEqual([]);
  });
});

describe('GET /devices', () => {
  it('pages the devices oldest first and names the VAPID public key web apps subscribe with', async () => {
    const c = await signUp(base);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) ids.push((await register(c, { platform: 'android', pushToken: iosToken() })).id);
    const first = await devices(c, '?limit=2');
    expect(first.devices.map((d) => d.id)).toEqual(ids.slice(0, 2));
    expect(first.nextPageToken).toEqual(expect.any(String));
    const second = await devices(c, `?limit=2&pageToken=${encodeURIComponent(first.nextPageToken!)}`);
    expect(second.devices.map((d) => d.id)).toEqual(ids.slice(2));
    expect(second.nextPageToken).toBeNull();
    expect(first.webPush.vapidPublicKey).toBe(vapid.publicKey);
    expectInvalid(await c.call('GET', '/devices?limit=0'), 'limit');
  });
});

describe('DELETE /devices/{id}', () => {
  it('removes the device (204); it is gone from the list and its token makes a new device', async () => {
    const c = await signUp(base);
    const token = iosToken();
    const device = await register(c, { platform: 'ios', pushToken: token });
    expect((await c.call('DELETE', `/devices/${device.id}`)).status).toBe(204);
    expect((await devices(c)).devices).toEqual([]);
    expectError(await c.call('DELETE', `/devices/${device.id}`), 404, 'not_found');
    expectError(await c.call('POST', `/devices/${device.id}/test`), 404, 'not_found');
    const renewed = await register(c, { platform: 'ios', pushToken: token });
    expect(renewed.id).not.toBe(device.id);
  });

  it('someone else\'s device is 404 and stays', async () => {
    const owner = await signUp(base);
    const other = await signUp(base);
    const device = await register(owner, { platform: 'android', pushToken: iosToken() });
    expectError(await other.call('DELETE', `/devices/${device.id}`), 404, 'not_found');
    expectError(await other.call('POST', `/devices/${device.id}/test`), 404, 'not_found');
    expect((await devices(other)).devices).toEqual([]);
    expect((await devices(owner)).devices.map((d) => d.id)).toEqual([device.id]);
    expect((await devices(owner)).devices[0].pushes).toEqual([]);
  });

  it('an id that is not a uuid is 400', async () => {
    const c = await signUp(base);
    expectInvalid(await c.call('DELETE', '/devices/not-a-uuid'), 'id');
  });
});

describe('POST /devices/{id}/test', () => {
  it('records a test push (recording provider) and shows it on the device', async () => {
    const c = await signUp(base);
    const device = await register(c, { platform: 'ios', pushToken: iosToken() });
    const res = await c.call('POST', `/devices/${device.id}/test`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      sent: true,
      push: { id: expect.any(String), kind: 'test', notificationId: null, provider: 'recording', outcome: 'recorded', status: null, error: null, at: expect.any(String) },
    });
    const second = await c.call('POST', `/devices/${device.id}/test`);
    const listed = (await devices(c)).devices[0];
    expect(listed.lastPush).toEqual(second.body.push);
    expect(listed.pushes.map((p: { id: string }) => p.id)).toEqual([second.body.push.id, res.body.push.id]);
  });

  it('a device without a push token answers 409 no_push_token', async () => {
    const c = await signUp(base);
    const device = await register(c, { platform: 'android', name: 'Tablet' });
    expectError(await c.call('POST', `/devices/${device.id}/test`), 409, 'no_push_token');
  });
});

describe('scopes', () => {
  it('devices:write is needed for every device endpoint', async () => {
    const c = await signUp(base);
    const device = await register(c, { platform: 'ios', pushToken: iosToken() });
    const make = async (scopes: string[]) => (await c.call('POST', '/api-keys', { name: 'App', scopes })).body.key as string;
    const [allowed, denied] = await Promise.all([make(['devices:write']), make(['notifications:read'])]);
    const call = (key: string, method: string, path: string, body?: unknown) =>
      fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: body ? JSON.stringify(body) : undefined });
    expect((await call(allowed, 'GET', '/devices')).status).toBe(200);
    expect((await call(allowed, 'POST', `/devices/${device.id}/test`)).status).toBe(200);
    for (const [method, path] of [['GET', '/devices'], ['POST', '/devices'], ['DELETE', `/devices/${device.id}`], ['POST', `/devices/${device.id}/test`]]) {
      const res = await call(denied, method, path, method === 'POST' && path === '/devices' ? { platform: 'ios' } : undefined);
      expect(res.status).toBe(403);
      expect(((await res.json()) as any).error.code).toBe('insufficient_scope');
    }
  });
});
