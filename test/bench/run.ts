/**
 * `npm run bench`: one run on this machine, printing labelled figures and a summary against the targets.
 *
 *   1. bare express "hello world" (child process) as the HTTP baseline
 *   2. POST /events on the real service (child: node dist/services/main.js, fresh DATA_DIR)
 *   3. GET /events?from&to over one week holding 200 events, and GET /sync of those changes; GET /events of a week of an
 *      hourly series with 500 exceptions against the same week without them (every answer built, exceptions-bench.ts);
 *      the heavy reads (GET /available-slots, /availability, /free-busy and /routines/conflicts, with their CPU per
 *      answer) over a calendar of
 *      2,000 events and 10 recurring series; POST /meeting-suggestions of 10 attendees over 14 days
 *      (suggestions-bench.ts, CPU per answer); GET /routines/instances over a month of 5 routines;
 *      POST /tasks; a public booking (POST /public/{username}/{slug}/bookings) under concurrency, and a collective one
 *      (three hosts: collective-bench.ts), new slots at once and guests racing for one slot
 *   4. append throughput of the embedded SQLite event store, in process
 *   5. projection lag in embedded mode (service in process), steady and under POST load
 *   6. webhook deliveries to a local receiver (service in process): deliveries/s and event-to-delivery latency
 *   7. one user's hostile requests (service in process): /healthz latency, event-loop delay, another user's writes
 *  7b. one user's 30 expensive reads at once (service child, fair-share-bench.ts): /healthz and another user's writes
 *   8. automation runs (notify, then call a local receiver; service in process): runs/s and trigger-to-action latency
 *  8b. reminders (reminder-bench.ts; service in process): BENCH_REMINDERS (default 10,000) due at one instant, spread
 *      over 100 owners; all delivered, and due-to-notification p50/p99
 *   9. the CLI's export of a log of BENCH_EXPORT_EVENTS events (default 1,000,000) seeded straight into the store
 *  10. rebuild (rebuild-bench.ts): each projection, then all of them, built from a sealed log of BENCH_REBUILD_EVENTS
 *      events (default 100,000) into a fresh embedded read store
 *  11. scale (scale-bench.ts): 10k and 100k events in the log (1M with SCALE_1M=1): RSS, disk per event, cold start,
 *      a week's GET /events and /sync as one calendar grows
 *  12. iCalendar (ical-bench.ts): POST /calendars/{id}/import of a file of ICAL_EVENTS events (default 10,000), and
 *      GET /ical/{token}.ics of that calendar (built, kept built, 304)
 *  13. CalDAV (caldav-bench.ts): a week's calendar-query REPORT from 50 clients and PUTs of new objects, ours and a
 *      local Radicale (when on PATH), the same client code, and the ratio
 *
 * Env: BENCH_SECONDS (each HTTP load, default 10), BENCH_CONNECTIONS (default 50), BENCH_MULTI_USERS (extra
 * POST run spread over that many users, default 10, 0 = skip), BENCH_CPU_PROF=<dir> (profile the service child),
 * BENCH_DIR (where temp data goes), BENCH_KEEP=1 (keep it), BENCH_JSON (where the summary is written as JSON, default
 * bench-results.json in the working directory). A missed target is reported, never an exit code.
 */
import { statfsSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { seedSlotCalendar, SLOT_DAYS, SLOT_EVENTS, SLOT_SERIES } from './availability-bench';
import { BOOKING_SLOTS, createBookingHost } from './booking-bench';
import { COLLECTIVE_HOSTS, collectiveRaces, raceLine, seedCollectiveTeam, type RaceResult } from './collective-bench';
import { cpuSecondsOf, killAll, startHelloServer, startServiceChild, type ChildServer } from './children';
import { CONNECTIONS, runLoad, type LoadResult, type LoadSpec } from './http-load';
import { FAIR_SHARE_CONCURRENCY, FAIR_SHARE_SERIES, fairShareBench, HEAVY_READS } from './fair-share-bench';
import { hostileBench } from './hostile-bench';
import { lagBench, type LagResult } from './lag-bench';
import { exportBench, printExport } from './export-bench';
import { EXCEPTIONS, seedSeriesWeek } from './exceptions-bench';
import { createRoutines, MONTH, ROUTINES } from './routines-bench';
import { rebuildBench, rebuildEvents } from './rebuild-bench';
import { scaleBench, scaleSizes, scaleSummary } from './scale-bench';
import { icalBench, ICAL_EVENTS, printIcal } from './ical-bench';
import { caldavBench, printCaldav } from './caldav-bench';
import { storeBench, type StoreResult } from './store-bench';
import { SUGGESTION_ATTENDEES, SUGGESTION_DAYS, seedSuggestionsTeam } from './suggestions-bench';
import { webhookBench } from './webhook-bench';
import { automationBench } from './automation-bench';
import { reminderBench } from './reminder-bench';
import { benchSeconds, eventBody, fmt, json, removeTempDirs, signUp, tempDir } from './util';

const SECONDS = benchSeconds();
const CONN = Number(process.env.BENCH_CONNECTIONS ?? CONNECTIONS);
const WARMUP = Math.max(1, Math.min(2, SECONDS / 5));
const MULTI_USERS = Number(process.env.BENCH_MULTI_USERS ?? '10');
const STORE_SECONDS = Math.max(0.5, Math.min(2, SECONDS / 5));
const LAG_SAMPLES = 1000;
const LAG_INTERVAL_MS = 2;
const WEBHOOK_EVENTS = 1000;
const WEBHOOK_FANOUT = 4;
const WEBHOOK_PROBES = 300;
const WEBHOOK_PROBE_INTERVAL_MS = 10;
const AUTOMATION_RUNS = 1000;
const AUTOMATION_PROBES = 300;
const AUTOMATION_PROBE_INTERVAL_MS = 10;
const REMINDERS = Number(process.env.BENCH_REMINDERS ?? 10_000);
const REMINDER_OWNERS = 100;
const GET_EVENTS = 200;
const WEEK_START = Date.UTC(2030, 0, 7); // a Monday
/** POST /tasks moves on to a fresh owner after this many tasks: every board stays far below its 10,000-task limit. */
const TASKS_PER_OWNER = 4000;
const HOSTILE_ATTACKERS = 4;
/** Expensive reads one credential may have running and waiting at once (HEAVY_READS_PER_CALLER + HEAVY_READS_QUEUE). */
const HEAVY_CONNECTIONS = 10;
const EXPORT_EVENTS = Number(process.env.BENCH_EXPORT_EVENTS ?? 1_000_000);

const log = (line = '') => process.stdout.write(`${line}\n`);
const ms = (n: number) => `${fmt(n, n < 10 ? 2 : 1)} ms`;
const pct = (n: number) => `${fmt(n * 100, 1)} %`;

function printLoad(r: LoadResult, baseline?: LoadResult): void {
  const ratio = baseline ? `   (${pct(r.rps / baseline.rps)} of baseline)` : '';
  log(`  ${r.label}`);
  log(`    rps ${fmt(r.rps, 0)}${ratio}   latency p50 ${ms(r.p50)}  p90 ${ms(r.p90)}  p99 ${ms(r.p99)}  max ${ms(r.max)}`);
  const codes = Object.entries(r.statusCodes).map(([c, n]) => `${c}:${n}`).join(' ');
  if (r.cpuPerRequest) log(`    CPU per response: ${cpuText(r)} of the server (all threads), ${fmt(r.cpuPerRequest.client, 0)} µs of the load generator`);
  log(`    ${r.ok} ok, ${r.non2xx} non-2xx, ${r.errors} errors, ${r.timeouts} timeouts in ${fmt(r.seconds, 1)} s, ${r.connections} connections [${codes}]${r.sent !== undefined ? `, ${r.sent} requests sent` : ''}`);
}

/** The server's CPU per response of `r` against `without`'s, as a percentage (or "unknown"). */
const exceptionCpu = (r: LoadResult, without: LoadResult) => {
  const [a, b] = [r.cpuPerRequest?.server, without.cpuPerRequest?.server];
  return a == null || b == null ? 'unknown' : pct(a / b);
};

const cpuText = (r: LoadResult) => (r.cpuPerRequest?.server == null ? 'unknown' : `${fmt(r.cpuPerRequest.server, 0)} µs`);
/** For the summary: the server's CPU per response, and the load generator's. */
const cpuNote = (r: LoadResult) => (r.cpuPerRequest ? `; CPU/response ${cpuText(r)} server, ${fmt(r.cpuPerRequest.client, 0)} µs client` : '');

/** One run, with the CPU the server (`server`, a child) and this process (the load generator) spent per response. */
async function measured(label: string, spec: LoadSpec, server: ChildServer): Promise<LoadResult> {
  const server0 = cpuSecondsOf(server.child.pid);
  const client0 = process.cpuUsage();
  const r = await runLoad(label, spec);
  const client = process.cpuUsage(client0);
  const server1 = cpuSecondsOf(server.child.pid);
  const perResponse = (seconds: number) => (seconds * 1e6) / Math.max(1, r.ok);
  return {
    ...r,
    cpuPerRequest: {
      server: server0 === null || server1 === null ? null : perResponse(server1 - server0),
      client: perResponse((client.user + client.system) / 1e6),
    },
  };
}

/** A short warmup run, then the measured one. POST warmups write into other slots (two years earlier): no overlap. */
async function load(label: string, spec: LoadSpec, server: ChildServer): Promise<LoadResult> {
  const warmup: LoadSpec = spec.kind === 'post-events' ? { ...spec, baseMs: spec.baseMs - 2 * 365 * 86_400_000 } : spec;
  await runLoad(`${label} (warmup)`, { ...warmup, seconds: WARMUP });
  return measured(label, spec, server);
}

async function createWeek(base: string, token: string): Promise<void> {
  const auth = { authorization: `Bearer ${token}` };
  let next = 0;
  const worker = async () => {
    while (next < GET_EVENTS) {
      const i = next++;
      const res = await json(`${base}/events`, 'POST', eventBody(WEEK_START, i, 'Week event'), auth);
      if (res.status !== 201) throw new Error(`creating week event ${i}: ${res.status} ${JSON.stringify(res.body)}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
}

/** The share of all CPUs' time spent busy over `ms`. */
async function cpuBusy(ms: number): Promise<number> {
  const total = () => os.cpus().reduce((sum, c) => {
    const t = c.times;
    return { busy: sum.busy + t.user + t.nice + t.sys + t.irq, all: sum.all + t.user + t.nice + t.sys + t.irq + t.idle };
  }, { busy: 0, all: 0 });
  const before = total();
  await new Promise((resolve) => setTimeout(resolve, ms));
  const after = total();
  return after.all > before.all ? (after.busy - before.busy) / (after.all - before.all) : 0;
}

interface Row {
  figure: string;
  value: string;
  target: string;
  result: string;
}

async function main(): Promise<void> {
  const t0 = performance.now();
  const dataRoot = tempDir('probe');
  let fsInfo = '';
  try {
    const s = statfsSync(dataRoot);
    fsInfo = ` (fs type 0x${s.type.toString(16)})`;
  } catch {
    /* statfs unavailable */
  }
  log('Calendar service bench');
  log(`  node ${process.version}, ${os.cpus().length} cpus (${os.cpus()[0]?.model ?? '?'}), ${os.platform()} ${os.release()}`);
  // Measured over a second rather than read from the load average, which still counts `npm run build` just before.
  const busy = await cpuBusy(1000);
  log(`  CPUs busy before start: ${pct(busy)}${busy > 0.1 ? '  (WARNING: something else is using the CPUs; figures will be low and noisy)' : ''}`);
  log(`  http: ${CONN} connections, ${SECONDS} s per run after a ${WARMUP} s warmup; data under ${process.env.BENCH_DIR ?? os.tmpdir()}${fsInfo}`);
  log();

  // 1. Baseline
  log('[1] Baseline: bare express GET /hello (child process)');
  const hello: ChildServer = await startHelloServer();
  let baseline: LoadResult;
  try {
    baseline = await load('GET /hello', { kind: 'hello', url: hello.url, seconds: SECONDS, connections: CONN }, hello);
  } finally {
    await hello.stop();
  }
  printLoad(baseline);
  log();

  // 2 + 3. The real service in a child process
  log('[2,3] Service child: node dist/services/main.js (embedded stores, LOG_LEVEL=silent, fresh DATA_DIR)');
  const service = await startServiceChild();
  const base = `${service.url}/api/v1`;
  let getRes: LoadResult;
  let syncRes: LoadResult;
  let seriesRes: LoadResult;
  let exceptionsRes: LoadResult;
  let slotsRes: LoadResult;
  const heavyRes: Array<[string, LoadResult]> = [];
  let suggestionsRes: LoadResult;
  let routinesRes: LoadResult;
  let postRes: LoadResult;
  let multiRes: LoadResult | null = null;
  let tasksRes: LoadResult;
  let bookingRes: LoadResult;
  let collectiveRes: LoadResult;
  let racesRes: RaceResult;
  try {
    const reader = await signUp(base);
    const before = new Date().toISOString();
    const c0 = performance.now();
    await createWeek(base, reader.token);
    const from = new Date(WEEK_START).toISOString();
    const to = new Date(WEEK_START + 7 * 86_400_000).toISOString();
    const check = await json(`${base}/events?from=${from}&to=${to}`, 'GET', undefined, { authorization: `Bearer ${reader.token}` });
    if (check.status !== 200 || check.body.events.length !== GET_EVENTS) {
      throw new Error(`GET /events check: ${check.status}, ${check.body?.events?.length} events (expected ${GET_EVENTS})`);
    }
    log(`  created ${GET_EVENTS} events in one week for the GET user in ${fmt(performance.now() - c0, 0)} ms; one response is ${JSON.stringify(check.body).length} bytes`);

    getRes = await load(`GET /events (one week, ${GET_EVENTS} events, one user)`, {
      kind: 'get', url: service.url, seconds: SECONDS, token: reader.token, connections: CONN,
      path: `/api/v1/events?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`,
    }, service);
    printLoad(getRes, baseline);
    // The same user's changes since before that week was written: its 200 events (and the user's Space and calendar).
    syncRes = await load(`GET /sync (the changes since before those ${GET_EVENTS} events, one user)`, {
      kind: 'get', url: service.url, seconds: SECONDS, token: reader.token, connections: CONN,
      path: `/api/v1/sync?since=${encodeURIComponent(before)}`,
    }, service);
    printLoad(syncRes, baseline);

    const plain = await seedSeriesWeek(service.url, (await signUp(base)).token, 0);
    const excepted = await seedSeriesWeek(service.url, (await signUp(base)).token, EXCEPTIONS);
    seriesRes = await load('GET /events (a week of an hourly series; every answer built, none from the cache)', { ...plain, seconds: SECONDS, connections: CONN }, service);
    printLoad(seriesRes, baseline);
    exceptionsRes = await load(`GET /events (the same week, the series with ${EXCEPTIONS} exceptions, 56 of them in the week)`, { ...excepted, seconds: SECONDS, connections: CONN }, service);
    printLoad(exceptionsRes, baseline);
    log(`  with ${EXCEPTIONS} exceptions: ${pct(exceptionsRes.rps / seriesRes.rps)} of the rate without, ${exceptionCpu(exceptionsRes, seriesRes)} of its CPU per response`);

    const owner = await signUp(base);
    const s0 = performance.now();
    const slotsPath = await seedSlotCalendar(base, owner.token);
    const slots = await json(`${service.url}${slotsPath}`, 'GET', undefined, { authorization: `Bearer ${owner.token}` });
    if (slots.status !== 200 || !(slots.body.slots?.length > 0)) throw new Error(`GET /available-slots check: ${slots.status} ${JSON.stringify(slots.body).slice(0, 300)}`);
    log(`  created ${SLOT_EVENTS} events and ${SLOT_SERIES} recurring series in ${fmt(performance.now() - s0, 0)} ms; one answer lists ${slots.body.slots.length} windows in ${JSON.stringify(slots.body).length} bytes`);
    // One credential: as many connections as run and wait at once (the fair share of services/http/fair-share.ts).
    slotsRes = await load(`GET /available-slots (${SLOT_DAYS} days of ${SLOT_EVENTS} events and ${SLOT_SERIES} series)`, {
      kind: 'get', url: service.url, seconds: SECONDS, token: owner.token, path: slotsPath, connections: HEAVY_CONNECTIONS,
    }, service);
    printLoad(slotsRes, baseline);
    for (const [name, path] of HEAVY_READS.filter(([n]) => n !== 'available slots')) {
      const r = await load(`GET ${path.split('?')[0]} (the same calendar: ${path.split('?')[1]})`, {
        kind: 'get', url: service.url, seconds: SECONDS, token: owner.token, path: `/api/v1${path}`, connections: HEAVY_CONNECTIONS,
      }, service);
      printLoad(r, baseline);
      heavyRes.push([name, r]);
    }
    const team = await seedSuggestionsTeam(base);
    suggestionsRes = await load(`POST /meeting-suggestions (${SUGGESTION_ATTENDEES} attendees sharing their calendars, ${SUGGESTION_DAYS} days)`, {
      kind: 'post-json', url: service.url, seconds: SECONDS, token: team.organizer.token, path: '/api/v1/meeting-suggestions', body: team.body,
      connections: HEAVY_CONNECTIONS,
    }, service);
    printLoad(suggestionsRes, baseline);

    const planner = await signUp(base);
    const instances = await createRoutines(base, planner.token);
    const path = `/routines/instances?from=${MONTH.from}&to=${MONTH.to}`;
    const sample = await json(`${base}${path}`, 'GET', undefined, { authorization: `Bearer ${planner.token}` });
    if (sample.status !== 200 || sample.body.instances.length !== instances) {
      throw new Error(`GET /routines/instances check: ${sample.status}, ${sample.body?.instances?.length} instances (expected ${instances})`);
    }
    log(`  ${ROUTINES} routines, ${instances} instances in the month; one response is ${JSON.stringify(sample.body).length} bytes`);
    routinesRes = await load(`GET /routines/instances (a month, ${ROUTINES} routines, one user)`, {
      kind: 'get', url: service.url, seconds: SECONDS, token: planner.token, path: `/api/v1${path}`, connections: CONN,
    }, service);
    printLoad(routinesRes, baseline);

    const writer = await signUp(base);
    postRes = await load('POST /events (one user: all writes go to one Space stream)', {
      kind: 'post-events', url: service.url, seconds: SECONDS, tokens: [writer.token], baseMs: Date.UTC(2031, 0, 1), connections: CONN,
    }, service);
    printLoad(postRes, baseline);

    if (MULTI_USERS > 1) {
      const users = [];
      for (let i = 0; i < MULTI_USERS; i++) users.push(await signUp(base));
      multiRes = await load(`POST /events (${MULTI_USERS} users, requests rotate over them)`, {
        kind: 'post-events', url: service.url, seconds: SECONDS, tokens: users.map((u) => u.token), baseMs: Date.UTC(2031, 0, 1), connections: CONN,
      }, service);
      printLoad(multiRes, baseline);
    }

    // As many owners as the POST /events rate suggests, twice over; warmup and measured run use their own.
    const owners = Math.min(60, Math.ceil((2 * postRes.rps * SECONDS) / TASKS_PER_OWNER) + 1);
    const tokensOf = async (n: number) => (await Promise.all(Array.from({ length: n }, () => signUp(base)))).map((u) => u.token);
    const taskSpec = { kind: 'post-tasks' as const, url: service.url, perToken: TASKS_PER_OWNER, connections: CONN };
    await runLoad('POST /tasks (warmup)', { ...taskSpec, seconds: WARMUP, tokens: await tokensOf(Math.ceil(owners / 4)) });
    tasksRes = await measured(`POST /tasks (one owner's board at a time; the next owner after ${TASKS_PER_OWNER} tasks)`, {
      ...taskSpec, seconds: SECONDS, tokens: await tokensOf(owners),
    }, service);
    printLoad(tasksRes, baseline);

    // The warmup books from the far end of the horizon, the measured run from its start: no slot is asked twice.
    const host = await signUp(base);
    const booking = await createBookingHost(base, host.token);
    const bookingSpec = { kind: 'post-bookings' as const, url: service.url, path: booking.path, baseMs: booking.baseMs, connections: CONN };
    await runLoad('POST public booking (warmup)', { ...bookingSpec, seconds: WARMUP, firstSlot: Math.floor(BOOKING_SLOTS * 0.8) });
    bookingRes = await measured(`POST /public/{username}/{slug}/bookings (one host, ${CONN} guests at once, a new slot each)`, {
      ...bookingSpec, seconds: SECONDS, firstSlot: 0,
    }, service);
    printLoad(bookingRes, baseline);

    // The same load on a collective type of three hosts; then guests racing for one slot, twenty times.
    const panel = await seedCollectiveTeam(base);
    const panelSpec = { kind: 'post-bookings' as const, url: service.url, path: panel.path, baseMs: panel.baseMs, connections: CONN };
    await runLoad('POST collective booking (warmup)', { ...panelSpec, seconds: WARMUP, firstSlot: Math.floor(BOOKING_SLOTS * 0.8) });
    collectiveRes = await measured(`POST collective booking (${COLLECTIVE_HOSTS} hosts, ${CONN} guests at once, a new slot each)`, {
      ...panelSpec, seconds: SECONDS, firstSlot: 0,
    }, service);
    printLoad(collectiveRes, baseline);
    racesRes = await collectiveRaces(service.url, panel.path, panel.baseMs + 300 * 86_400_000, panel.hosts);
    log(`  collective races: ${raceLine(racesRes)}`);
  } finally {
    await service.stop();
  }
  log();

  // 4. Event store
  log(`[4] Embedded SQLite event store, in process (${STORE_SECONDS} s per mode, ~0.8 kB events)`);
  const store: StoreResult[] = await storeBench(STORE_SECONDS);
  for (const r of store) {
    log(`  ${r.label.padEnd(36)} ${fmt(r.eventsPerSec, 0).padStart(9)} events/s  ${fmt(r.appendsPerSec, 0).padStart(7)} appends/s  append p50 ${ms(r.p50)}  p99 ${ms(r.p99)}  (${r.events} events)`);
  }
  log();

  // 5. Projection lag
  log(`[5] Projection lag, embedded, service in process (${LAG_SAMPLES} probes each; lag = append committed -> all projections applied)`);
  const lag: LagResult[] = await lagBench(LAG_SAMPLES, LAG_INTERVAL_MS, SECONDS);
  for (const r of lag) {
    log(`  ${r.label}: ${r.samples} samples at ${fmt(r.rate, 0)}/s`);
    log(`    visible (waitFor)  p50 ${ms(r.visible.p50)}  p99 ${ms(r.visible.p99)}  max ${ms(r.visible.max)}`);
    log(`    applied (announce) p50 ${ms(r.applied.p50)}  p99 ${ms(r.applied.p99)}  max ${ms(r.applied.max)}`);
    log(`    append->visible    p50 ${ms(r.e2e.p50)}  p99 ${ms(r.e2e.p99)}  max ${ms(r.e2e.max)}`);
    log(`    ${r.stalls} probes became visible > 100 ms after being applied (missed wake-up), ${r.timeouts} waitFor timeouts`);
    if (r.load) printLoad({ ...r.load, label: `background load: ${r.load.label}` }, baseline);
  }
  log();

  // 6. Webhooks
  log(`[6] Webhooks, embedded, service and receiver in process (${WEBHOOK_EVENTS} events x ${WEBHOOK_FANOUT} webhooks; then ${WEBHOOK_PROBES} probes, 1 / ${WEBHOOK_PROBE_INTERVAL_MS} ms)`);
  const hooks = await webhookBench(WEBHOOK_EVENTS, WEBHOOK_FANOUT, WEBHOOK_PROBES, WEBHOOK_PROBE_INTERVAL_MS);
  log(`  ${hooks.deliveries} deliveries in ${fmt(hooks.seconds, 2)} s = ${fmt(hooks.deliveriesPerSec, 0)} deliveries/s`);
  log(`  event appended -> delivery received: p50 ${ms(hooks.latency.p50)}  p99 ${ms(hooks.latency.p99)}  max ${ms(hooks.latency.max)} (${hooks.latency.samples} samples)`);
  log();

  // 7. Hostile requests
  log(`[7] One user's hostile requests, service in process (${SECONDS} s per phase; /healthz every 20 ms; another user writes and reads back)`);
  const hostile = await hostileBench(SECONDS, HOSTILE_ATTACKERS);
  for (const p of hostile) {
    const codes = Object.entries(p.statuses).map(([c, n]) => `${c}:${n}`).join(' ');
    log(`  ${p.label}: ${p.requests} hostile requests${codes ? ` [${codes}]` : ''}`);
    log(`    /healthz          p50 ${ms(p.healthz.p50)}  p99 ${ms(p.healthz.p99)}  max ${ms(p.healthz.max)}`);
    log(`    event-loop delay  p50 ${ms(p.eventLoopDelay.p50)}  p99 ${ms(p.eventLoopDelay.p99)}  max ${ms(p.eventLoopDelay.max)}`);
    log(`    other user's POST + GET  p50 ${ms(p.victim.p50)}  p99 ${ms(p.victim.p99)}  max ${ms(p.victim.max)}`);
  }

  log(`[7b] Fair shares: ${FAIR_SHARE_CONCURRENCY} expensive reads at once from one user (${FAIR_SHARE_SERIES} hourly series; Retry-After honoured), service child (${SECONDS} s per phase; /healthz every 20 ms; another user writes and reads back)`);
  const fair = await fairShareBench(SECONDS);
  for (const p of fair) {
    const codes = Object.entries(p.statuses).map(([c, n]) => `${c}:${n}`).join(' ');
    log(`  ${p.label}: ${p.requests} answers [${codes}]`);
    log(`    /healthz          p50 ${ms(p.healthz.p50)}  p99 ${ms(p.healthz.p99)}  max ${ms(p.healthz.max)}`);
    log(`    other user's POST + GET  p50 ${ms(p.victim.p50)}  p99 ${ms(p.victim.p99)}  max ${ms(p.victim.max)}`);
  }
  log();

  // 7. Automations
  log(`[8] Automation runs, embedded, service and receiver in process (${AUTOMATION_RUNS} triggers, each run: notify, then call the receiver; then ${AUTOMATION_PROBES} probes, 1 / ${AUTOMATION_PROBE_INTERVAL_MS} ms)`);
  const automations = await automationBench(AUTOMATION_RUNS, AUTOMATION_PROBES, AUTOMATION_PROBE_INTERVAL_MS);
  log(`  ${automations.runs} runs in ${fmt(automations.seconds, 2)} s = ${fmt(automations.runsPerSec, 0)} runs/s`);
  log(`  trigger appended -> last action received: p50 ${ms(automations.latency.p50)}  p99 ${ms(automations.latency.p99)}  max ${ms(automations.latency.max)} (${automations.latency.samples} samples)`);
  log();

  log(`[8b] Reminders, embedded, service in process: ${fmt(REMINDERS, 0)} due at one instant (the top of a minute), ${REMINDER_OWNERS} owners`);
  const reminded = await reminderBench(REMINDERS, REMINDER_OWNERS);
  const allReminded = reminded.seededInTime && reminded.fired === REMINDERS && reminded.notifications === REMINDERS && reminded.missed === 0;
  if (!reminded.seededInTime) log('  WARNING: seeding ran past the due instant; the figures below mean nothing');
  log(`  ${reminded.fired} fired, ${reminded.missed} missed, ${reminded.notifications} notifications; the last ${fmt(reminded.seconds, 2)} s after the due instant; ${fmt(reminded.cpuUsPerReminder, 0)} µs CPU per reminder`);
  log(`  due -> notification readable: p50 ${ms(reminded.latency.p50)}  p99 ${ms(reminded.latency.p99)}  max ${ms(reminded.latency.max)} (${reminded.latency.samples} samples)`);
  log();

  // 8. Export
  log(`[9] CLI export, embedded store, ${fmt(EXPORT_EVENTS, 0)} events (CLI as a child process)`);
  const exported = await exportBench(EXPORT_EVENTS);
  printExport(exported, log);
  log();

  log(`[10] Rebuild into the embedded read models, ${fmt(rebuildEvents(), 0)} sealed events (rebuild-bench.ts)`);
  const rebuild = await rebuildBench(log);
  log();

  // 11. Scale
  log(`[11] Scale: ${scaleSizes().join(', ')} events seeded through the event store (scale-bench.ts; SCALE_1M=1 adds 1,000,000)`);
  const scale = await scaleBench(log);
  log();

  log(`[12] iCalendar: importing ${fmt(ICAL_EVENTS, 0)} events, and the feed of that calendar (service child; ical-bench.ts)`);
  const ical = await icalBench();
  printIcal(ical, log);
  log();

  log('[13] CalDAV: a week\'s calendar-query REPORT and PUTs, ours and Radicale 3.9 (caldav-bench.ts)');
  const caldav = await caldavBench();
  printCaldav(caldav, log);
  log();

  // Summary
  const pass = (ok: boolean) => (ok ? 'PASS' : 'MISS');
  const rows: Row[] = [
    { figure: 'Baseline express GET /hello', value: `${fmt(baseline.rps, 0)} rps, p50 ${ms(baseline.p50)}, p99 ${ms(baseline.p99)}${cpuNote(baseline)}`, target: '-', result: '-' },
    { figure: 'POST /events throughput', value: `${fmt(postRes.rps, 0)} rps = ${pct(postRes.rps / baseline.rps)} of baseline${cpuNote(postRes)}`, target: '>= 40 % of baseline', result: pass(postRes.rps >= 0.4 * baseline.rps) },
    { figure: 'POST /events latency', value: `p50 ${ms(postRes.p50)}, p99 ${ms(postRes.p99)}`, target: '-', result: '-' },
    { figure: 'POST /tasks throughput', value: `${fmt(tasksRes.rps, 0)} rps = ${pct(tasksRes.rps / baseline.rps)} of baseline${cpuNote(tasksRes)}`, target: '>= 40 % of baseline', result: pass(tasksRes.rps >= 0.4 * baseline.rps) },
    { figure: 'POST /tasks latency', value: `p50 ${ms(tasksRes.p50)}, p99 ${ms(tasksRes.p99)}`, target: '-', result: '-' },
    ...(multiRes
      ? [{ figure: `POST /events, ${MULTI_USERS} users (info)`, value: `${fmt(multiRes.rps, 0)} rps = ${pct(multiRes.rps / baseline.rps)}, p50 ${ms(multiRes.p50)}, p99 ${ms(multiRes.p99)}`, target: '-', result: '-' }]
      : []),
    { figure: 'Public booking throughput (one host)', value: `${fmt(bookingRes.rps, 0)} rps = ${pct(bookingRes.rps / baseline.rps)} of baseline`, target: '-', result: '-' },
    { figure: 'Public booking latency', value: `p50 ${ms(bookingRes.p50)}, p99 ${ms(bookingRes.p99)}`, target: '-', result: '-' },
    {
      figure: `Collective booking (${COLLECTIVE_HOSTS} hosts)`,
      value: `${fmt(collectiveRes.rps, 0)} rps = ${pct(collectiveRes.rps / bookingRes.rps)} of one host's, p50 ${ms(collectiveRes.p50)}, p99 ${ms(collectiveRes.p99)}`,
      target: '-', result: '-',
    },
    {
      figure: 'Collective races', value: `${racesRes.consistent}/${racesRes.slots} slots won once, every host consistent`,
      target: 'all', result: pass(racesRes.consistent === racesRes.slots),
    },
    { figure: `GET /events (week, ${GET_EVENTS} events)`, value: `${fmt(getRes.rps, 0)} rps = ${pct(getRes.rps / baseline.rps)} of baseline${cpuNote(getRes)}`, target: '>= 50 % of baseline', result: pass(getRes.rps >= 0.5 * baseline.rps) },
    { figure: 'GET /events latency', value: `p50 ${ms(getRes.p50)}, p99 ${ms(getRes.p99)}`, target: '-', result: '-' },
    {
      figure: `GET /events, week of a series with ${EXCEPTIONS} exceptions`,
      value: `${fmt(exceptionsRes.rps, 0)} rps = ${pct(exceptionsRes.rps / seriesRes.rps)} of the same week without; CPU/response ${exceptionCpu(exceptionsRes, seriesRes)} of it`,
      target: 'CPU/response within 20 % of without',
      result: exceptionsRes.cpuPerRequest?.server == null || seriesRes.cpuPerRequest?.server == null
        ? '-' : pass(exceptionsRes.cpuPerRequest.server <= 1.2 * seriesRes.cpuPerRequest.server),
    },
    { figure: `GET /sync (${GET_EVENTS} events changed)`, value: `${fmt(syncRes.rps, 0)} rps = ${pct(syncRes.rps / baseline.rps)} of baseline${cpuNote(syncRes)}`, target: '>= 50 % of baseline', result: pass(syncRes.rps >= 0.5 * baseline.rps) },
    { figure: 'GET /sync latency', value: `p50 ${ms(syncRes.p50)}, p99 ${ms(syncRes.p99)}`, target: '-', result: '-' },
    { figure: `GET /available-slots (${SLOT_DAYS} days, ${SLOT_EVENTS} events, ${SLOT_SERIES} series)`, value: `${fmt(slotsRes.rps, 0)} rps = ${pct(slotsRes.rps / baseline.rps)} of baseline`, target: '-', result: '-' },
    { figure: 'GET /available-slots latency', value: `p50 ${ms(slotsRes.p50)}, p99 ${ms(slotsRes.p99)}`, target: '-', result: '-' },
    ...[['available slots', slotsRes] as [string, LoadResult], ...heavyRes].map(([name, r]) => ({
      figure: `CPU per answer, ${name} (${SLOT_EVENTS} events, ${SLOT_SERIES} series)`,
      value: `${cpuText(r)} server; ${fmt(r.rps, 0)} rps, p99 ${ms(r.p99)}`,
      target: '<= 1,000 µs',
      result: r.cpuPerRequest?.server == null ? '-' : pass(r.cpuPerRequest.server <= 1000),
    })),
    {
      figure: `CPU per answer, POST /meeting-suggestions (${SUGGESTION_ATTENDEES} attendees, ${SUGGESTION_DAYS} days)`,
      value: `${cpuText(suggestionsRes)} server; p50 ${ms(suggestionsRes.p50)}, p99 ${ms(suggestionsRes.p99)}, ${fmt(suggestionsRes.rps, 0)} rps`,
      target: '< 5,000 µs',
      result: suggestionsRes.cpuPerRequest?.server == null ? '-' : pass(suggestionsRes.cpuPerRequest.server < 5000),
    },
    { figure: `GET /routines/instances (month, ${ROUTINES} routines)`, value: `${fmt(routinesRes.rps, 0)} rps = ${pct(routinesRes.rps / baseline.rps)} of baseline, p50 ${ms(routinesRes.p50)}, p99 ${ms(routinesRes.p99)}`, target: '-', result: '-' },
    ...store.map((r) => ({ figure: `Event store: ${r.label}`, value: `${fmt(r.eventsPerSec, 0)} events/s`, target: '-', result: '-' })),
    ...lag.flatMap((r) => {
      const name = r.label.split(',')[0];
      if (name === 'isolated') {
        return [{ figure: 'waitFor wake-up, isolated probes', value: `${r.stalls}/${r.samples} stalled; visible p50 ${ms(r.visible.p50)} vs applied p50 ${ms(r.applied.p50)}`, target: '(no stall)', result: r.stalls === 0 ? 'ok' : 'BUG' }];
      }
      return [
        { figure: `Projection lag, ${name} (waitFor)`, value: `p50 ${ms(r.visible.p50)}, p99 ${ms(r.visible.p99)}, max ${ms(r.visible.max)}`, target: 'p99 < 50 ms', result: pass(r.visible.p99 < 50 && r.timeouts === 0) },
        { figure: `  applied by all projections`, value: `p50 ${ms(r.applied.p50)}, p99 ${ms(r.applied.p99)}, max ${ms(r.applied.max)}`, target: '-', result: '-' },
      ];
    }),
    { figure: `Webhook deliveries/s (local receiver, fan-out ${WEBHOOK_FANOUT})`, value: `${fmt(hooks.deliveriesPerSec, 0)} deliveries/s`, target: '-', result: '-' },
    { figure: 'Webhook event-to-delivery latency', value: `p50 ${ms(hooks.latency.p50)}, p99 ${ms(hooks.latency.p99)}, max ${ms(hooks.latency.max)}`, target: '-', result: '-' },
    ...exported.runs.map((r) => ({
      figure: `${r.label}, ${fmt(exported.events, 0)} events`,
      value: `${fmt(r.seconds, 1)} s = ${fmt(r.eventsPerSec, 0)} events/s`,
      target: '< 60 s',
      result: pass(r.seconds < 60),
    })),
    ...hostile.slice(1).map((p) => ({
      figure: `/healthz while one user sends ${p.name}`,
      value: `max ${ms(p.healthz.max)}; event-loop delay max ${ms(p.eventLoopDelay.max)}`,
      target: 'max < 200 ms',
      result: pass(p.healthz.max < 200),
    })),
    ...fair.flatMap((p) => [
      { figure: `/healthz p99, one user's ${FAIR_SHARE_CONCURRENCY} ${p.name} reads at once`, value: `p99 ${ms(p.healthz.p99)}, max ${ms(p.healthz.max)}`, target: 'p99 < 100 ms', result: pass(p.healthz.p99 < 100) },
      { figure: `  another user's write + read back`, value: `p99 ${ms(p.victim.p99)}, max ${ms(p.victim.max)}`, target: 'p99 < 300 ms', result: pass(p.victim.p99 < 300) },
    ]),
    { figure: 'Automation runs/s (notify + call a local receiver)', value: `${fmt(automations.runsPerSec, 0)} runs/s`, target: '-', result: '-' },
    { figure: 'Automation trigger-to-action latency', value: `p50 ${ms(automations.latency.p50)}, p99 ${ms(automations.latency.p99)}, max ${ms(automations.latency.max)}`, target: '-', result: '-' },
    {
      figure: `Reminders: ${fmt(REMINDERS, 0)} due at one instant, due -> notification`,
      value: `${reminded.notifications}/${REMINDERS} delivered; p50 ${ms(reminded.latency.p50)}, p99 ${ms(reminded.latency.p99)}, max ${ms(reminded.latency.max)}; ${fmt(reminded.cpuUsPerReminder, 0)} µs CPU each`,
      target: 'all delivered, p99 < 5 s',
      result: pass(allReminded && reminded.latency.p99 < 5000),
    },
    ...Object.entries(rebuild.perProjection).map(([name, rate]) => ({
      figure: `Rebuild ${name}, ${fmt(rebuild.events, 0)} events`,
      value: `${fmt(rate, 0)} events/s; ${fmt(rebuild.cpuPerEvent[name], 1)} µs CPU/event; longest stall ${ms(rebuild.longestStallMs[name])}`,
      target: '>= 50,000 events/s',
      result: pass(rate >= 50_000),
    })),
    { figure: `Rebuild of all projections at once, ${fmt(rebuild.events, 0)} events`, value: `${fmt(rebuild.all, 0)} events/s of the log`, target: '-', result: '-' },
    ...scaleSummary(scale),
    {
      figure: `iCalendar import, ${fmt(ical.events, 0)} events (answered once projected)`,
      value: `${fmt(ical.eventsPerSec, 0)} events/s (${ms(ical.importMs)}); before projections ${fmt((ical.events / ical.unwaitedMs) * 1000, 0)} events/s`,
      target: '>= 5,000 events/s',
      result: pass(ical.eventsPerSec >= 5000),
    },
    {
      figure: `iCalendar feed, ${fmt(ical.events, 0)} events (unchanged, kept built)`,
      value: `p50 ${ms(ical.feed.p50)}, p90 ${ms(ical.feed.p90)}; first build ${ms(ical.firstFeedMs)}; after a change p50 ${ms(ical.afterChange.p50)}`,
      target: '< 200 ms',
      result: pass(ical.feed.p50 < 200),
    },
    { figure: 'iCalendar feed, If-None-Match (304)', value: `p50 ${ms(ical.notModified.p50)}, p90 ${ms(ical.notModified.p90)}`, target: '< 5 ms', result: pass(ical.notModified.p50 < 5) },
    ...(['query', 'put'] as const).map((k) => ({
      figure: k === 'query' ? 'CalDAV week calendar-query, 50 clients, vs Radicale' : 'CalDAV PUT, 10 clients, vs Radicale',
      value: caldav.radicale
        ? `${fmt(caldav.ours[k], 0)} req/s vs ${fmt(caldav.radicale[k], 0)} req/s = ${fmt(caldav.ours[k] / caldav.radicale[k], 1)}x`
        : `${fmt(caldav.ours[k], 0)} req/s (${caldav.radicaleMissing})`,
      target: '>= 10x Radicale',
      result: caldav.radicale ? pass(caldav.ours[k] >= 10 * caldav.radicale[k]) : '-',
    })),
  ];
  const w = [0, 0, 0, 0];
  const cells = (r: Row) => [r.figure, r.value, r.target, r.result];
  for (const r of [{ figure: 'Figure', value: 'Value', target: 'Target', result: 'Result' }, ...rows]) cells(r).forEach((c, i) => (w[i] = Math.max(w[i], c.length)));
  const line = (r: Row) => `| ${cells(r).map((c, i) => c.padEnd(w[i])).join(' | ')} |`;
  log('Summary');
  log(line({ figure: 'Figure', value: 'Value', target: 'Target', result: 'Result' }));
  log(`|${w.map((n) => '-'.repeat(n + 2)).join('|')}|`);
  for (const r of rows) log(line(r));
  const misses = rows.filter((r) => r.result === 'MISS').length;
  log();
  log(`${rows.filter((r) => r.result === 'PASS').length} targets met, ${misses} missed; bench took ${fmt((performance.now() - t0) / 1000, 1)} s`);
  const jsonFile = process.env.BENCH_JSON ?? 'bench-results.json';
  writeFileSync(jsonFile, `${JSON.stringify({ at: new Date().toISOString(), cpus: os.cpus().length, cpuBusyAtStart: busy, loadAverage: os.loadavg(), rows }, null, 2)}\n`);
  log(`written to ${jsonFile}`);
}

// Also on Ctrl-C (children.ts exits with 130 on a signal): no child and no temp data is left behind.
process.once('exit', () => {
  killAll();
  removeTempDirs();
});

main()
  .catch((err: unknown) => {
    console.error('bench failed:', err instanceof Error ? err.stack : err);
    process.exitCode = 1;
  })
  .finally(() => process.exit());
