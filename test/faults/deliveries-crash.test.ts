/**
 * Webhook deliveries across SIGKILL. Users write a few hundred events; each user's webhook points at a local
 * receiver, which answers after a short pause and holds one delivery unanswered: the process carrying the work is
 * killed while that one is in flight, then started again on the same data. Once every event is delivered and the
 * queue is empty: each event in the users' calendars reached its owner's receiver under one delivery id, a repeat
 * (the held one at least) carries the same id and body, and nothing arrived for an event the log does not hold.
 * On the embedded stores, all roles in one process; on Kafka and MongoDB, the relay and the dispatcher as their own
 * processes, each killed mid-work in turn.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../bench/util';
import { describeOnEngine } from '../support/engines';
import type { Received } from '../support/receiver';
import { killed, projectionsCaughtUp, startChild, useFaultSuite } from '../support/service-child';
import { signUp, type Client } from '../support/service';
import { afterBusy, untilSettled } from '../support/settled';

// A delivery in flight at the kill is leased for WEBHOOK_TIMEOUT_MS + 30 s before it is made again.
jest.setTimeout(600_000); // its waits fail when deliveries stop moving (see untilSettled), not when a machine is slow

const USERS = 4;
const PER_USER = 75;
/** Writes answer without waiting for the read models: what is under test starts at the log. */
const ENV = {
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '1000', WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50,50', WRITE_WAITS_FOR_PROJECTION: 'false',
};

const suite = useFaultSuite();

type Role = 'all' | 'api' | 'projector' | 'relay' | 'dispatcher';

/** Processes of one service on one data directory (and one MongoDB database and Kafka topic, named after it). */
function service(engines: { MONGO_URL?: string; KAFKA_BROKERS?: string }) {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'deliveries-kill-'));
  suite.dirs.push(dataDir);
  const ports = new Map<Role, number>();
  const running = new Map<Role, ChildProcess>();
  const start = async (role: Role) => {
    if (!ports.has(role)) ports.set(role, await freePort());
    const port = ports.get(role)!;
    // A role without HTTP serves /healthz and /metrics on METRICS_PORT.
    const roleEnv: Record<string, string> = role === 'all' ? {} : role === 'api' ? { ROLE: role } : { ROLE: role, METRICS_PORT: String(port) };
    const child = await startChild(dataDir, port, { ...ENV, ...engines, ...roleEnv });
    suite.children.push(child);
    running.set(role, child);
  };
  const root = (role: Role) => `http://127.0.0.1:${ports.get(role)}`;
  const restart = async (role: Role) => {
    await killed(running.get(role)!);
    await start(role);
  };
  return { start, restart, root, kill: (role: Role) => killed(running.get(role)!) };
}

let tests = 0;

/** Users with a webhook each for event.created, on a route of their own. */
async function subscribers(base: string) {
  const test = ++tests;
  return Promise.all(Array.from({ length: USERS }, async (_, n) => {
    const user = await signUp(base);
    const route = `/t${test}/u${n}`;
    const hook = await user.call('POST', '/webhooks', { name: route, url: suite.receiver.url(route), events: ['event.created'] });
    expect(hook.status).toBe(201);
    return { user, route };
  }));
}

type Subscriber = Awaited<ReturnType<typeof subscribers>>[number];

/** Answers each delivery after a pause, so some are always in flight; the `at`-th is held unanswered for good. */
function holdOne(subs: Subscriber[], at: number): Promise<Received> {
  let count = 0;
  let hold: (r: Received) => void = () => undefined;
  const held = new Promise<Received>((resolve) => (hold = resolve));
  const slow = (res: ServerResponse) => void setTimeout(() => res.writeHead(200).end('ok'), 20);
  for (const { route } of subs) {
    suite.receiver.on(route, (r) => {
      if (++count !== at) return slow;
      hold(r);
      return () => undefined;
    });
  }
  return held;
}

/**
 * Each user writes its events one after another. What must be delivered is read back from the log afterwards
 * (`eventIds`), so a write cut off by a kill (it may still exist) or refused by a loaded store (503) needs no count
 * here; `sent` hears of every write once it was answered, whatever the answer.
 */
async function write(subs: Subscriber[], sent: (total: number) => void): Promise<void> {
  let total = 0;
  await Promise.all(subs.map(async ({ user }) => {
    for (let i = 0; i < PER_USER; i++) {
      await user.call('POST', '/events', { title: `w${i}`, busy: false, startsAt: '2026-12-02T09:00:00Z', endsAt: '2026-12-02T10:00:00Z' })
        .catch(() => null);
      sent(++total);
    }
  }));
}

/** The ids of the user's events as the log has them (through the read models, once they caught up). */
async function eventIds(user: Client): Promise<string[]> {
  const res = await afterBusy(() => user.call('GET', '/events?from=2026-12-02T00:00:00Z&to=2026-12-03T00:00:00Z&limit=500'));
  expect(res.status).toBe(200);
  expect(res.body.nextPageToken ?? null).toBeNull();
  return (res.body.events as Array<{ id: string }>).map((e) => e.id).sort();
}

const deliveredIds = (route: string) => new Set(suite.receiver.received(route).map((r) => r.json.data.id as string));

async function pendingDeliveries(metricsRoot: string): Promise<number> {
  const text = await (await fetch(`${metricsRoot}/metrics`)).text();
  return Number(/^calendar_webhook_deliveries_pending (\S+)$/m.exec(text)?.[1]);
}

/** Waits until every event is delivered and nothing is pending, then checks what each receiver route got. */
async function expectDeliveredOnce(subs: Subscriber[], apiRoot: string, metricsRoot: string, held: Received): Promise<void> {
  await projectionsCaughtUp(apiRoot);
  const expected = await Promise.all(subs.map(({ user }) => eventIds(user)));
  expect(expected.flat().length).toBeGreaterThanOrEqual(USERS * PER_USER / 3);
  await untilSettled('every event delivered and the queue empty', async () => {
    const pending = await pendingDeliveries(metricsRoot);
    const delivered = subs.map(({ route }) => deliveredIds(route));
    return { done: pending === 0 && subs.every((_, u) => expected[u].every((id) => delivered[u].has(id))), progress: [pending, delivered.map((d) => d.size)] };
  });

  subs.forEach(({ route }, u) => {
    const byDelivery = new Map<string, Received[]>();
    for (const r of suite.receiver.received(route)) {
      const id = r.headers['x-calendar-delivery'] as string;
      byDelivery.set(id, [...(byDelivery.get(id) ?? []), r]);
    }
    for (const copies of byDelivery.values()) expect(new Set(copies.map((c) => c.body)).size).toBe(1);
    // One delivery id per event of this user, and none for anything else.
    expect([...byDelivery.values()].map(([first]) => first.json.data.id).sort()).toEqual(expected[u]);
  });
  const again = suite.receiver.received(held.path).filter((r) => r.headers['x-calendar-delivery'] === held.headers['x-calendar-delivery']);
  expect(again.length).toBeGreaterThanOrEqual(2);
}

describe('webhook deliveries under SIGKILL on the embedded stores', () => {
  it('delivers every event once per delivery id after the whole service is killed mid-delivery', async () => {
    const svc = service({ MONGO_URL: undefined, KAFKA_BROKERS: undefined });
    await svc.start('all');
    const base = `${svc.root('all')}/api/v1`;
    const subs = await subscribers(base);
    const held = holdOne(subs, 100);
    const writing = write(subs, () => undefined);
    const inFlight = await held;
    await svc.kill('all');
    await writing;

    await svc.start('all');
    await expectDeliveredOnce(subs, svc.root('all'), svc.root('all'), inFlight);
  });
});

describeOnEngine('mongo', 'webhook deliveries with the relay and then the dispatcher killed mid-work', (mongoUrl) => {
  describeOnEngine('kafka', 'roles as separate processes', (brokers) => {
    it('delivers every event once per delivery id after kill -9 of the relay, then of the dispatcher', async () => {
      const svc = service({ MONGO_URL: mongoUrl(), KAFKA_BROKERS: brokers() });
      for (const role of ['projector', 'relay', 'dispatcher', 'api'] as const) await svc.start(role);
      const base = `${svc.root('api')}/api/v1`;
      const subs = await subscribers(base);
      const held = holdOne(subs, 150);
      // The relay dies a third of the way through the writes, which go on; it comes back two thirds through.
      let relayDown: () => void = () => undefined;
      let relayBack: () => void = () => undefined;
      const third = new Promise<void>((resolve) => (relayDown = resolve));
      const twoThirds = new Promise<void>((resolve) => (relayBack = resolve));
      const writing = write(subs, (total) => {
        if (total === USERS * PER_USER / 3) relayDown();
        if (total === USERS * PER_USER * 2 / 3) relayBack();
      });
      await third;
      await svc.kill('relay');
      await twoThirds;
      await svc.start('relay');

      const inFlight = await held;
      await svc.restart('dispatcher');
      await writing;
      await expectDeliveredOnce(subs, svc.root('api'), svc.root('dispatcher'), inFlight);
    });
  });
});
