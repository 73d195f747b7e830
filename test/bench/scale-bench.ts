/**
 * Scale: the service on data directories holding 10k and 100k events (1M with SCALE_1M=1; or SCALE_SIZES=a,b,...).
 * For each size: a bench user signs up, the log is seeded straight through the event store (a tenth of it in the
 * user's calendar), then one process takes it all in through the projections, relay and bus (RSS after load);
 * the service restarts on that directory (cold start, RSS after restart) and answers a week's GET /events and an
 * incremental /sync over HTTP, one request at a time (p50/p99 of 1,000). Disk bytes per event per store file. The
 * same requests to a bare express GET /hello give the floor: what p99 the client and the machine reach alone.
 *
 * Runs alone (`node dist/test/bench/scale-bench.js`) or as the last part of `npm run bench`; prints a table and
 * writes bench-results/scale.json.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { encodeCursor } from '../../read-api/sync/cursor';
import { Keyring } from '../../services/keyring';
import { forkBenchChild, killAll, startHelloServer, startServiceChild, stopChild, type ChildServer } from './children';
import type { LoadReport } from './scale-child';
import { fileBytes, STORE_FILES } from './scale-probe';
import { MEASURED_WEEK, seedLog, TAIL_CHANGES, WEEK_MS, type SeedResult } from './scale-seed';
import { fmt, json, percentile, removeTempDirs, signUp, sleep, tempDir } from './util';

const SECRET = 'scale-bench-server-secret-0123456789';
const SERVICE_ENV = { SERVER_SECRET: SECRET, WRITE_WAITS_FOR_PROJECTION: 'false' };
const WARMUP_REQUESTS = 30;
/** Enough that p99 is not the third slowest answer: one request at a time, a stall of the machine shows in it. */
const MEASURED_REQUESTS = 1000;
const READY_TIMEOUT_MS = 600_000;

export interface Latency {
  p50: number;
  p99: number;
  /** Items in one answer (events of the week; changes in the sync page). */
  items: number;
}

export interface ScaleResult {
  events: number;
  calendarEvents: number;
  seedSeconds: number;
  /** All projections built from the whole log, events per second. */
  projectRate: number;
  drainSeconds: number;
  rssAfterLoadMb: number;
  rssAfterRestartMb: number;
  coldStartSeconds: number;
  diskBytesPerEvent: { log: number; readModels: number; bus: number; total: number };
  weekGet: Latency;
  sync: Latency;
}

export function scaleSizes(env = process.env): number[] {
  if (env.SCALE_SIZES) return env.SCALE_SIZES.split(',').map((s) => Number(s.trim())).filter((n) => n > 0);
  return env.SCALE_1M === '1' ? [10_000, 100_000, 1_000_000] : [10_000, 100_000];
}

/** Sequential requests: the cost of one answer, without queueing behind others. */
async function latency(url: string, token: string, count: (body: any) => number): Promise<Latency> {
  const times: number[] = [];
  let items = 0;
  for (let i = 0; i < WARMUP_REQUESTS + MEASURED_REQUESTS; i++) {
    const t0 = performance.now();
    const res = await fetch(url, { headers: { authorization: `Bearer ${token}` } });
    const body = await res.text();
    const ms = performance.now() - t0;
    if (res.status !== 200) throw new Error(`GET ${url}: ${res.status} ${body.slice(0, 300)}`);
    if (i === 0) items = count(JSON.parse(body));
    if (i >= WARMUP_REQUESTS) times.push(ms);
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), items };
}

function rssOf(pid: number): number {
  const kb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? NaN);
  return kb * 1024;
}

async function loadInChild(dataDir: string): Promise<LoadReport> {
  const child = forkBenchChild('scale-child.js', { DATA_DIR: dataDir, LOG_LEVEL: 'silent', ...SERVICE_ENV });
  const report = await new Promise<LoadReport>((resolve, reject) => {
    child.once('message', (m) => resolve(m as LoadReport));
    child.once('exit', (code) => reject(new Error(`scale child exited (${code}) before reporting`)));
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.send('stop');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 60_000))]);
  await stopChild(child);
  return report;
}

async function measureSize(total: number, log: (line: string) => void): Promise<ScaleResult> {
  const dataDir = tempDir(`scale-${total}`);
  let service: ChildServer = await startServiceChild(SERVICE_ENV, { dataDir });
  const api = `${service.url}/api/v1`;
  const user = await signUp(api);
  let calendar: { id: string; spaceId: string } | undefined;
  for (let tries = 0; !calendar; tries++) {
    if (tries > 100) throw new Error('the bench user has no calendar');
    if (tries > 0) await sleep(50); // writes do not wait for the projections here
    calendar = (await json(`${api}/calendars`, 'GET', undefined, { authorization: `Bearer ${user.token}` })).body.calendars?.[0];
  }
  await service.stop();

  const seed: SeedResult = await seedLog(path.join(dataDir, STORE_FILES.log), total, {
    userId: user.userId, spaceId: calendar.spaceId, calendarId: calendar.id,
  });
  log(`  ${total} events: seeded ${seed.events} (${seed.calendarEvents} in the bench calendar) in ${fmt(seed.seconds, 1)} s`);
  const load = await loadInChild(dataDir);
  log(`    projected in ${fmt(load.projectSeconds, 1)} s, relayed and consumed by ${fmt(load.drainSeconds, 1)} s; RSS ${fmt(load.rssBytes / 2 ** 20, 0)} MB`);
  const t0 = performance.now();
  service = await startServiceChild(SERVICE_ENV, { dataDir, readyTimeoutMs: READY_TIMEOUT_MS });
  const coldStartSeconds = (performance.now() - t0) / 1000;
  let weekGet: Latency;
  let sync: Latency;
  let rssAfterRestart: number;
  try {
    const week = `${service.url}/api/v1/events?from=${new Date(MEASURED_WEEK).toISOString()}&to=${new Date(MEASURED_WEEK + WEEK_MS).toISOString()}`;
    weekGet = await latency(week, user.token, (b) => b.events.length);
    sync = await latency(`${service.url}/api/v1/sync?since=${encodeCursor(new Keyring([SECRET]), seed.tailFrom)}`, user.token, (b) =>
      Object.values(b.changes as Record<string, unknown[]>).reduce((n, list) => n + list.length, 0),
    );
    rssAfterRestart = rssOf(service.child.pid!);
  } finally {
    await service.stop();
  }
  // On disk once the restarted service has run and stopped: what the stores keep, not what was in flight.
  const bytes = { log: fileBytes(dataDir, STORE_FILES.log), readModels: fileBytes(dataDir, STORE_FILES.readModels), bus: fileBytes(dataDir, STORE_FILES.bus) };
  const events = seed.head;
  const perEvent = (n: number) => n / events;
  return {
      events,
      calendarEvents: seed.calendarEvents,
      seedSeconds: seed.seconds,
      projectRate: load.head / load.projectSeconds,
      drainSeconds: load.drainSeconds,
      rssAfterLoadMb: load.rssBytes / 2 ** 20,
    rssAfterRestartMb: rssAfterRestart / 2 ** 20,
    coldStartSeconds,
    diskBytesPerEvent: {
      log: perEvent(bytes.log), readModels: perEvent(bytes.readModels), bus: perEvent(bytes.bus),
      total: perEvent(bytes.log + bytes.readModels + bytes.bus),
    },
    weekGet,
    sync,
  };
}

/** The same sequential requests to the bare express baseline: the p99 that the client and the machine alone give. */
async function floorLatency(): Promise<Latency> {
  const hello = await startHelloServer();
  try {
    return await latency(`${hello.url}/hello`, 'none', () => 1);
  } finally {
    await hello.stop();
  }
}

export function scaleTable(results: ScaleResult[], floor?: Latency): string[] {
  const kb = (n: number) => fmt(n / 1000, 2);
  const rows: string[][] = [
    ['events in the log', ...results.map((r) => String(r.events))],
    ['events in the bench calendar', ...results.map((r) => String(r.calendarEvents))],
    ['projection build rate (events/s)', ...results.map((r) => fmt(r.projectRate, 0))],
    ['RSS after load (MB)', ...results.map((r) => fmt(r.rssAfterLoadMb, 0))],
    ['RSS after restart + reads (MB)', ...results.map((r) => fmt(r.rssAfterRestartMb, 0))],
    ['cold start to /readyz (s)', ...results.map((r) => fmt(r.coldStartSeconds, 2))],
    ['disk kB/event: log', ...results.map((r) => kb(r.diskBytesPerEvent.log))],
    ['disk kB/event: read models', ...results.map((r) => kb(r.diskBytesPerEvent.readModels))],
    ['disk kB/event: bus', ...results.map((r) => kb(r.diskBytesPerEvent.bus))],
    ['disk kB/event: total', ...results.map((r) => kb(r.diskBytesPerEvent.total))],
    ['GET /events week p50 / p99 (ms)', ...results.map((r) => `${fmt(r.weekGet.p50, 1)} / ${fmt(r.weekGet.p99, 1)} (${r.weekGet.items} items)`)],
    ['GET /sync incremental p50 / p99 (ms)', ...results.map((r) => `${fmt(r.sync.p50, 1)} / ${fmt(r.sync.p99, 1)} (${r.sync.items} items)`)],
  ];
  if (floor) rows.push(['bare express GET /hello p50 / p99 (ms), same client', ...results.map(() => `${fmt(floor.p50, 1)} / ${fmt(floor.p99, 1)}`)]);
  const widths = rows[0].map((_, i) => Math.max(...rows.map((r) => r[i].length)));
  return rows.map((r) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`);
}

/** The summary rows of `npm run bench`: "flat" allows the largest size twice the smallest one's p99. */
export function scaleSummary(results: ScaleResult[]): Array<{ figure: string; value: string; target: string; result: string }> {
  const first = results[0];
  const last = results[results.length - 1];
  if (!first || !last) return [];
  const pass = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  const flat = (a: number, b: number) => b <= 2 * a;
  const rss = Math.max(last.rssAfterLoadMb, last.rssAfterRestartMb);
  const span = `${first.calendarEvents} -> ${last.calendarEvents} events in the calendar`;
  return [
    // The target is set at 1M events: a smaller log (the default sizes) reports its RSS without judging it.
    { figure: `Scale: RSS with ${last.events} events`, value: `${fmt(last.rssAfterLoadMb, 0)} MB after load, ${fmt(last.rssAfterRestartMb, 0)} MB after restart`, target: '< 300 MB (at 1M; SCALE_1M=1)', result: last.events >= 1_000_000 ? pass(rss < 300) : '-' },
    { figure: `Scale: disk per event (${last.events} events)`, value: `${fmt(last.diskBytesPerEvent.total / 1000, 2)} kB (log ${fmt(last.diskBytesPerEvent.log / 1000, 2)}, read models ${fmt(last.diskBytesPerEvent.readModels / 1000, 2)}, bus ${fmt(last.diskBytesPerEvent.bus / 1000, 2)})`, target: '-', result: '-' },
    { figure: `Scale: cold start (${last.events} events)`, value: `${fmt(last.coldStartSeconds, 2)} s`, target: '-', result: '-' },
    { figure: `Scale: week GET /events p99, ${span}`, value: `${fmt(first.weekGet.p99, 1)} -> ${fmt(last.weekGet.p99, 1)} ms`, target: 'flat', result: pass(flat(first.weekGet.p99, last.weekGet.p99)) },
    { figure: `Scale: incremental /sync p99, ${span}`, value: `${fmt(first.sync.p99, 1)} -> ${fmt(last.sync.p99, 1)} ms`, target: 'flat', result: pass(flat(first.sync.p99, last.sync.p99)) },
  ];
}

/** Runs every size; the table and the JSON file are written whatever the targets say. */
export async function scaleBench(log: (line: string) => void, sizes = scaleSizes()): Promise<ScaleResult[]> {
  const results: ScaleResult[] = [];
  const floor = await floorLatency();
  for (const size of sizes) {
    results.push(await measureSize(size, log));
    removeTempDirs();
  }
  const out = path.resolve(__dirname, '..', '..', '..', 'bench-results');
  mkdirSync(out, { recursive: true });
  writeFileSync(path.join(out, 'scale.json'), JSON.stringify({ at: new Date().toISOString(), tailChanges: TAIL_CHANGES, floor, results }, null, 2));
  for (const line of scaleTable(results, floor)) log(line);
  for (const row of scaleSummary(results)) log(`  ${row.figure}: ${row.value} (target ${row.target}) ${row.result}`);
  return results;
}

if (require.main === module) {
  const log = (line: string) => process.stdout.write(`${line}\n`);
  process.once('exit', () => {
    killAll();
    removeTempDirs();
  });
  log(`Scale bench: ${scaleSizes().join(', ')} events`);
  scaleBench(log)
    .catch((err: unknown) => {
      console.error('scale bench failed:', err instanceof Error ? err.stack : err);
      process.exitCode = 1;
    })
    .finally(() => process.exit());
}
