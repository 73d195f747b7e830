/**
 * iCalendar figures on the real service (child process): POST /calendars/{id}/import of a file of ICAL_EVENTS events
 * (default 10,000: single events in three zones, every tenth a weekly series with an EXDATE and an override, every
 * fifth with a VALARM and an attendee), timed from the request to the answer (the write waits for the projections),
 * the same file again (nothing to write), and the import on a service that answers before its projections; then the
 * feed of that calendar: GET /ical/{token}.ics the first time (built), again unchanged (kept built), with
 * If-None-Match (304), and after one more event each time (built again, the other objects' text kept), timed
 * request after request.
 *
 * Run alone (`node dist/test/bench/ical-bench.js`) it starts its own service child and prints the figures.
 */
import { performance } from 'node:perf_hooks';
import { startServiceChild } from './children';
import { fmt, json, percentile, signUp } from './util';

export const ICAL_EVENTS = Number(process.env.ICAL_EVENTS ?? 10_000);
const FEED_REQUESTS = 30;
const NOT_MODIFIED_REQUESTS = 300;
const CHANGES = 10;
const ZONES = ['Europe/Berlin', 'America/New_York', 'Asia/Tokyo'];

export interface IcalBenchResult {
  events: number;
  bytes: number;
  importMs: number;
  eventsPerSec: number;
  reimportMs: number;
  /** The same import on a service that answers writes before its projections caught up (WRITE_WAITS_FOR_PROJECTION=false). */
  unwaitedMs: number;
  feedBytes: number;
  /** The first GET after the import: the feed built from the read models. */
  firstFeedMs: number;
  /** A GET after one more event was added: built again, every other calendar object's text kept. */
  afterChange: { p50: number; p90: number; max: number };
  feed: { p50: number; p90: number; max: number };
  notModified: { p50: number; p90: number; max: number };
}

const pad = (n: number) => String(n).padStart(2, '0');
/** A wall-clock time `day` days and `hour` hours after 2031-01-05 (a Sunday), as iCalendar writes it. */
const local = (day: number, hour: number) => {
  const d = new Date(Date.UTC(2031, 0, 5 + day, hour));
  return `${d.getUTCFullYear()}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())}T${pad(d.getUTCHours())}0000`;
};

/** The file: `events` VEVENTs (series count as one, their override as one more component). */
export function benchCalendar(events: number): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Bench//Bench//EN'];
  let components = 0;
  for (let i = 0; components < events; i++) {
    const zone = ZONES[i % ZONES.length];
    const day = Math.floor(i / 8);
    const hour = 8 + (i % 8);
    const uid = `bench-${i}@example.org`;
    const at = (name: string, d: number, h: number) => `${name};TZID=${zone}:${local(d, h)}`;
    lines.push('BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20300101T000000Z', at('DTSTART', day, hour), at('DTEND', day, hour + 1),
      `SUMMARY:Bench event ${i}\\, imported`, `DESCRIPTION:Line one\\nline two\\; number ${i}`, 'LOCATION:Room 4');
    const series = i % 10 === 0 && components + 2 <= events;
    if (series) lines.push('RRULE:FREQ=WEEKLY;COUNT=20', at('EXDATE', day + 7, hour));
    if (i % 5 === 0) {
      lines.push('ATTENDEE;CN=Grace Hopper;PARTSTAT=ACCEPTED:mailto:grace@example.com');
      lines.push('BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER:-PT15M', 'DESCRIPTION:Reminder', 'END:VALARM');
    }
    lines.push('END:VEVENT');
    components++;
    if (series) {
      lines.push('BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20300101T000000Z', at('RECURRENCE-ID', day + 14, hour), at('DTSTART', day + 14, hour + 2),
        at('DTEND', day + 14, hour + 3), `SUMMARY:Bench event ${i}\\, moved`, 'END:VEVENT');
      components++;
    }
  }
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

const summary = (samples: number[]) => ({ p50: percentile(samples, 50), p90: percentile(samples, 90), max: Math.max(...samples) });

/** A fresh user's calendar on the service: its API base, credentials and a POST of the file. */
async function importer(url: string, text: string) {
  const base = `${url}/api/v1`;
  const user = await signUp(base);
  const auth = { authorization: `Bearer ${user.token}` };
  const calendarId = (await json(`${base}/calendars`, 'GET', undefined, auth)).body.calendars[0].id as string;
  const post = async () => {
    const t0 = performance.now();
    const res = await json(`${base}/calendars/${calendarId}/import`, 'POST', text, { ...auth, 'content-type': 'text/calendar' });
    if (res.status !== 200 || res.body.skipped.length) throw new Error(`import: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
    return { ms: performance.now() - t0, body: res.body as { imported: number; updated: number } };
  };
  return { base, auth, calendarId, post };
}

export async function icalBench(events = ICAL_EVENTS): Promise<IcalBenchResult> {
  const text = benchCalendar(events);
  const unwaited = await startServiceChild({ WRITE_WAITS_FOR_PROJECTION: 'false' });
  let unwaitedMs: number;
  try {
    unwaitedMs = (await (await importer(unwaited.url, text)).post()).ms;
  } finally {
    await unwaited.stop();
  }
  const service = await startServiceChild();
  try {
    const { base, auth, calendarId, post } = await importer(service.url, text);
    const importMs = (await post()).ms;
    const again = await post();
    if (again.body.imported !== 0 || again.body.updated !== 0) throw new Error(`import again: ${JSON.stringify(again.body).slice(0, 300)}`);
    const reimportMs = again.ms;

    const feed = await json(`${base}/calendars/${calendarId}/feed`, 'POST', undefined, auth);
    const url = feed.body.feed.url as string;
    const timed = async (headers: Record<string, string>, status: number) => {
      const s = performance.now();
      const res = await fetch(url, { headers });
      const body = await res.text();
      if (res.status !== status) throw new Error(`feed: ${res.status} (expected ${status})`);
      return { ms: performance.now() - s, etag: res.headers.get('etag')!, bytes: Buffer.byteLength(body) };
    };
    const warm = await timed({}, 200);
    const full: number[] = [];
    for (let i = 0; i < FEED_REQUESTS; i++) full.push((await timed({}, 200)).ms);
    const cached: number[] = [];
    for (let i = 0; i < NOT_MODIFIED_REQUESTS; i++) cached.push((await timed({ 'If-None-Match': warm.etag }, 304)).ms);
    const changed: number[] = [];
    for (let i = 0; i < CHANGES; i++) {
      const at = Date.UTC(2031, 0, 2, 8 + i);
      const added = await json(`${base}/events`, 'POST', {
        title: `Added ${i}`, calendarId, startsAt: new Date(at).toISOString(), endsAt: new Date(at + 1_800_000).toISOString(), allowOverlap: true,
      }, auth);
      if (added.status !== 201) throw new Error(`adding an event: ${added.status}`);
      changed.push((await timed({ 'If-None-Match': warm.etag }, 200)).ms);
    }
    return {
      events, bytes: Buffer.byteLength(text), importMs, eventsPerSec: (events / importMs) * 1000, reimportMs, unwaitedMs,
      feedBytes: warm.bytes, firstFeedMs: warm.ms, afterChange: summary(changed), feed: summary(full), notModified: summary(cached),
    };
  } finally {
    await service.stop();
  }
}

export function printIcal(r: IcalBenchResult, log: (line: string) => void): void {
  log(`  import of ${fmt(r.events, 0)} events (${fmt(r.bytes / 1e6, 1)} MB), answered once every projection applied them: ${fmt(r.importMs, 0)} ms = ${fmt(r.eventsPerSec, 0)} events/s`);
  log(`    the same file again: ${fmt(r.reimportMs, 0)} ms; answered before the projections (WRITE_WAITS_FOR_PROJECTION=false): ${fmt(r.unwaitedMs, 0)} ms = ${fmt((r.events / r.unwaitedMs) * 1000, 0)} events/s`);
  log(`  GET /ical/{token}.ics (${fmt(r.feedBytes / 1e6, 1)} MB): first (built from the read models) ${fmt(r.firstFeedMs, 0)} ms; again (unchanged, kept built): p50 ${fmt(r.feed.p50, 1)} ms  p90 ${fmt(r.feed.p90, 1)} ms  max ${fmt(r.feed.max, 1)} ms`);
  log(`  after one more event (built again, the other objects' text kept): p50 ${fmt(r.afterChange.p50, 1)} ms  p90 ${fmt(r.afterChange.p90, 1)} ms  max ${fmt(r.afterChange.max, 1)} ms`);
  log(`  the same with If-None-Match (304): p50 ${fmt(r.notModified.p50, 2)} ms  p90 ${fmt(r.notModified.p90, 2)} ms  max ${fmt(r.notModified.max, 2)} ms`);
}

if (require.main === module) {
  icalBench().then((r) => printIcal(r, (line) => process.stdout.write(`${line}\n`))).catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
