/**
 * The iCalendar mapping (services/ical): what it writes reads back equal for every property the service models
 * (series with cancelled and moved occurrences across DST, reminders, attendees, all-day, UTC, RDATE-made events);
 * ical.js, an implementation that is not ours, expands the written series to our occurrences; the text keeps the
 * RFC's form (CRLF, lines within 75 octets, escaping, UTF-8, a VTIMEZONE per zone); and hostile or foreign input is
 * refused (400) or skipped with a reason, never half read.
 */
import ICAL from 'ical.js';
import type { Event } from '../../contracts/events';
import { candidateIds, eventIdForUid, readCalendar, uidOf, writeCalendar, type ReadEvent } from '../../services/ical';
import { occurrences } from '../../services/time/recurrence';

const NOW = '2026-03-01T12:00:00.000Z';
const iso = (ms: number) => new Date(ms).toISOString();

function event(o: Partial<Event> = {}): Event {
  return {
    id: '11111111-1111-4111-8111-111111111111', spaceId: '22222222-2222-4222-8222-222222222222',
    calendarId: '33333333-3333-4333-8333-333333333333', title: 'Standup', description: null, location: null, meetingUrl: null,
    kind: 'meeting', startsAt: '2026-03-23T08:00:00.000Z', endsAt: '2026-03-23T08:30:00.000Z', timeZone: 'Europe/Berlin',
    allDay: false, busy: true, recurrenceRule: null, taskId: null, goalId: null, resources: [], attendees: [], reminders: [],
    allowOverlap: false, exceptions: [], icalUid: null, icalRecurrenceId: null, status: 'confirmed',
    createdBy: '44444444-4444-4444-8444-444444444444', createdAt: NOW, updatedAt: NOW, deletedAt: null, version: 3, ...o,
  };
}

/** A weekly series in Berlin over the March DST change: one occurrence cancelled, one moved and retitled. */
const series = event({
  title: 'Planning, weekly; "team" \\ review', description: 'Line one\nLine two — über, naïve 🎉',
  location: 'Room 4; 2nd floor', meetingUrl: 'https://meet.example.com/planning', kind: 'focus', busy: false,
  startsAt: '2026-03-16T08:00:00.000Z', endsAt: '2026-03-16T09:00:00.000Z', recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=10',
  resources: ['room:blue'],
  attendees: [
    { email: 'grace@example.com', name: 'Grace Hopper', userId: null, response: 'yes' },
    { email: 'alan@example.com', name: null, userId: null, response: 'needs_action' },
  ],
  reminders: [{ minutesBefore: 10, method: 'notification' }, { minutesBefore: 60, method: 'push' }, { minutesBefore: 1440, method: 'email' }],
  exceptions: [
    // 2026-03-30 (after the change: 09:00 Berlin is 07:00 UTC) is cancelled; 2026-04-06 is moved and retitled.
    { occurrenceStartsAt: '2026-03-30T07:00:00.000Z', cancelled: true },
    { occurrenceStartsAt: '2026-04-06T07:00:00.000Z', startsAt: '2026-04-06T12:00:00.000Z', endsAt: '2026-04-06T13:30:00.000Z', title: 'Planning (moved)' },
  ],
});

const read = (text: string, defaultZone = 'America/New_York') => readCalendar(text, { defaultZone });
const only = (text: string): ReadEvent[] => {
  const result = read(text);
  expect(result.skipped).toEqual([]);
  return result.objects.flatMap((o) => o.events);
};
const modeled = (e: Event) => ({
  title: e.title, description: e.description, location: e.location, meetingUrl: e.meetingUrl, kind: e.kind, startsAt: e.startsAt,
  endsAt: e.endsAt, timeZone: e.timeZone, allDay: e.allDay, busy: e.busy, recurrenceRule: e.recurrenceRule, resources: e.resources,
  attendees: e.attendees, reminders: e.reminders,
});

describe('written, then read back', () => {
  it('a series keeps every property the service models, its exceptions too', () => {
    const [back, ...rest] = only(writeCalendar([series], { organizer: { name: 'Ada', email: 'ada@example.com' } }));
    expect(rest).toEqual([]);
    expect(back.uid).toBe(`${series.id}@calendar-service`);
    // ical.js writes a rule's parts in its own order; the rule is the same.
    expect(back.fields).toEqual({ ...modeled(series), recurrenceRule: 'FREQ=WEEKLY;COUNT=10;BYDAY=MO' });
    expect(back.exceptions).toEqual(series.exceptions);
    expect(back.cancelled).toBe(false);
  });

  it('all-day, UTC and floating-zone events, and the events an RDATE made (as RDATE, or as an override where changed)', () => {
    const allDay = event({ id: 'a1111111-1111-4111-8111-111111111111', allDay: true, timeZone: 'America/New_York', startsAt: '2026-07-04T04:00:00.000Z', endsAt: '2026-07-06T04:00:00.000Z', recurrenceRule: 'FREQ=YEARLY;COUNT=3' });
    const utc = event({ id: 'b1111111-1111-4111-8111-111111111111', timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY;COUNT=3' });
    const master = event({ id: 'c1111111-1111-4111-8111-111111111111', icalUid: 'trip@example.org', title: 'Trip' });
    const asListed = event({ id: 'd1111111-1111-4111-8111-111111111111', icalUid: 'trip@example.org', title: 'Trip', icalRecurrenceId: '2026-04-01T08:00:00.000Z', startsAt: '2026-04-01T08:00:00.000Z', endsAt: '2026-04-01T08:30:00.000Z' });
    const changed = event({ id: 'e1111111-1111-4111-8111-111111111111', icalUid: 'trip@example.org', title: 'Trip (late)', icalRecurrenceId: '2026-05-01T08:00:00.000Z', startsAt: '2026-05-01T15:00:00.000Z', endsAt: '2026-05-01T17:00:00.000Z' });
    const text = writeCalendar([allDay, utc, master, asListed, changed]);
    expect(text).toMatch(/\r\nDTSTART;VALUE=DATE:20260704\r\n/);
    expect(text).toMatch(/\r\nRDATE;TZID=Europe\/Berlin:20260401T100000,20260501T100000\r\n/);
    const back = only(text);
    expect(back.map((e) => [e.uid, e.recurrenceId])).toEqual([
      [uidOf(allDay), null], [uidOf(utc), null], ['trip@example.org', null],
      ['trip@example.org', '2026-04-01T08:00:00.000Z'], ['trip@example.org', '2026-05-01T08:00:00.000Z'],
    ]);
    expect(back[0].fields).toEqual(modeled(allDay));
    expect(back[1].fields).toEqual(modeled(utc));
    for (const [i, e] of [[2, master], [3, asListed], [4, changed]] as const) expect(back[i].fields).toEqual({ ...modeled(e), recurrenceRule: null });
  });

  it('a DTSTART its rule does not produce is written as excluded (RFC 5545 leaves it undefined), and read back the same', () => {
    // Friday 2026-03-20 is not the last Friday of March: our series starts with 2026-03-27.
    const unsynced = event({ startsAt: '2026-03-20T16:00:00.000Z', endsAt: '2026-03-20T17:00:00.000Z', recurrenceRule: 'FREQ=MONTHLY;BYDAY=-1FR;COUNT=2' });
    const text = writeCalendar([unsynced]);
    expect(text).toMatch(/\r\nEXDATE;TZID=Europe\/Berlin:20260320T170000\r\n/);
    const [back] = only(text);
    expect(back.exceptions).toEqual([]);
    expect(occurrences({ ...back.fields, exceptions: [] }, 0, 8.64e15).map((o) => iso(o.start))).toEqual(['2026-03-27T16:00:00.000Z', '2026-04-24T15:00:00.000Z']);
  });

  it('a cancelled event says STATUS:CANCELLED, and an invitation carries its METHOD', () => {
    const text = writeCalendar([event({ status: 'cancelled' })], { method: 'CANCEL' });
    expect(text).toMatch(/\r\nMETHOD:CANCEL\r\n/);
    expect(read(text).objects[0].events[0].cancelled).toBe(true);
  });
});

describe('the text, as the RFC and other implementations read it', () => {
  const text = writeCalendar([series], { name: 'Team, shared' });
  const calendar = new ICAL.Component(ICAL.parse(text));

  it('CRLF lines within 75 octets, TEXT escaped, UTF-8 intact, one VTIMEZONE from the IANA data', () => {
    expect(text.endsWith('\r\n')).toBe(true);
    expect(text.split('\r\n').every((line) => Buffer.byteLength(line) <= 75)).toBe(true);
    expect(text.replace(/\r\n/g, '')).not.toMatch(/\n/);
    expect(text).toMatch(/\r\nSUMMARY:Planning\\, weekly\\; "team" \\\\ review\r\n/);
    const vevent = calendar.getFirstSubcomponent('vevent')!;
    expect(vevent.getFirstPropertyValue('description')).toBe(series.description);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Team, shared');
    const zones = calendar.getAllSubcomponents('vtimezone');
    expect(zones.map((z) => z.getFirstPropertyValue('tzid'))).toEqual(['Europe/Berlin']);
    expect(zones[0].getAllSubcomponents().map((p) => p.name).sort()).toEqual(['daylight', 'standard']);
    expect(vevent.getFirstProperty('dtstart')!.getFirstParameter('tzid')).toBe('Europe/Berlin');
    expect(vevent.getAllSubcomponents('valarm').map((a) => [a.getFirstPropertyValue('action'), String(a.getFirstPropertyValue('trigger'))]))
      .toEqual([['DISPLAY', '-PT10M'], ['DISPLAY', '-PT1H'], ['EMAIL', '-P1D']]);
  });

  it("ical.js expands the written series to exactly our occurrences (EXDATE, RECURRENCE-ID, the DST change)", () => {
    const zone = new ICAL.Timezone(calendar.getFirstSubcomponent('vtimezone')!);
    ICAL.TimezoneService.register(zone, 'Europe/Berlin');
    try {
      const vevents = calendar.getAllSubcomponents('vevent');
      const master = new ICAL.Event(vevents[0], { exceptions: vevents.slice(1).map((v) => new ICAL.Event(v)) });
      const theirs: string[] = [];
      const it = master.iterator();
      for (let next = it.next(); next && theirs.length < 20; next = it.next()) {
        if (master.isRecurrenceException()) continue;
        const details = master.getOccurrenceDetails(next);
        const excluded = (vevents[0].getAllProperties('exdate').flatMap((p) => p.getValues()) as Array<InstanceType<typeof ICAL.Time>>)
          .some((x) => x.compare(next) === 0);
        if (!excluded) theirs.push(`${iso(details.startDate.toJSDate().getTime())} ${iso(details.endDate.toJSDate().getTime())} ${details.item.summary}`);
      }
      const ours = occurrences(series, 0, 8.64e15).map((o) => `${iso(o.start)} ${iso(o.end)} ${o.change?.title ?? series.title}`);
      expect(theirs.sort()).toEqual(ours.sort());
      expect(ours).toHaveLength(9);
      expect(ours[0]).toMatch(/^2026-03-16T08:00/); // 09:00 CET
      expect(ours[1]).toMatch(/^2026-03-23T08:00/);
      expect(ours[2]).toMatch(/^2026-04-06T12:00/); // the moved one; 03-30 (after the change) is cancelled
    } finally {
      ICAL.TimezoneService.remove('Europe/Berlin');
    }
  });
});

const calendarOf = (...lines: string[]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//test//EN', ...lines, 'END:VCALENDAR', ''].join('\r\n');
const vevent = (uid: string, ...lines: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'];
const vtimezone = (tzid: string, offset = '+0100', extra: string[] = []) => [
  'BEGIN:VTIMEZONE', `TZID:${tzid}`, ...extra, 'BEGIN:STANDARD', 'DTSTART:19700101T000000', `TZOFFSETFROM:${offset}`, `TZOFFSETTO:${offset}`, 'END:STANDARD', 'END:VTIMEZONE',
];

describe('reading what other clients write', () => {
  it('TZID as IANA, behind a vendor prefix, as X-LIC-LOCATION or a Windows name; floating times in the default zone', () => {
    const text = calendarOf(
      ...vtimezone('/mozilla.org/20050126_1/Europe/Paris'),
      ...vtimezone('Custom Tokyo', '+0900', ['X-LIC-LOCATION:Asia/Tokyo']),
      ...vevent('a', 'DTSTART;TZID=Europe/Berlin:20260701T090000', 'DTEND;TZID=Europe/Berlin:20260701T100000', 'SUMMARY:IANA'),
      ...vevent('b', 'DTSTART;TZID=/mozilla.org/20050126_1/Europe/Paris:20260701T090000', 'DURATION:PT1H'),
      ...vevent('c', 'DTSTART;TZID=Custom Tokyo:20260701T090000', 'DURATION:PT30M'),
      ...vevent('d', 'DTSTART;TZID=W. Europe Standard Time:20260701T090000', 'DURATION:PT1H'),
      ...vevent('e', 'DTSTART:20260701T090000', 'DURATION:PT1H'),
      // 02:30 on 2026-03-08 does not exist in New York: read with the offset before the change, 03:30 EDT.
      ...vevent('f', 'DTSTART;TZID=America/New_York:20260308T023000', 'DURATION:PT1H'),
    );
    const back = only(text);
    expect(back.map((e) => [e.uid, e.fields.startsAt, e.fields.timeZone])).toEqual([
      ['a', '2026-07-01T07:00:00.000Z', 'Europe/Berlin'],
      ['b', '2026-07-01T07:00:00.000Z', 'Europe/Paris'],
      ['c', '2026-07-01T00:00:00.000Z', 'Asia/Tokyo'],
      ['d', '2026-07-01T07:00:00.000Z', 'Europe/Berlin'],
      ['e', '2026-07-01T13:00:00.000Z', 'America/New_York'],
      ['f', '2026-03-08T07:30:00.000Z', 'America/New_York'],
    ]);
    expect(back[1].fields.title).toBe('(no title)');
  });

  it("floating times and dates are in the calendar's X-WR-TIMEZONE when it names one", () => {
    const text = calendarOf('X-WR-TIMEZONE:Asia/Tokyo', ...vevent('a', 'DTSTART:20260701T090000', 'DURATION:PT1H'), ...vevent('b', 'DTSTART;VALUE=DATE:20260702'));
    expect(only(text).map((e) => [e.fields.startsAt, e.fields.endsAt, e.fields.timeZone, e.fields.allDay])).toEqual([
      ['2026-07-01T00:00:00.000Z', '2026-07-01T01:00:00.000Z', 'Asia/Tokyo', false],
      ['2026-07-01T15:00:00.000Z', '2026-07-02T15:00:00.000Z', 'Asia/Tokyo', true],
    ]);
  });

  it('RRULE with EXDATE, RDATE (PERIOD too) and overrides; an occurrence the spring change skips is none (RFC 5545 3.3.10)', () => {
    const text = calendarOf(...vevent(
      'series@x', 'DTSTART;TZID=America/New_York:20260306T023000', 'DTEND;TZID=America/New_York:20260306T033000',
      'RRULE:FREQ=DAILY;COUNT=5', 'EXDATE;TZID=America/New_York:20260309T023000,20260101T000000',
      'RDATE;VALUE=PERIOD:20260320T150000Z/PT2H', 'RDATE;TZID=America/New_York:20260321T100000',
    ), ...vevent('series@x', 'RECURRENCE-ID;TZID=America/New_York:20260307T023000', 'DTSTART;TZID=America/New_York:20260307T120000',
      'DTEND;TZID=America/New_York:20260307T130000', 'SUMMARY:Moved'),
    ...vevent('series@x', 'RECURRENCE-ID;TZID=America/New_York:20260321T100000', 'DTSTART;TZID=America/New_York:20260321T110000',
      'DTEND;TZID=America/New_York:20260321T120000', 'SUMMARY:Later'));
    const [master, period, dated] = only(text);
    expect(master.fields.recurrenceRule).toBe('FREQ=DAILY;COUNT=5');
    expect(master.exceptions).toEqual([
      { occurrenceStartsAt: '2026-03-07T07:30:00.000Z', startsAt: '2026-03-07T17:00:00.000Z', endsAt: '2026-03-07T18:00:00.000Z', title: 'Moved' },
      { occurrenceStartsAt: '2026-03-09T06:30:00.000Z', cancelled: true },
    ]);
    expect(occurrences({ ...master.fields, exceptions: master.exceptions }, 0, 8.64e15).map((o) => iso(o.start))).toEqual([
      '2026-03-06T07:30:00.000Z', '2026-03-07T17:00:00.000Z', '2026-03-10T06:30:00.000Z', '2026-03-11T06:30:00.000Z',
    ]);
    expect([period.recurrenceId, period.fields.startsAt, period.fields.endsAt]).toEqual(['2026-03-20T15:00:00.000Z', '2026-03-20T15:00:00.000Z', '2026-03-20T17:00:00.000Z']);
    expect([dated.recurrenceId, dated.fields.startsAt, dated.fields.title]).toEqual(['2026-03-21T14:00:00.000Z', '2026-03-21T15:00:00.000Z', 'Later']);
  });
});

describe('refused (400) or skipped with a reason', () => {
  const refused = (text: string) => {
    try {
      read(text);
    } catch (err) {
      return err as { status: number; code: string; message: string };
    }
    throw new Error('not refused');
  };

  it('text that is no iCalendar, or breaks the bounds, is refused whole', () => {
    expect(refused('hello')).toMatchObject({ status: 400, code: 'invalid_request' });
    expect(refused('BEGIN:VCALENDAR\r\nthis is: not\r\nreally\r\nEND:VCALENDAR\r\n')).toMatchObject({ status: 400, code: 'invalid_request' });
    const many = calendarOf(...Array.from({ length: 10_001 }, (_, i) => vevent(`u${i}`, 'DTSTART:20260101T000000Z', 'DURATION:PT1H')).flat());
    expect(refused(many).message).toMatch(/at most 10000 components/);
    const deep = calendarOf('BEGIN:VEVENT', 'UID:x', 'BEGIN:VALARM', 'BEGIN:X-A', 'BEGIN:X-B', 'END:X-B', 'END:X-A', 'END:VALARM', 'END:VEVENT');
    expect(refused(deep).message).toMatch(/nest at most 3 deep/);
    const folded = calendarOf(...vevent('big', 'DTSTART:20260101T000000Z', 'DURATION:PT1H', `DESCRIPTION:${'x'.repeat(74)}${'\r\n y'.repeat(3_500_000)}`));
    expect(refused(folded).message).toMatch(/at most 10 MB/);
  });

  it('past 2,000 recurring series the rest are skipped: checking a rule that yields nothing scans its 10 years', () => {
    const text = calendarOf(...Array.from({ length: 2001 }, (_, i) => vevent(`s${i}`, 'DTSTART:20260101T090000Z', 'DURATION:PT1H', 'RRULE:FREQ=DAILY;COUNT=2')).flat(),
      ...vevent('single', 'DTSTART:20260101T090000Z', 'DURATION:PT1H'));
    const result = read(text);
    expect(result.objects).toHaveLength(2001);
    expect(result.skipped).toEqual([{ uid: 's2000', reason: 'the text has more than 2000 recurring series' }]);
  });

  it('events our model or limits cannot hold are skipped, each with its UID and why; the rest is read', () => {
    const text = calendarOf(
      ...vtimezone('Mars/Olympus', '+9900'),
      ...vevent('ok', 'DTSTART:20260101T090000Z', 'DURATION:PT1H', 'BEGIN:VLOCATION', 'UID:room', 'NAME:Room 4', 'END:VLOCATION'),
      ...vevent('bomb', 'DTSTART:20260101T090000Z', 'DURATION:PT1H', 'RRULE:FREQ=SECONDLY'),
      ...vevent('setpos', 'DTSTART:20260101T090000Z', 'DURATION:PT1H', 'RRULE:FREQ=YEARLY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYMINUTE=0,1,2;BYSETPOS=1'),
      ...vevent('nowhere', 'DTSTART;TZID=Mars/Olympus:20260101T090000', 'DURATION:PT1H'),
      ...vevent('unknown-zone', 'DTSTART;TZID=Middle Earth:20260101T090000', 'DURATION:PT1H'),
      ...vevent('instant', 'DTSTART:20260101T090000Z'),
      ...vevent('long', 'DTSTART:20260101T090000Z', 'DURATION:PT1H', `SUMMARY:${'t'.repeat(501)}`),
      ...vevent('twice', 'DTSTART:20260101T090000Z', 'DURATION:PT1H'), ...vevent('twice', 'DTSTART:20260102T090000Z', 'DURATION:PT1H'),
      ...vevent('orphan', 'RECURRENCE-ID:20260101T090000Z', 'DTSTART:20260101T100000Z', 'DURATION:PT1H'),
      ...vevent('ok', 'RECURRENCE-ID:20260105T090000Z', 'DTSTART:20260105T100000Z', 'DURATION:PT1H'),
      'BEGIN:VTODO', 'UID:todo', 'END:VTODO',
      ...vevent('nested', 'DTSTART:20260101T090000Z', 'DURATION:PT1H', 'BEGIN:VEVENT', 'END:VEVENT'),
    );
    const result = read(text);
    expect(result.objects.map((o) => o.uid)).toEqual(['ok']);
    const reasons = Object.fromEntries(result.skipped.map((s) => [s.uid, s.reason]));
    expect(Object.keys(reasons).sort()).toEqual(['bomb', 'instant', 'long', 'nested', 'nowhere', 'ok', 'orphan', 'setpos', 'todo', 'twice', 'unknown-zone']);
    expect(reasons.bomb).toMatch(/RRULE is refused: .*SECONDLY/);
    expect(reasons.setpos).toMatch(/RRULE is refused/);
    expect(reasons.nowhere).toMatch(/VTIMEZONE Mars\/Olympus is refused: its TZOFFSETFROM \+9900 is beyond ±18:00/);
    expect(reasons['unknown-zone']).toMatch(/TZID Middle Earth/);
    expect(reasons.instant).toMatch(/ends when it starts/);
    expect(reasons.long).toMatch(/title/);
    expect(reasons.twice).toMatch(/two VEVENTs/);
    expect(reasons.orphan).toMatch(/only overrides/);
    expect(reasons.ok).toMatch(/is no occurrence of the series/);
    expect(reasons.todo).toMatch(/VTODO components are not imported/);
    expect(reasons.nested).toMatch(/holds a VEVENT inside/);
  });
});

describe('identity', () => {
  it('events made here are {id}@calendar-service; a client UID gets one id per calendar (and per RDATE)', () => {
    const cal = series.calendarId;
    expect(uidOf(series)).toBe(`${series.id}@calendar-service`);
    expect(uidOf({ id: series.id, icalUid: 'abc@x' })).toBe('abc@x');
    expect(eventIdForUid(cal, 'abc@x')).toBe(eventIdForUid(cal, 'abc@x'));
    expect(eventIdForUid(cal, 'abc@x')).not.toBe(eventIdForUid('55555555-5555-4555-8555-555555555555', 'abc@x'));
    expect(eventIdForUid(cal, 'abc@x', '2026-01-01T00:00:00.000Z')).not.toBe(eventIdForUid(cal, 'abc@x'));
    expect(candidateIds(cal, uidOf(series))).toEqual([series.id, eventIdForUid(cal, uidOf(series))]);
    expect(candidateIds(cal, 'abc@x')).toEqual([eventIdForUid(cal, 'abc@x')]);
  });
});
