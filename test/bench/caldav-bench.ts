/**
 * CalDAV figures, ours against a local Radicale 3.9 (no auth, a temp storage dir), the same client code for both:
 * a week's calendar-query REPORT (time-range, getetag and calendar-data) from CALDAV_CLIENTS (50) concurrent clients
 * over a calendar of 140 single events and 10 weekly series, then PUTs of new objects from 10 concurrent clients.
 * Prints req/s for both and the ratio (targets: ours >= 10x Radicale on both). Without radicale on PATH, says so in
 * one line and measures ours only.
 *
 * Run alone (`node dist/test/bench/caldav-bench.js`) it starts its own service child and prints the figures.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { startServiceChild, stopChild } from './children';
import { benchSeconds, fmt, freePort, json, signUp, sleep, tempDir, waitForHttp } from './util';

const CLIENTS = Number(process.env.CALDAV_CLIENTS ?? 50);
const PUT_CLIENTS = 10;

interface Target {
  name: string;
  collection: string;
  auth: string;
}

export interface CaldavResult {
  ours: { query: number; put: number };
  radicale: { query: number; put: number } | null;
  radicaleMissing: string | null;
}

const basic = (user: string, password: string) => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
const pad = (n: number) => String(n).padStart(2, '0');
const at = (day: number, hour: number) => `203101${pad(6 + day)}T${pad(hour)}0000Z`;

function object(uid: string, day: number, hour: number, weekly: boolean): string {
  return ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Bench//EN', 'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20300101T000000Z',
    `DTSTART:${at(day, hour)}`, `DTEND:${at(day, hour + 1)}`, `SUMMARY:Bench ${uid}`, 'LOCATION:Room 4',
    ...(weekly ? ['RRULE:FREQ=WEEKLY;COUNT=20'] : []), 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
}

const WEEK_QUERY = `<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
<d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">
<c:time-range start="${at(0, 0)}" end="20310113T000000Z"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;

async function call(t: Target, method: string, path: string, body: string, headers: Record<string, string> = {}): Promise<number> {
  const res = await fetch(`${t.collection}${path}`, { method, body, headers: { authorization: t.auth, ...headers } });
  await res.arrayBuffer();
  return res.status;
}

async function seed(t: Target): Promise<void> {
  for (let day = 0; day < 7; day++) {
    for (let i = 0; i < 20; i++) {
      const status = await call(t, 'PUT', `seed-${day}-${i}.ics`, object(`seed-${day}-${i}`, day, 8 + (i % 10), false), { 'content-type': 'text/calendar' });
      if (status >= 300) throw new Error(`${t.name}: seeding PUT answered ${status}`);
    }
  }
  for (let s = 0; s < 10; s++) await call(t, 'PUT', `series-${s}.ics`, object(`series-${s}`, s % 7, 18, true), { 'content-type': 'text/calendar' });
}

/** `clients` loops sending `request` for `seconds`; requests per second answered with `ok`. */
async function load(clients: number, seconds: number, request: (n: number) => Promise<number>, ok: (status: number) => boolean): Promise<number> {
  const end = performance.now() + seconds * 1000;
  let done = 0;
  let failed = 0;
  let n = 0;
  const started = performance.now();
  await Promise.all(Array.from({ length: clients }, async () => {
    while (performance.now() < end) {
      // A reset connection counts as a failed request, as a wrong status does.
      if (ok(await request(n++).catch(() => 0))) done++;
      else failed++;
    }
  }));
  if (failed > done / 100) throw new Error(`${failed} of ${failed + done} requests failed`);
  return done / ((performance.now() - started) / 1000);
}

async function measure(t: Target, seconds: number): Promise<{ query: number; put: number }> {
  await seed(t);
  const query = await load(CLIENTS, seconds, () => call(t, 'REPORT', '', WEEK_QUERY, { depth: '1', 'content-type': 'application/xml' }), (s) => s === 207);
  const run = Date.now();
  const put = await load(PUT_CLIENTS, seconds, (n) => call(t, 'PUT', `put-${run}-${n}.ics`, object(`put-${run}-${n}`, n % 7, 8 + (n % 10), false), {
    'content-type': 'text/calendar', 'if-none-match': '*',
  }), (s) => s === 201);
  return { query, put };
}

async function ours(seconds: number): Promise<{ query: number; put: number }> {
  const svc = await startServiceChild();
  try {
    const base = `${svc.url}/api/v1`;
    const user = await signUp(base);
    const h = { authorization: `Bearer ${user.token}` };
    const username = (await json(`${base}/me`, 'GET', undefined, h)).body.user.username as string;
    const key = (await json(`${base}/api-keys`, 'POST', { name: 'bench', scopes: ['events:read', 'events:create', 'events:update'] }, h)).body.key as string;
    const calendarId = (await json(`${base}/calendars`, 'GET', undefined, h)).body.calendars[0].id as string;
    return await measure({ name: 'ours', collection: `${svc.url}/dav/calendars/${username}/${calendarId}/`, auth: basic(username, key) }, seconds);
  } finally {
    await svc.stop();
  }
}

async function radicale(seconds: number): Promise<{ query: number; put: number }> {
  const port = await freePort();
  const child: ChildProcess = spawn('radicale', [
    '--server-hosts', `127.0.0.1:${port}`, '--server-max-connections', String(CLIENTS + 10), '--storage-filesystem-folder', tempDir('radicale'), '--auth-type', 'none',
  ], { stdio: 'ignore' });
  try {
    const url = `http://127.0.0.1:${port}`;
    await waitForHttp(`${url}/.web/`, 20_000, () => child.exitCode === null);
    const t = { name: 'radicale', collection: `${url}/bench/cal/`, auth: basic('bench', 'x') };
    const made = await call(t, 'MKCALENDAR', '', '');
    if (made !== 201) throw new Error(`radicale MKCALENDAR answered ${made}`);
    return await measure(t, seconds);
  } finally {
    await stopChild(child, 5000);
  }
}

export async function caldavBench(): Promise<CaldavResult> {
  const seconds = Math.min(benchSeconds(), 5);
  const probe = spawnSync('radicale', ['--version'], { encoding: 'utf8' });
  const radicaleMissing = probe.error ? 'radicale is not on PATH' : probe.status !== 0 ? 'radicale --version failed' : null;
  const mine = await ours(seconds);
  await sleep(200);
  return { ours: mine, radicale: radicaleMissing ? null : await radicale(seconds), radicaleMissing };
}

export function printCaldav(r: CaldavResult, log: (s?: string) => void): void {
  log(`  ours:     week calendar-query ${fmt(r.ours.query, 0)} req/s (${CLIENTS} clients), PUT ${fmt(r.ours.put, 0)} req/s (${PUT_CLIENTS} clients)`);
  if (!r.radicale) return log(`  Radicale: not measured (${r.radicaleMissing})`);
  log(`  Radicale: week calendar-query ${fmt(r.radicale.query, 0)} req/s, PUT ${fmt(r.radicale.put, 0)} req/s`);
  log(`  ratio:    query ${fmt(r.ours.query / r.radicale.query, 1)}x, PUT ${fmt(r.ours.put / r.radicale.put, 1)}x (target >= 10x on both)`);
}

if (require.main === module) {
  caldavBench().then((r) => printCaldav(r, console.log)).catch((err) => {
    console.error(err);
    process.exitCode = 1;
  });
}
