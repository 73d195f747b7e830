/**
 * /readyz of a process: can each store be reached and written (each probe bounded in time; the disk of the embedded
 * stores must have room for a write), and is the work of each role behind (projections, relay, dispatcher,
 * automations, read from the state they share). Every problem is one line naming
 * the store or the role. What makes the process not ready (503) depends on its roles: the api needs the event store,
 * the read store and projections that keep up; a bus that cannot be reached, or a relay, dispatcher or automations
 * runner that lags, only delays reactions, so the api stays ready and says `degraded`. A role without HTTP traffic
 * (METRICS_PORT) is not ready when anything it needs or does is wrong.
 */
import { statfs } from 'node:fs/promises';
import { projectionHealth, readinessProblems, type HealthSources, type ProjectionHealth } from '../../projections/health';
import type { Bus } from '../bus/bus.port';
import type { Config } from '../config';
import { isStorageFull } from '../errors';
import { withTimeout } from '../timeout';
import { deliveryQueue, relayHealth, runQueue } from './role-health';

export type Role = 'api' | 'projector' | 'relay' | 'dispatcher' | 'automations';
type Store = 'event store' | 'read store' | 'bus';
type Part = Store | Exclude<Role, 'api'>;

const PROBE_TIMEOUT_MS = 2000;

/** What each role needs to be ready: the parts whose problems make the process answer 503. */
const NEEDS: Record<Role, readonly Part[]> = {
  api: ['event store', 'read store', 'projector'],
  projector: ['event store', 'read store', 'projector'],
  relay: ['event store', 'read store', 'bus', 'relay'],
  dispatcher: ['read store', 'bus', 'dispatcher'],
  automations: ['event store', 'read store', 'bus', 'automations'],
};

/**
 * Free space the embedded stores' disk must have to take a write: the largest request (a 1 MB body) in the log and in
 * the read models, each in its WAL and then its file.
 */
export const MIN_FREE_BYTES = 4 * 2 ** 20;

export interface ReadinessSources extends HealthSources {
  bus: Bus;
  /** Without DATA_DIR (a check of other parts) the embedded stores' disk is not looked at. */
  config: Pick<Config, 'READY_MAX_LAG_SECONDS'> & Partial<Pick<Config, 'DATA_DIR' | 'EVENTSTORE_URL' | 'MONGO_URL' | 'KAFKA_BROKERS'>>;
}

export interface Readiness {
  status: 'ready' | 'degraded' | 'not_ready';
  /** Per store: `ok`, or why it cannot be reached (`unreachable: …`) or written (`cannot write: …`). */
  stores: Record<Store, string>;
  /** Per role whose work is checked: `ok`, or how far behind it is. */
  roles: Partial<Record<Exclude<Role, 'api'>, string>>;
  head?: number;
  projections?: Record<string, Omit<ProjectionHealth, 'name'>>;
  /** One line per problem, each starting with the store or role it concerns. */
  problems: string[];
}

const reason = (err: unknown) => (err instanceof Error ? err.message : String(err)).split('\n')[0].slice(0, 300);

async function probe(work: () => Promise<unknown>, what: string): Promise<string> {
  try {
    await withTimeout(work(), PROBE_TIMEOUT_MS, what);
    return 'ok';
  } catch (err) {
    return `${isStorageFull(err) ? 'cannot write' : 'unreachable'}: ${reason(err)}`;
  }
}

/** Why the disk under DATA_DIR cannot take a write now, or null. */
async function diskFull(dir: string): Promise<string | null> {
  const { bavail, bsize } = await withTimeout(statfs(dir), PROBE_TIMEOUT_MS, 'DATA_DIR');
  const free = bavail * bsize;
  return free < MIN_FREE_BYTES ? `cannot write: ${free} bytes free under DATA_DIR (${MIN_FREE_BYTES} needed)` : null;
}

const probeStores = async (s: ReadinessSources): Promise<Record<Store, string>> => {
  const [events, read, bus] = await Promise.all([
    probe(() => s.events.headPosition(), 'the event store'),
    // A write: a store that answers but cannot write (MongoDB out of disk space) is not ready either.
    probe(() => s.store.collection('_settings').put({ _id: 'readiness-probe', at: Date.now() }), 'the read store'),
    probe(() => s.bus.ping?.() ?? Promise.resolve(), 'the bus'),
  ]);
  const stores: Record<Store, string> = { 'event store': events, 'read store': read, bus };
  const { DATA_DIR, EVENTSTORE_URL, MONGO_URL, KAFKA_BROKERS } = s.config;
  if (DATA_DIR === undefined) return stores;
  // The stores without a URL of their own keep their files there: a full disk stops all of them.
  const full = await diskFull(DATA_DIR).catch((err: unknown) => `cannot write: ${reason(err)}`);
  const embedded: Array<[Store, string | undefined]> = [['event store', EVENTSTORE_URL], ['read store', MONGO_URL], ['bus', KAFKA_BROKERS]];
  for (const [store, url] of embedded) if (full && !url && stores[store] === 'ok') stores[store] = full;
  return stores;
};

/** How far behind the work of a role is: one line per problem, none when it keeps up. */
async function roleProblems(role: Exclude<Role, 'api'>, s: ReadinessSources, out: Readiness): Promise<string[]> {
  const limit = s.config.READY_MAX_LAG_SECONDS;
  const late = (seconds: number) => seconds > limit;
  if (role === 'projector') {
    const health = await projectionHealth(s);
    out.head = health.head;
    out.projections = Object.fromEntries(health.projections.map(({ name, ...p }) => [name, p]));
    return readinessProblems(health, { maxLagSeconds: limit, maxLagPositions: 1000 });
  }
  if (role === 'relay') {
    const r = await relayHealth(s.events, s.store);
    return late(r.lagSeconds)
      ? [`${r.lagPositions} log positions not yet in the bus, the oldest event ${Math.round(r.lagSeconds)} s old (limit ${limit} s)`]
      : [];
  }
  const [queue, what] = role === 'dispatcher' ? [await deliveryQueue(s.store), 'webhook deliveries'] : [await runQueue(s.store), 'automation runs'];
  return late(queue.oldestDueSeconds)
    ? [`${queue.due} ${what} due, the longest-due for ${Math.round(queue.oldestDueSeconds)} s (limit ${limit} s)`]
    : [];
}

export async function readiness(s: ReadinessSources, roles: ReadonlySet<Role>): Promise<Readiness> {
  const stores = await probeStores(s);
  const out: Readiness = { status: 'ready', stores, roles: {}, problems: [] };
  const wrong = new Set<Part>();
  for (const [store, state] of Object.entries(stores) as Array<[Store, string]>) {
    if (state === 'ok') continue;
    wrong.add(store);
    out.problems.push(`${store}: ${state}`);
  }
  // The api sees every role's work through the shared state; another role checks its own.
  const checked = roles.has('api') ? (['projector', 'relay', 'dispatcher', 'automations'] as const) : [...roles].filter((r) => r !== 'api');
  for (const role of checked as Array<Exclude<Role, 'api'>>) {
    if (wrong.has('read store')) {
      out.roles[role] = 'not checked: the read store is unreachable';
      continue;
    }
    const problems = await withTimeout(roleProblems(role, s, out), PROBE_TIMEOUT_MS, role).catch((err) => [`could not be checked: ${reason(err)}`]);
    out.roles[role] = problems.length ? problems.join('; ') : 'ok';
    if (problems.length) wrong.add(role);
    out.problems.push(...problems.map((p) => `${role}: ${p}`));
  }
  // A process that serves the api answers for the api: traffic must not be turned away while only reactions lag.
  const needed = new Set(roles.has('api') ? NEEDS.api : [...roles].flatMap((role) => NEEDS[role]));
  out.status = [...wrong].some((part) => needed.has(part)) ? 'not_ready' : wrong.size ? 'degraded' : 'ready';
  return out;
}
