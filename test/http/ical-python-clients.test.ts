/**
 * Real clients read our feed: Python's `icalendar` with `recurring-ical-events` (what many subscribers and scripts
 * use) expands GET /ical/{token}.ics over a year, and the result equals GET /events over the same year: rules across
 * the DST changes of Europe/Berlin and America/New_York, with cancelled and moved occurrences, a COUNT, an UNTIL and
 * an RDATE. Without python3 or the packages the suite says so in one line and is skipped; REQUIRE_PYTHON_CLIENTS=1
 * (CI, which pip-installs them) makes that a failure.
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { signUp, useTestService, type Client } from '../support/service';

const SCRIPT = path.resolve(__dirname, '../support/expand_ical.py');
const probe = spawnSync('python3', ['-c', 'import icalendar, recurring_ical_events'], { encoding: 'utf8' });
const missing = probe.error ? 'python3 is missing' : probe.status !== 0 ? 'the Python packages icalendar and recurring-ical-events are missing' : null;

let base: string;
const enc = encodeURIComponent;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** Whole days from today (UTC midnight): the feed lists from 30 days back, so the year starts today. */
const today = Math.floor(Date.now() / DAY) * DAY;
const at = (days: number, hours: number) => iso(today + days * DAY + hours * 3_600_000);

function expand(text: string, from: string, to: string): Array<{ uid: string; start: string; end: string; summary: string }> {
  const run = spawnSync('python3', [SCRIPT, from, to], { input: text, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  if (run.status !== 0) throw new Error(`expand_ical.py failed: ${run.stderr}`);
  return JSON.parse(run.stdout);
}

async function created(c: Client, body: Record<string, unknown>): Promise<string> {
  const res = await c.call('POST', '/events', body);
  expect(res.status).toBe(201);
  return res.body.event.id;
}

async function listYear(c: Client, from: string, to: string) {
  const out: Array<{ uid: string; start: string; end: string; summary: string }> = [];
  let token: string | undefined;
  for (let page = 0; page < 20; page++) {
    const res = await c.call('GET', `/events?from=${enc(from)}&to=${enc(to)}${token ? `&pageToken=${enc(token)}` : ''}`);
    expect(res.status).toBe(200);
    for (const e of res.body.events) {
      out.push({ uid: e.icalUid ?? `${e.id}@calendar-service`, start: e.startsAt, end: e.endsAt, summary: e.title });
    }
    token = res.body.nextPageToken ?? undefined;
    if (!token) break;
  }
  return out.sort((a, b) => a.start.localeCompare(b.start) || a.uid.localeCompare(b.uid));
}

if (missing) {
  describe('Python iCalendar clients [python]', () => {
    if (process.env.REQUIRE_PYTHON_CLIENTS === '1') {
      it(`needs python3 with icalendar and recurring-ical-events (REQUIRE_PYTHON_CLIENTS=1), but ${missing}`, () => {
        throw new Error(`${missing}: python3 -m pip install icalendar recurring-ical-events`);
      });
    } else {
      it.skip(`skipped: ${missing}`, () => undefined);
    }
  });
} else {
  describe('Python iCalendar clients [python: icalendar, recurring-ical-events]', () => {
    useTestService((started) => (base = started.base));

    it('expand the feed over a year to exactly what GET /events lists', async () => {
      const ada = await signUp(base, { timeZone: 'Europe/Berlin' });
      const calendarId = (await ada.call('GET', '/calendars')).body.calendars[0].id as string;
      // 09:00 Berlin every weekday: across both of the year's DST changes; one cancelled, one moved and retitled.
      const weekdays = await created(ada, {
        title: 'Standup', startsAt: at(1, 8), endsAt: at(1, 8.25), timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR',
      });
      const occurrences = (await ada.call('GET', `/events?from=${enc(at(0, 0))}&to=${enc(at(40, 0))}`)).body.events
        .filter((e: { seriesId: string | null }) => e.seriesId === weekdays).map((e: { occurrenceStartsAt: string }) => e.occurrenceStartsAt);
      expect((await ada.call('DELETE', `/events/${weekdays}/occurrences/${enc(occurrences[3])}`)).status).toBe(204);
      const moved = await ada.call('PATCH', `/events/${weekdays}/occurrences/${enc(occurrences[7])}`, {
        title: 'Standup (late)', startsAt: iso(Date.parse(occurrences[7]) + 5 * 3_600_000), endsAt: iso(Date.parse(occurrences[7]) + 5.5 * 3_600_000),
      });
      expect(moved.status).toBe(200);
      // New York: the last Friday of the month, 17:30, twelve times; an every-other-day rule with an UNTIL.
      await created(ada, {
        title: 'Month close', startsAt: at(2, 21.5), endsAt: at(2, 22.5), timeZone: 'America/New_York', recurrenceRule: 'FREQ=MONTHLY;BYDAY=-1FR;COUNT=12',
      });
      const until = new Date(today + 200 * DAY).toISOString().replace(/[-:]/g, '').replace(/\.\d{3}/, '');
      await created(ada, {
        title: 'Plants', startsAt: at(3, 11), endsAt: at(3, 11.5), timeZone: 'America/New_York', recurrenceRule: `FREQ=DAILY;INTERVAL=2;UNTIL=${until}`,
      });
      await created(ada, { title: 'Dentist', startsAt: at(10, 7), endsAt: at(10, 8), timeZone: 'Europe/Berlin' });
      // An imported series with an RDATE: the RDATE's own event is listed by GET /events and written as RDATE.
      const compact = (instant: string) => instant.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
      const file = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', 'BEGIN:VEVENT', 'UID:trip@example.org', 'DTSTAMP:20260101T000000Z',
        `DTSTART:${compact(at(5, 6))}`, 'DURATION:PT3H', 'RRULE:FREQ=WEEKLY;COUNT=3', `RDATE:${compact(at(60, 6))}`, 'SUMMARY:Trip', 'END:VEVENT', 'END:VCALENDAR', ''].join('\r\n');
      expect((await ada.call('POST', `/calendars/${calendarId}/import`, file, { 'content-type': 'text/calendar' })).body).toMatchObject({ imported: 2, skipped: [] });

      const feed = (await ada.call('POST', `/calendars/${calendarId}/feed`)).body.feed.url as string;
      const text = await (await fetch(feed)).text();
      const [from, to] = [at(0, 0), at(366, 0)];
      const ours = await listYear(ada, from, to);
      const theirs = expand(text, from, to);
      expect(theirs).toEqual(ours);
      expect(ours.length).toBeGreaterThan(250);
      expect(ours.filter((o) => o.summary === 'Standup (late)')).toHaveLength(1);
      expect(ours.filter((o) => o.summary === 'Month close')).toHaveLength(12);
    });
  });
}
