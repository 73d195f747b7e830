/**
 * The webhook pipeline end to end (event log -> relay -> bus -> dispatcher -> a real receiver on 127.0.0.1):
 * signed bodies, retries with one delivery id, the six-attempt limit, filtering, disabled webhooks, isolation,
 * redelivery, a restart in the middle of retries, and routine.* payloads. Contract: api-spec.md section 6, addendum.md
 * "Webhook management".
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyWebhookSignature } from '../../contracts/webhook-signature';
import { DELIVERY_WAIT_MS as WAIT_MS, RECEIVING_ENV as env, sleep, until, useServiceAndReceiver, type Receiver } from '../support/receiver';
import { request, signUp, startTestService, type Client, type TestService } from '../support/service';

jest.setTimeout(90_000);

let svc: TestService;
let receiver: Receiver;
useServiceAndReceiver((started, r) => ([svc, receiver] = [started, r]));

let paths = 0;
let slot = 0;
/** A non-overlapping slot per created event (30 minutes apart), so no test trips over a time conflict. */
const eventBody = (title = 'Sync') => {
  const start = Date.UTC(2031, 4, 1) + slot++ * 30 * 60_000;
  return { title, startsAt: new Date(start).toISOString(), endsAt: new Date(start + 20 * 60_000).toISOString() };
};

async function hook(c: Client, events: string[] = ['*'], extra: Record<string, unknown> = {}) {
  const route = `/hook-${paths++}`;
  const res = await c.call('POST', '/webhooks', { name: route, url: receiver.url(route), events, ...extra });
  expect(res.status).toBe(201);
  return { route, id: res.body.webhook.id as string, secret: res.body.secret as string };
}

async function createEvent(c: Client, title?: string) {
  const res = await c.call('POST', '/events', eventBody(title));
  expect(res.status).toBe(201);
  return res.body.event as { id: string; title: string };
}

const deliveries = async (c: Client, webhookId: string) => {
  const res = await c.call('GET', `/webhooks/${webhookId}/deliveries`);
  expect(res.status).toBe(200);
  return res.body.deliveries as Array<Record<string, any>>;
};

const arrived = (route: string, n: number, what = `${n} requests at ${route}`) =>
  until(() => receiver.received(route).length >= n, WAIT_MS, what);

describe('delivery', () => {
  it('POSTs {id, type, createdAt, data} with the four headers, signed so the helper verifies it', async () => {
    const a = await signUp(svc.base);
    const h = await hook(a);
    const before = Math.floor(Date.now() / 1000);
    const event = await createEvent(a, 'Signed');
    await arrived(h.route, 1);
    const [got] = receiver.received(h.route);
    expect(got.headers['content-type']).toMatch(/^application\/json/);
    expect(Object.keys(got.json).sort()).toEqual(['createdAt', 'data', 'id', 'type']);
    expect(got.json).toMatchObject({ type: 'event.created', data: { id: event.id, title: 'Signed' } });
    expect(got.json.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(got.json.id).not.toBe(event.id); // the domain event's id, not the calendar event's
    expect(got.headers['x-calendar-event']).toBe('event.created');
    expect(got.headers['x-calendar-delivery']).toMatch(/^[0-9a-f-]{36}$/);
    const ts = Number(got.headers['x-calendar-timestamp']);
    expect(ts).toBeGreaterThanOrEqual(before - 1);
    expect(ts).toBeLessThanOrEqual(Math.floor(Date.now() / 1000) + 1);
    expect(got.headers['x-calendar-signature']).toMatch(/^[0-9a-f]{64}$/);
    const check = { secret: h.secret, timestamp: got.headers['x-calendar-timestamp'], signature: got.headers['x-calendar-signature'] };
    expect(verifyWebhookSignature({ ...check, body: got.body })).toBe(true);
    expect(verifyWebhookSignature({ ...check, body: got.body.replace('Signed', 'Forged') })).toBe(false);

    // The outcome is recorded once the receiver has answered: a moment after the request arrived.
    await until(async () => (await deliveries(a, h.id))[0]?.state === 'delivered', WAIT_MS, 'delivered');
    const [logged] = await deliveries(a, h.id);
    expect(logged).toMatchObject({ id: got.headers['x-calendar-delivery'], webhookId: h.id, eventId: got.json.id, type: 'event.created', state: 'delivered' });
    expect(logged.payload).toEqual(got.json);
    expect(logged.attempts).toEqual([{ at: expect.any(String), status: 200, responseTimeMs: expect.any(Number), error: null }]);
  });

  it('fails twice, then succeeds: three attempts of one delivery id, identical bodies', async () => {
    const a = await signUp(svc.base);
    const h = await hook(a);
    receiver.on(h.route, (_r, nth) => (nth <= 2 ? 500 : 200));
    await createEvent(a);
    await arrived(h.route, 3);
    await until(async () => (await deliveries(a, h.id))[0]?.state === 'delivered', WAIT_MS, 'delivered');
    await sleep(300);
    const got = receiver.received(h.route);
    expect(got).toHaveLength(3);
    expect(new Set(got.map((r) => r.headers['x-calendar-delivery'])).size).toBe(1);
    expect(new Set(got.map((r) => r.body)).size).toBe(1);
    const log = await deliveries(a, h.id);
    expect(log).toHaveLength(1);
    expect(log[0].attempts.map((t: { status: number }) => t.status)).toEqual([500, 500, 200]);
    expect(log[0].attempts[0].error).toBe('HTTP 500');
  });

  it('always failing: exactly six attempts (five retries), then failed and visible in the log', async () => {
    const a = await signUp(svc.base);
    const h = await hook(a);
    receiver.on(h.route, () => 500);
    await createEvent(a);
    await until(async () => (await deliveries(a, h.id))[0]?.state === 'failed', WAIT_MS, 'failed');
    await sleep(400); // nothing more comes
    expect(receiver.received(h.route)).toHaveLength(6);
    const [logged] = await deliveries(a, h.id);
    expect(logged.attempts).toHaveLength(6);
    expect(logged.nextAttemptAt).toBeNull();
    for (const t of logged.attempts) expect(t).toMatchObject({ status: 500, error: 'HTTP 500' });
  });

  it('counts a time-out and a redirect as failures and never follows the redirect', async () => {
    const a = await signUp(svc.base);
    const h = await hook(a);
    const target = `/redirect-target-${paths++}`;
    receiver.on(h.route, (_r, nth) =>
      nth === 1 ? () => undefined : nth === 2 ? (res) => res.writeHead(307, { location: receiver.url(target) }).end() : 200);
    await createEvent(a);
    await until(async () => (await deliveries(a, h.id))[0]?.state === 'delivered', WAIT_MS, 'delivered');
    const [logged] = await deliveries(a, h.id);
    expect(logged.attempts.map((t: { status: number | null }) => t.status)).toEqual([null, 307, 200]);
    expect(logged.attempts[0].error).toMatch(/timed out/);
    expect(receiver.received(target)).toHaveLength(0);
  });

  it('delivers event.updated and event.cancelled with the whole event', async () => {
    const a = await signUp(svc.base);
    const h = await hook(a);
    const event = await createEvent(a);
    expect((await a.call('PATCH', `/events/${event.id}`, { title: 'Moved' })).status).toBe(200);
    expect((await a.call('DELETE', `/events/${event.id}`)).status).toBe(204);
    await arrived(h.route, 3);
    const byType = Object.fromEntries(receiver.received(h.route).map((r) => [r.json.type, r.json.data]));
    expect(byType['event.updated']).toMatchObject({ id: event.id, title: 'Moved', status: 'confirmed' });
    expect(byType['event.cancelled']).toMatchObject({ id: event.id, status: 'cancelled', deletedAt: expect.any(String) });
  });
});

describe('routine.* deliveries', () => {
  /** A routine as the API answers it, without the API-only fields: what webhooks carry. */
  const asPayload = ({ version: _version, deletedAt: _deletedAt, ...routine }: Record<string, any>) => routine;
  const routineBody = { name: 'Mornings', days: [1, 2, 3, 4, 5], periods: [{ name: 'Run', startMinute: 420, endMinute: 465, items: [{ title: 'Stretch' }] }] };

  it('delivers created, updated, period.completed, period.skipped and deleted with their payloads; a cleared status nothing', async () => {
    const [a, b] = await Promise.all([signUp(svc.base), signUp(svc.base)]);
    const all = await hook(a);
    const skippedOnly = await hook(a, ['routine.period.skipped']);
    const bHook = await hook(b);
    const created = (await a.call('POST', '/routines', routineBody)).body.routine;
    const day = (date: string, body: unknown) => a.call('PUT', `/routines/periods/${created.periods[0].id}/days/${date}`, body);
    const updated = (await a.call('PATCH', `/routines/${created.id}`, { name: 'Early mornings' })).body.routine;
    expect((await day('2026-10-26', { status: 'done' })).status).toBe(200);
    expect((await day('2026-10-26', { status: null })).status).toBe(200);
    expect((await day('2026-10-27', { status: null, startMinute: 430, endMinute: 475 })).status).toBe(200);
    expect((await a.call('PUT', `/routines/items/${created.periods[0].items[0].id}/days/2026-10-27`, { done: true })).status).toBe(200);
    expect((await day('2026-10-27', { status: 'skipped' })).status).toBe(200);
    expect((await a.call('DELETE', `/routines/${created.id}`)).status).toBe(204);

    await arrived(all.route, 5);
    await arrived(skippedOnly.route, 1);
    await sleep(300);
    const byType = Object.fromEntries(receiver.received(all.route).map((r) => [r.json.type, r.json.data]));
    expect(Object.keys(byType).sort()).toEqual(['routine.created', 'routine.deleted', 'routine.period.completed', 'routine.period.skipped', 'routine.updated']);
    expect(receiver.received(all.route)).toHaveLength(5);
    expect(byType['routine.created']).toEqual(asPayload(created));
    expect(byType['routine.updated']).toEqual(asPayload(updated));
    expect(byType['routine.deleted']).toEqual({ ...asPayload(updated), updatedAt: expect.any(String) });
    expect(byType['routine.period.completed']).toEqual({ period: updated.periods[0], date: '2026-10-26', routine: asPayload(updated) });
    expect(byType['routine.period.skipped']).toEqual({ period: updated.periods[0], date: '2026-10-27', routine: asPayload(updated) });
    expect(receiver.received(skippedOnly.route).map((r) => r.json.type)).toEqual(['routine.period.skipped']);
    expect(receiver.received(bHook.route)).toHaveLength(0);
  });
});

describe('who gets what', () => {
  it('filters by type; ["*"] gets every type; a disabled webhook gets nothing', async () => {
    const a = await signUp(svc.base);
    const cancelledOnly = await hook(a, ['event.cancelled']);
    const everything = await hook(a, ['*']);
    const disabled = await hook(a, ['*']);
    expect((await a.call('PATCH', `/webhooks/${disabled.id}`, { enabled: false })).status).toBe(200);
    const event = await createEvent(a);
    expect((await a.call('PATCH', `/events/${event.id}`, { title: 'Changed' })).status).toBe(200);
    expect((await a.call('DELETE', `/events/${event.id}`)).status).toBe(204);
    await arrived(everything.route, 3);
    await arrived(cancelledOnly.route, 1);
    await sleep(300);
    expect(receiver.received(everything.route).map((r) => r.json.type).sort()).toEqual(['event.cancelled', 'event.created', 'event.updated']);
    expect(receiver.received(cancelledOnly.route).map((r) => r.json.type)).toEqual(['event.cancelled']);
    expect(receiver.received(disabled.route)).toHaveLength(0);
    expect(await deliveries(a, disabled.id)).toEqual([]);
  });

  it('never sends A\'s changes to B\'s webhook', async () => {
    const [a, b] = await Promise.all([signUp(svc.base), signUp(svc.base)]);
    const ha = await hook(a);
    const hb = await hook(b);
    await createEvent(a, 'A private');
    await createEvent(b, 'B own');
    await arrived(ha.route, 1);
    await arrived(hb.route, 1);
    await sleep(300);
    expect(receiver.received(hb.route).map((r) => r.json.data.title)).toEqual(['B own']);
    expect(receiver.received(ha.route).map((r) => r.json.data.title)).toEqual(['A private']);
    expect((await b.call('GET', `/webhooks/${ha.id}/deliveries`)).status).toBe(404);
    const [delivery] = await deliveries(a, ha.id);
    expect((await b.call('POST', `/webhooks/deliveries/${delivery.id}/redeliver`)).status).toBe(404);
  });

  it('does not deliver changes made before the webhook existed', async () => {
    const a = await signUp(svc.base);
    await createEvent(a, 'Before');
    const h = await hook(a);
    await createEvent(a, 'After');
    await arrived(h.route, 1);
    await sleep(300);
    expect(receiver.received(h.route).map((r) => r.json.data.title)).toEqual(['After']);
  });
});

describe('slow receivers', () => {
  it('a slow receiver does not hold up another webhook\'s deliveries', async () => {
    const a = await signUp(svc.base);
    const slow = await hook(a);
    const fast = await hook(a);
    receiver.on(slow.route, () => (res) => void setTimeout(() => res.writeHead(200).end(), 1500));
    for (let i = 0; i < 10; i++) await createEvent(a, `Busy ${i}`);
    await arrived(fast.route, 10);
    // One Space's deliveries go to a webhook one after another (in log order): the slow one answers every 1.5 s, so
    // the fast webhook got all ten while the slow one is still far from done.
    const slowDelivered = (await deliveries(a, slow.id)).filter((d) => d.state === 'delivered').length;
    expect(slowDelivered).toBeLessThan(10);
    await until(async () => (await deliveries(a, slow.id)).filter((d) => d.state === 'delivered').length === 10, WAIT_MS, 'slow ones delivered');
  });
});

describe('redelivery', () => {
  it('sends a past delivery again under the same delivery id and body (202)', async () => {
    const a = await signUp(svc.base);
    const h = await hook(a);
    await createEvent(a);
    await until(async () => (await deliveries(a, h.id))[0]?.state === 'delivered', WAIT_MS, 'delivered');
    const [first] = await deliveries(a, h.id);
    const res = await a.call('POST', `/webhooks/deliveries/${first.id}/redeliver`);
    expect(res.status).toBe(202);
    expect(res.body.delivery).toMatchObject({ id: first.id, state: 'pending' });
    await arrived(h.route, 2);
    const [one, two] = receiver.received(h.route);
    expect(two.headers['x-calendar-delivery']).toBe(one.headers['x-calendar-delivery']);
    expect(two.body).toBe(one.body);
    await until(async () => (await deliveries(a, h.id))[0]?.attempts.length === 2, WAIT_MS, 'second attempt logged');
    const log = await deliveries(a, h.id);
    expect(log).toHaveLength(1);
    expect(log[0].state).toBe('delivered');
    expect((await a.call('POST', '/webhooks/deliveries/00000000-0000-4000-8000-000000000000/redeliver')).status).toBe(404);
  });

  it('gives a failed delivery a new round of retries', async () => {
    const a = await signUp(svc.base);
    const h = await hook(a);
    receiver.on(h.route, (_r, nth) => (nth <= 6 ? 500 : 200));
    await createEvent(a);
    await until(async () => (await deliveries(a, h.id))[0]?.state === 'failed', WAIT_MS, 'failed');
    const [failed] = await deliveries(a, h.id);
    expect((await a.call('POST', `/webhooks/deliveries/${failed.id}/redeliver`)).status).toBe(202);
    await until(async () => (await deliveries(a, h.id))[0]?.state === 'delivered', WAIT_MS, 'delivered');
    expect((await deliveries(a, h.id))[0].attempts).toHaveLength(7);
  });
});

describe('restart', () => {
  // Retries far enough apart that the stop always comes before they run out, however slow the stop is.
  const restartEnv = { ...env, WEBHOOK_RETRY_DELAYS_MS: '1500,1500,1500,1500,1500' };

  it('a retry pending across a restart is made after it: nothing lost, nothing duplicated', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'calendar-test-'));
    let first: TestService | null = await startTestService({ ...restartEnv, DATA_DIR: dataDir });
    let second: TestService | null = null;
    try {
      const a = await signUp(first.base);
      const failing = await hook(a);
      const retried = () => receiver.received(failing.route).filter((r) => r.json.data.title === 'Retried');
      // The receiver refuses "Retried" until the first service has stopped, then takes it.
      let refusing = true;
      receiver.on(failing.route, (r) => (r.json.data.title === 'Retried' && refusing ? 500 : 200));
      const steady = await hook(a);
      await createEvent(a, 'Retried');
      await arrived(failing.route, 1);
      // A burst the dispatcher may not even have read yet when the service stops.
      for (let i = 0; i < 5; i++) await createEvent(a, `Burst ${i}`);
      await first.stop();
      first = null;
      const refusedBeforeStop = retried().length;
      expect(refusedBeforeStop).toBeGreaterThanOrEqual(1);
      refusing = false;

      second = await startTestService({ ...restartEnv, DATA_DIR: dataDir });
      const again = second.base;
      const a2: Client = { ...a, call: (m, p, b, h = {}) => request(again, m, p, b, { authorization: `Bearer ${a.token}`, ...h }) };
      await arrived(failing.route, refusedBeforeStop + 6, 'every attempt after the restart');
      await arrived(steady.route, 6);
      await until(async () => {
        const log = await deliveries(a2, failing.id);
        return log.length === 6 && log.every((d) => d.state === 'delivered');
      }, WAIT_MS, 'all delivered after the restart');
      await sleep(800);

      // The pending retry was made once after the restart, under the same delivery id.
      const ids = retried().map((r) => r.headers['x-calendar-delivery']);
      expect(ids).toEqual(Array(refusedBeforeStop + 1).fill(ids[0]));
      const logged = (await deliveries(a2, failing.id)).find((d) => d.payload.data.title === 'Retried')!;
      expect(logged.attempts.map((t: { status: number }) => t.status)).toEqual([...Array(refusedBeforeStop).fill(500), 200]);

      for (const route of [failing.route, steady.route]) {
        const got = receiver.received(route);
        // One delivery id per event, one event per delivery id, six events.
        const idsByEvent = new Map<string, Set<string>>();
        for (const r of got) idsByEvent.set(r.json.id, (idsByEvent.get(r.json.id) ?? new Set()).add(String(r.headers['x-calendar-delivery'])));
        expect(idsByEvent.size).toBe(6);
        for (const ids of idsByEvent.values()) expect(ids.size).toBe(1);
      }
      expect(receiver.received(steady.route)).toHaveLength(6);
    } finally {
      await first?.stop();
      await second?.stop();
    }
  });
});
