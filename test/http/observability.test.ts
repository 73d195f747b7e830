/**
 * Observability end to end: /metrics after real traffic (request series by route template and status, appends,
 * projection and relay lag, the dispatcher's queue, deliveries and automation runs by outcome), one correlation id
 * from a request through its append, projections, relay, webhook delivery and automation run in the service's log
 * lines, and /readyz (also on METRICS_PORT) naming each store and role. Contract: docs/operations.md "Observability".
 */
import { Writable } from 'node:stream';
import pino from 'pino';
import { DELIVERY_WAIT_MS, RECEIVING_ENV, startReceiver, until, type Receiver } from '../support/receiver';
import { request, signUp, startTestService, type Client, type TestService } from '../support/service';

jest.setTimeout(90_000);

/** Every line the service logs, parsed. */
const lines: Array<Record<string, any>> = [];
const capture = new Writable({
  write(chunk: Buffer, _encoding, done) {
    for (const line of chunk.toString('utf8').split('\n')) if (line) lines.push(JSON.parse(line));
    done();
  },
});

let svc: TestService;
let receiver: Receiver;
let user: Client;
beforeAll(async () => {
  [svc, receiver] = await Promise.all([
    startTestService({ ...RECEIVING_ENV, METRICS_PORT: '0', RATE_LIMIT_PER_CREDENTIAL: '100000' }, pino({ level: 'debug' }, capture)),
    startReceiver(),
  ]);
  user = await signUp(svc.base);
});
afterAll(async () => {
  await svc?.stop();
  await receiver?.close();
});

let slot = 0;
const eventBody = (title: string) => {
  const start = Date.UTC(2032, 2, 1) + slot++ * 60 * 60_000;
  return { title, startsAt: new Date(start).toISOString(), endsAt: new Date(start + 30 * 60_000).toISOString() };
};

interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition. */
function parse(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m) continue;
    const labels = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, k, v]) => [k, v]));
    samples.push({ name: m[1], labels, value: Number(m[3]) });
  }
  return samples;
}

async function scrape(url = `${svc.service.url}/metrics`) {
  const res = await fetch(url);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
  const text = await res.text();
  const samples = parse(text);
  /** The samples named `name` whose labels include `labels`. */
  const all = (name: string, labels: Record<string, string> = {}) =>
    samples.filter((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v));
  /** The value of the one sample named `name` with `labels` (0 when the series does not exist yet). */
  const value = (name: string, labels: Record<string, string> = {}) => {
    const found = all(name, labels);
    expect(found.length).toBeLessThanOrEqual(1);
    return found[0]?.value ?? 0;
  };
  return { text, samples, all, value };
}

const PROJECTIONS_OF_EVENTS = ['schedule'];

describe('/metrics after traffic', () => {
  it('counts requests by route template and status, never by raw path', async () => {
    const before = await scrape();
    const created = [];
    for (let i = 0; i < 3; i++) {
      const res = await user.call('POST', '/events', eventBody(`Metered ${i}`));
      expect(res.status).toBe(201);
      created.push(res.body.event.id as string);
    }
    for (const id of created) expect((await user.call('GET', `/events/${id}`)).status).toBe(200);
    const missing = '00000000-0000-4000-8000-00000000abcd';
    expect((await user.call('GET', `/events/${missing}`)).status).toBe(404);
    expect((await request(svc.service.url!, 'GET', '/openapi.json')).status).toBe(200);
    const probe = `/no-such-thing-${Date.now()}`;
    expect((await user.call('GET', probe)).status).toBe(404);
    const after = await scrape();

    const count = 'calendar_http_request_duration_seconds_count';
    const posts = { method: 'POST', route: '/api/v1/events', status: '201' };
    expect(after.value(count, posts) - before.value(count, posts)).toBe(3);
    const reads = { method: 'GET', route: '/api/v1/events/{id}', status: '200' };
    expect(after.value(count, reads) - before.value(count, reads)).toBe(3);
    const notFound = { method: 'GET', route: '/api/v1/events/{id}', status: '404' };
    expect(after.value(count, notFound) - before.value(count, notFound)).toBe(1);
    const openapi = { method: 'GET', route: '/openapi.json|/api/v1/openapi.json', status: '200' };
    expect(after.value(count, openapi) - before.value(count, openapi)).toBe(1);
    const unmatched = { method: 'GET', route: 'unmatched', status: '404' };
    expect(after.value(count, unmatched) - before.value(count, unmatched)).toBeGreaterThanOrEqual(1);

    // Ids and probed paths never become labels.
    for (const id of [...created, missing, probe]) expect(after.text).not.toContain(id);
    const routes = new Set(after.all(count).map((s) => s.labels.route));
    for (const route of routes) expect(route === 'unmatched' || route.startsWith('/')).toBe(true);

    // A histogram: cumulative buckets, the last one (+Inf) holding every request.
    const buckets = after.all('calendar_http_request_duration_seconds_bucket', posts).map((s) => s.value);
    expect(buckets.length).toBeGreaterThan(1);
    for (let i = 1; i < buckets.length; i++) expect(buckets[i]).toBeGreaterThanOrEqual(buckets[i - 1]);
    expect(buckets[buckets.length - 1]).toBe(after.value(count, posts));
  });

  it('counts appends and shows every projection, the relay and the queues', async () => {
    const before = await scrape();
    const res = await user.call('POST', '/events', eventBody('Appended'));
    expect(res.status).toBe(201);
    const position = Number(res.headers.get('x-calendar-position'));
    await until(async () => (await scrape()).value('calendar_relay_position') >= position, DELIVERY_WAIT_MS, 'the relay reaching the write');
    const after = await scrape();

    const appends = 'calendar_eventstore_append_duration_seconds_count';
    expect(after.value(appends, { outcome: 'ok' }) - before.value(appends, { outcome: 'ok' })).toBeGreaterThanOrEqual(1);
    expect(after.value('calendar_eventstore_appended_events_total')).toBeGreaterThan(before.value('calendar_eventstore_appended_events_total'));
    expect(after.value('calendar_log_head_position')).toBeGreaterThanOrEqual(position);

    const projections = new Set(after.all('calendar_projection_lag_seconds').map((s) => s.labels.projection));
    expect(projections.size).toBeGreaterThan(5);
    for (const name of projections) {
      for (const series of ['calendar_projection_lag_positions', 'calendar_projection_lag_seconds', 'calendar_projection_dead_letters']) {
        expect(after.value(series, { projection: name })).toBeGreaterThanOrEqual(0);
      }
    }
    for (const name of PROJECTIONS_OF_EVENTS) {
      expect(after.value('calendar_projection_position', { projection: name })).toBeGreaterThanOrEqual(position);
      expect(after.value('calendar_projection_events_applied_total', { projection: name }))
        .toBeGreaterThan(before.value('calendar_projection_events_applied_total', { projection: name }));
    }

    expect(after.value('calendar_relay_lag_positions')).toBeGreaterThanOrEqual(0);
    expect(after.value('calendar_bus_published_messages_total')).toBeGreaterThan(before.value('calendar_bus_published_messages_total'));
    for (const series of ['calendar_webhook_deliveries_pending', 'calendar_webhook_deliveries_due', 'calendar_automation_runs_running']) {
      expect(after.all(series)).toHaveLength(1);
      expect(after.value(series)).toBeGreaterThanOrEqual(0);
    }
  });
});

describe('one correlation id from a request to its events, projections, deliveries and runs', () => {
  it('is on the append, the projection, the relay, the webhook delivery and the automation run', async () => {
    const hook = await user.call('POST', '/webhooks', { name: 'correlated', url: receiver.url('/correlated'), events: ['event.created'] });
    expect(hook.status).toBe(201);
    const automation = await user.call('POST', '/automations', {
      name: 'Correlated', enabled: true, trigger: { type: 'event.created' },
      actions: [{ kind: 'send_notification', config: { title: 'New: {{data.title}}' } }],
    });
    expect(automation.status).toBe(201);
    const before = await scrape();

    const requestId = `obs-${Math.random().toString(36).slice(2, 10)}`;
    const res = await user.call('POST', '/events', eventBody('Correlated'), { 'X-Request-Id': requestId });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-request-id')).toBe(requestId);

    const withId = (msg: string) => lines.filter((l) => l.msg === msg && l.correlationId === requestId);
    const delivered = () => withId('webhook delivery attempted').filter((l) => l.outcome === 'delivered');
    await until(() => delivered().length > 0 && withId('automation run finished').length > 0,
      DELIVERY_WAIT_MS, 'the delivery and the run');

    expect(lines.find((l) => l.msg === 'request' && l.requestId === requestId)).toMatchObject({ method: 'POST', status: 201 });
    const [appended] = withId('events appended');
    expect(appended.types).toContain('event.created');
    const applied = withId('event projected').filter((l) => l.type === 'event.created');
    expect(applied.map((l) => l.projection)).toEqual(expect.arrayContaining(PROJECTIONS_OF_EVENTS));
    for (const l of applied) expect(appended.eventIds).toContain(l.eventId);
    expect(withId('event relayed').map((l) => l.eventId)).toEqual(expect.arrayContaining(appended.eventIds));
    expect(withId('webhook deliveries created')).toEqual([expect.objectContaining({ deliveries: 1, type: 'event.created' })]);
    // A slow receiver may see a retry (same delivery); one attempt succeeds.
    expect(delivered()).toEqual([expect.objectContaining({ webhookId: hook.body.webhook.id, status: 200 })]);
    for (const l of withId('webhook delivery attempted')) expect(l.delivery).toBe(delivered()[0].delivery);
    expect(withId('automation runs started')).toEqual([expect.objectContaining({ runs: 1 })]);
    expect(withId('automation run finished')).toEqual([
      expect.objectContaining({ automationId: automation.body.automation.id, status: 'succeeded' }),
    ]);
    expect(receiver.received('/correlated').length).toBeGreaterThanOrEqual(1);

    const after = await scrape();
    const attempts = 'calendar_webhook_delivery_attempts_total';
    expect(after.value(attempts, { outcome: 'delivered' }) - before.value(attempts, { outcome: 'delivered' })).toBe(1);
    const created = 'calendar_webhook_deliveries_created_total';
    expect(after.value(created) - before.value(created)).toBe(1);
    const runs = 'calendar_automation_runs_total';
    expect(after.value(runs, { status: 'started' }) - before.value(runs, { status: 'started' })).toBe(1);
    expect(after.value(runs, { status: 'succeeded' }) - before.value(runs, { status: 'succeeded' })).toBe(1);
  });
});

describe('/readyz', () => {
  it('names each store and role, on PORT and on METRICS_PORT', async () => {
    for (const root of [svc.service.url!, svc.service.metricsUrl!]) {
      const res = await request(root, 'GET', '/readyz');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({
        status: 'ready',
        stores: { 'event store': 'ok', 'read store': 'ok', bus: 'ok' },
        roles: { projector: 'ok', relay: 'ok', dispatcher: 'ok', automations: 'ok' },
        problems: [],
        projections: { schedule: { deadLetters: 0, lagPositions: expect.any(Number) } },
      });
    }
  });

  it('METRICS_PORT serves the same registry and nothing else', async () => {
    const onPort = await scrape(`${svc.service.url}/metrics`);
    const onListener = await scrape(`${svc.service.metricsUrl}/metrics`);
    expect(onListener.all('calendar_http_request_duration_seconds_count').length).toBe(onPort.all('calendar_http_request_duration_seconds_count').length);
    expect((await request(svc.service.metricsUrl!, 'GET', '/api/v1/events')).status).toBe(404);
    expect((await request(svc.service.metricsUrl!, 'POST', '/metrics')).status).toBe(405);
  });
});
