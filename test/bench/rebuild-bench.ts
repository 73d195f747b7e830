/**
 * Rebuild rate into the embedded read models: a log of BENCH_REBUILD_EVENTS events (default 100,000) is seeded
 * straight into the SQLite event store, sealed as the service seals them; then each projection is built alone from
 * position 0 into a fresh read store (as `projections rebuild` does) until it is switched active, and finally all of
 * them at once, as a cold start on that log does. The log is read as the service reads it: pages read and opened on
 * a worker thread (services/eventstore/log-pages.ts). Events per second = log head / seconds to the switch.
 * With BENCH_REBUILD_MONGO_URL the read models are built into that MongoDB (a database per build, dropped after).
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pino from 'pino';
import { PROJECTIONS } from '../../services/composition';
import { loadConfig } from '../../services/config';
import { historyStore } from '../../services/eventstore/decoding-event-store';
import { boundHeapGrowth } from '../../services/heap-growth';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import { erasable } from '../../services/history/erasable-projection';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import { openMongoReadStore } from '../../services/readstore/mongo-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';
import type { Projection } from '../../projections/projection';
import { ProjectionRunner } from '../../projections/runner';
import { Watermarks } from '../../projections/watermarks';
import { seedLog } from './scale-seed';
import { removeTempDirs, sleep, tempDir } from './util';

export interface RebuildResult {
  events: number;
  /** Events per second, each projection built alone. */
  perProjection: Record<string, number>;
  /** Microseconds of CPU per event of the log, every thread of the process (how the rate scales with cores). */
  cpuPerEvent: Record<string, number>;
  /** The longest the event loop went without a turn during each build (its switch keys and indexes the storage). */
  longestStallMs: Record<string, number>;
  /** Events per second of the log when every projection builds at once. */
  all: number;
}

export const rebuildEvents = (env = process.env) => Number(env.BENCH_REBUILD_EVENTS ?? 100_000);

interface Build {
  seconds: number;
  /** CPU seconds of the whole process while it ran. */
  cpuSeconds: number;
  longestStallMs: number;
}

/** From start until every projection given is active at the head. */
async function timeBuild(dir: string, keysFile: string, defs: (store: ReturnType<typeof historyStore>) => Projection[], tag: string): Promise<Build> {
  const log = pino({ level: 'silent' });
  const keyStore = await openEmbeddedReadStore(keysFile);
  const mongoUrl = process.env.BENCH_REBUILD_MONGO_URL;
  const store: ReadStore = mongoUrl
    ? await openMongoReadStore(mongoUrl, `rebuild_bench_${tag}_${randomUUID().slice(0, 8)}`)
    : await openEmbeddedReadStore(path.join(dir, `read-${tag}.sqlite`));
  const logFile = path.join(dir, 'events.sqlite');
  const history = historyStore(await openSqliteEventStore(logFile), keyStore, logFile);
  const head = await history.events.headPosition();
  const projections = defs(history).map((p) => erasable(p, store));
  const runner = new ProjectionRunner(history.events, store, projections, new Watermarks(store, true), log);
  const t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const delay = monitorEventLoopDelay({ resolution: 5 }); // as hostile-bench.ts watches the loop
  delay.enable();
  await runner.start();
  const done = async () => (await runner.status()).every((s) => s.building === null && (s.activePosition ?? 0) >= head);
  while (!(await done())) await sleep(10);
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  delay.disable();
  const longestStallMs = delay.max / 1e6;
  await runner.stop();
  if (mongoUrl) for (const name of await store.listCollections()) await store.collection(name).drop();
  await Promise.all([store.close(), keyStore.close(), history.events.close()]);
  return { seconds, cpuSeconds: (cpu.user + cpu.system) / 1e6, longestStallMs };
}

async function seed(dir: string, keysFile: string) {
  const keyStore = await openEmbeddedReadStore(keysFile);
  const bench = { userId: randomUUID(), spaceId: randomUUID(), calendarId: randomUUID() };
  const seeded = await seedLog(path.join(dir, 'events.sqlite'), rebuildEvents(), bench, (inner) => historyStore(inner, keyStore).events);
  await keyStore.close();
  return seeded;
}

export async function rebuildBench(say: (line: string) => void): Promise<RebuildResult> {
  boundHeapGrowth(loadConfig().HEAP_GROWING_PERCENT); // the heap rule of the service's process (services/main.ts)
  const dir = tempDir('rebuild');
  const keysFile = path.join(dir, 'keys.sqlite');
  const seeded = await seed(dir, keysFile);
  say(`  seeded ${seeded.events} sealed events in ${seeded.seconds.toFixed(1)} s`);
  const result: RebuildResult = { events: seeded.head, perProjection: {}, cpuPerEvent: {}, longestStallMs: {}, all: Number.NaN };
  const only = process.env.BENCH_REBUILD_ONLY;
  for (const def of PROJECTIONS.filter((p) => !only || p.name === only)) {
    const build = await timeBuild(dir, keysFile, () => [def], def.name);
    result.perProjection[def.name] = seeded.head / build.seconds;
    result.cpuPerEvent[def.name] = (build.cpuSeconds * 1e6) / seeded.head;
    result.longestStallMs[def.name] = build.longestStallMs;
    say(
      `  ${def.name.padEnd(22)} ${Math.round(result.perProjection[def.name]).toLocaleString('en-US')} events/s, ` +
        `${result.cpuPerEvent[def.name].toFixed(1)} µs of CPU per event, longest stall ${Math.round(build.longestStallMs)} ms`,
    );
  }
  if (only && only !== 'all') return result;
  result.all = seeded.head / (await timeBuild(dir, keysFile, () => [...PROJECTIONS], 'all')).seconds;
  say(`  all projections at once ${Math.round(result.all).toLocaleString('en-US')} events/s of the log`);
  return result;
}

if (require.main === module) {
  rebuildBench((line) => console.log(line))
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    })
    .finally(removeTempDirs);
}
