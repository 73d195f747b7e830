/**
 * iCalendar (RFC 5545) text as our events: parsed by ical.js (unfolding, unescaping, UTF-8), then read per UID. A UID
 * is one calendar object: the master VEVENT (RRULE, EXDATE, RDATE) and its overrides (RECURRENCE-ID). The master
 * becomes one event (a series with its exceptions), each RDATE one more event under the same UID
 * (`recurrenceId` = that date). What cannot be ours is reported in `skipped` with the reason, never half read.
 * The whole text is bounded before ical.js sees it (size, components, nesting).
 */
import ICAL from 'ical.js';
import { AttendeeInput, CreateEventBody, EVENT_KINDS, MAX_EVENT_DAYS, MAX_EXCEPTIONS, MAX_EXCEPTIONS_BYTES, OCCURRENCE_FIELDS, type EventFields, type OccurrenceException } from '../../contracts/events';
import { REMINDER_LIMITS, type Reminder } from '../../contracts/reminders';
import { invalid } from '../errors';
import { DAY_MS } from '../time/civil';
import { checkRule, producedStarts } from '../time/recurrence';
import { instantOfWallClock, offsetMs } from '../time/zone';
import { ALARM_METHOD_PROPERTY, KIND_PROPERTY } from './write';
import { ianaZoneOf, offsetProblem } from './zones';

export const ICAL_LIMITS = {
  /** Bytes of text. */
  maxBytes: 10_000_000,
  /** Calendar components (VEVENT, VTODO, ...; VTIMEZONEs aside) in one text. */
  maxComponents: 10_000,
  /** Components at any depth (alarms, time zone rules) and VTIMEZONEs. */
  maxAllComponents: 60_000,
  maxTimezones: 200,
  /** VCALENDAR > VEVENT > VALARM. */
  maxDepth: 3,
  /** RDATEs of one UID, each an event. */
  maxRdates: 1000,
  /**
   * Recurring series in one text: each rule is checked against RECURRENCE_LIMITS, which for a rule that yields (almost)
   * nothing means scanning its 10 years (about a millisecond); this bounds one import's work.
   */
  maxSeries: 2000,
} as const;

export type ReadFields = Pick<
  EventFields,
  | 'title' | 'description' | 'location' | 'meetingUrl' | 'kind' | 'startsAt' | 'endsAt' | 'timeZone' | 'allDay' | 'busy'
  | 'recurrenceRule' | 'resources' | 'attendees' | 'reminders'
>;

export interface ReadEvent {
  uid: string;
  /** For an event an RDATE made: that date (UTC). */
  recurrenceId: string | null;
  fields: ReadFields;
  exceptions: OccurrenceException[];
  /** STATUS:CANCELLED */
  cancelled: boolean;
}

export interface Skipped {
  uid: string | null;
  reason: string;
}

export interface ReadResult {
  method: string | null;
  /** Per UID: the master's event first, then the events its RDATEs made. */
  objects: Array<{ uid: string; events: ReadEvent[] }>;
  skipped: Skipped[];
}

export interface ReadOptions {
  /** The zone of floating and all-day times when the text names none (X-WR-TIMEZONE): the calendar owner's. */
  defaultZone: string;
}

type JProp = [string, Record<string, unknown>, string, ...unknown[]];
type JComp = [string, JProp[], JComp[]];

/** 400 `invalid_request` with the reason as the body's issue, as any body that fails its schema. */
const refuse = (message: string) => invalid(message, [{ path: 'body', message }]);

/** Refuses text that is no iCalendar, or too large for the bounds, before anything parses it. */
function precheck(text: string): void {
  if (Buffer.byteLength(text) > ICAL_LIMITS.maxBytes) throw refuse(`An iCalendar text is at most ${ICAL_LIMITS.maxBytes / 1e6} MB`);
  if (!/^\uFEFF?\s*BEGIN:VCALENDAR\r?\n/i.test(text)) throw refuse('Not iCalendar: the text must start with BEGIN:VCALENDAR');
  const unfolded = text.replace(/\r?\n[ \t]/g, '');
  const lines = /^(BEGIN|END):([^\r\n]*)/gim;
  let depth = 0;
  let top = 0;
  let all = 0;
  let zones = 0;
  for (let m = lines.exec(unfolded); m; m = lines.exec(unfolded)) {
    if (m[1].toUpperCase() === 'END') {
      depth--;
      continue;
    }
    depth++;
    all++;
    const name = m[2].trim().toUpperCase();
    if (depth === 2 && name === 'VTIMEZONE') zones++;
    else if (depth === 2) top++;
    if (depth > ICAL_LIMITS.maxDepth) throw refuse(`Components nest at most ${ICAL_LIMITS.maxDepth} deep (VCALENDAR, VEVENT, VALARM); ${name} is deeper`);
    if (top > ICAL_LIMITS.maxComponents) throw refuse(`An iCalendar text holds at most ${ICAL_LIMITS.maxComponents} components`);
    if (all > ICAL_LIMITS.maxAllComponents || zones > ICAL_LIMITS.maxTimezones) {
      throw refuse(`An iCalendar text holds at most ${ICAL_LIMITS.maxAllComponents} components in all and ${ICAL_LIMITS.maxTimezones} VTIMEZONEs`);
    }
  }
}

const propsOf = (c: JComp, name: string) => c[1].filter((p) => p[0] === name);
const firstOf = (c: JComp, name: string) => c[1].find((p) => p[0] === name);
const textOf = (c: JComp, name: string): string | null => {
  const value = firstOf(c, name)?.[3];
  return typeof value === 'string' ? value : null;
};

/** TZID -> IANA zone, or why its events cannot be read. */
type Zones = Map<string, { zone: string } | { problem: string }>;

function zonesOf(vtimezones: JComp[]): Zones {
  const zones: Zones = new Map();
  for (const vtz of vtimezones) {
    const tzid = textOf(vtz, 'tzid');
    if (!tzid) continue;
    const problem = offsetProblem(vtz);
    const zone = ianaZoneOf(tzid, textOf(vtz, 'x-lic-location'));
    zones.set(tzid, problem ? { problem: `its VTIMEZONE ${tzid} is refused: ${problem}` }
      : zone ? { zone } : { problem: `its time zone ${tzid} is no IANA or Windows zone this server knows` });
  }
  return zones;
}

class Unreadable extends Error {}

const CALENDAR_COMPONENTS = new Set(['vcalendar', 'vevent', 'vtodo', 'vjournal', 'vfreebusy', 'vtimezone']);

interface Time {
  ms: number;
  /** DATE value */
  date: boolean;
  /** The zone it was written in: IANA, `UTC` for `Z`, null for floating and dates. */
  zone: string | null;
}

function zoneOf(tzid: string, zones: Zones): string {
  const known = zones.get(tzid);
  if (known) {
    if ('problem' in known) throw new Unreadable(known.problem);
    return known.zone;
  }
  const zone = ianaZoneOf(tzid);
  if (!zone) throw new Unreadable(`its TZID ${tzid} has no VTIMEZONE and is no IANA or Windows zone this server knows`);
  return zone;
}

/** A DATE or DATE-TIME value (jCal text) as an instant. */
function timeOf(value: unknown, tzid: unknown, zones: Zones, defaultZone: string, what: string): Time {
  const m = typeof value === 'string' ? /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2}):(\d{2})(Z)?)?$/.exec(value) : null;
  if (!m) throw new Unreadable(`its ${what} is no DATE or DATE-TIME`);
  const [y, mo, d, h = '0', mi = '0', s = '0'] = m.slice(1, 7);
  const local = Date.UTC(Number(y), Number(mo) - 1, Number(d), Number(h), Number(mi), Math.min(Number(s), 59));
  if (Number.isNaN(local) || Number(mo) > 12 || Number(d) > 31) throw new Unreadable(`its ${what} is no valid date`);
  if (m[7]) return { ms: local, date: false, zone: 'UTC' };
  const date = m[4] === undefined;
  const zone = !date && typeof tzid === 'string' ? zoneOf(tzid, zones) : null;
  const wall = zone ?? defaultZone;
  // A time the spring change skips is read with the offset before the change (RFC 5545 3.3.5).
  return { ms: instantOfWallClock(local, wall) ?? local - offsetMs(local - DAY_MS, wall), date, zone };
}

const timeProp = (p: JProp, zones: Zones, zone: string, what: string, i = 3) => timeOf(p[i], p[1].tzid, zones, zone, what);

const RESPONSES: Record<string, ReadFields['attendees'][number]['response']> = {
  ACCEPTED: 'yes', DECLINED: 'no', TENTATIVE: 'maybe',
};

function attendeesOf(c: JComp): ReadFields['attendees'] {
  const seen = new Set<string>();
  const out: ReadFields['attendees'] = [];
  for (const p of propsOf(c, 'attendee')) {
    const email = String(p[3] ?? '').replace(/^mailto:/i, '').trim();
    if (!AttendeeInput.shape.email.safeParse(email).success || seen.has(email.toLowerCase())) continue;
    seen.add(email.toLowerCase());
    const cn = typeof p[1].cn === 'string' && p[1].cn.trim() ? p[1].cn.trim().slice(0, 200) : null;
    const response = RESPONSES[String(p[1].partstat ?? '').toUpperCase()] ?? 'needs_action';
    out.push({ email, name: cn, userId: null, response });
  }
  return out.slice(0, 200);
}

const secondsOf = (value: unknown) => ICAL.Duration.fromString(String(value)).toSeconds();

/** VALARMs as reminders: DISPLAY and AUDIO notify (or push, as we mark it), EMAIL mails; after the start, none. */
function remindersOf(c: JComp, start: number, end: number, zones: Zones, zone: string): Reminder[] {
  const out: Reminder[] = [];
  for (const alarm of c[2].filter((s) => s[0] === 'valarm')) {
    const trigger = firstOf(alarm, 'trigger');
    if (!trigger) continue;
    let at: number;
    try {
      at = trigger[2] === 'duration'
        ? (String(trigger[1].related ?? '').toUpperCase() === 'END' ? end : start) + secondsOf(trigger[3]) * 1000
        : timeProp(trigger, zones, zone, 'TRIGGER').ms;
    } catch {
      continue;
    }
    const minutesBefore = Math.round((start - at) / 60_000);
    if (!(minutesBefore >= 0 && minutesBefore <= REMINDER_LIMITS.maxMinutesBefore)) continue;
    const action = (textOf(alarm, 'action') ?? '').toUpperCase();
    const method = action === 'EMAIL' ? 'email' : textOf(alarm, ALARM_METHOD_PROPERTY) === 'push' ? 'push' : 'notification';
    if (!out.some((r) => r.minutesBefore === minutesBefore && r.method === method)) out.push({ minutesBefore, method });
  }
  return out.slice(0, REMINDER_LIMITS.perEvent);
}

interface Read {
  fields: ReadFields;
  start: Time;
  cancelled: boolean;
}

/** The fields of one VEVENT (master or override), checked against the limits of POST /events. */
function readVevent(c: JComp, zones: Zones, defaultZone: string): Read {
  const dtstart = firstOf(c, 'dtstart');
  if (!dtstart) throw new Unreadable('it has no DTSTART');
  const start = timeProp(dtstart, zones, defaultZone, 'DTSTART');
  const dtend = firstOf(c, 'dtend');
  const duration = firstOf(c, 'duration');
  let end: number;
  if (dtend) {
    const e = timeProp(dtend, zones, defaultZone, 'DTEND');
    if (e.date !== start.date) throw new Unreadable('its DTSTART and DTEND are not both dates or both date-times');
    end = e.ms;
  } else if (duration) {
    end = start.ms + secondsOf(duration[3]) * 1000;
  } else {
    end = start.date ? start.ms + DAY_MS : start.ms;
  }
  if (end <= start.ms) throw new Unreadable('it ends when it starts or before (DTEND or DURATION)');
  if (end - start.ms > MAX_EVENT_DAYS * DAY_MS) throw new Unreadable(`it lasts more than ${MAX_EVENT_DAYS} days`);
  const rrules = propsOf(c, 'rrule');
  if (rrules.length > 1) throw new Unreadable('it has more than one RRULE');
  const kind = textOf(c, KIND_PROPERTY);
  const url = textOf(c, 'url') ?? null;
  const fields: ReadFields = {
    title: (textOf(c, 'summary') ?? '').trim() || '(no title)',
    description: textOf(c, 'description'),
    location: textOf(c, 'location'),
    meetingUrl: url && /^https?:\/\//i.test(url) ? url : null,
    kind: kind && (EVENT_KINDS as readonly string[]).includes(kind) ? (kind as ReadFields['kind']) : 'meeting',
    startsAt: new Date(start.ms).toISOString(),
    endsAt: new Date(end).toISOString(),
    // A `Z` series repeats on UTC's clock; floating and all-day times are the owner's.
    timeZone: start.zone === 'UTC' ? (rrules.length ? 'UTC' : defaultZone) : start.zone ?? defaultZone,
    allDay: start.date,
    busy: (textOf(c, 'transp') ?? 'OPAQUE').toUpperCase() !== 'TRANSPARENT',
    recurrenceRule: rrules.length ? new ICAL.Property(rrules[0]).getFirstValue()!.toString() : null,
    resources: [...new Set(propsOf(c, 'resources').flatMap((p) => p.slice(3).map(String)))],
    attendees: attendeesOf(c),
    reminders: remindersOf(c, start.ms, end, zones, defaultZone),
  };
  const check = CreateEventBody.safeParse({
    ...fields, resources: fields.resources, attendees: fields.attendees.map((a) => ({ email: a.email, ...(a.name ? { name: a.name } : {}) })),
  });
  if (!check.success) {
    const issue = check.error.issues[0];
    throw new Unreadable(`its ${issue.path.join('.') || 'fields'} ${issue.message.toLowerCase()}`);
  }
  if (fields.recurrenceRule) {
    const problem = checkRule(fields);
    if (problem) throw new Unreadable(`its RRULE is refused: ${problem}`);
  }
  return { fields, start, cancelled: (textOf(c, 'status') ?? '').toUpperCase() === 'CANCELLED' };
}

const iso = (ms: number) => new Date(ms).toISOString();
const durationOf = (f: Pick<ReadFields, 'startsAt' | 'endsAt'>) => Date.parse(f.endsAt) - Date.parse(f.startsAt);

/** Every instant of the master's EXDATE or RDATE properties (RDATE PERIODs with their ends). */
function datesOf(c: JComp, name: string, zones: Zones, zone: string): Array<{ ms: number; end: number | null }> {
  const out: Array<{ ms: number; end: number | null }> = [];
  for (const p of propsOf(c, name)) {
    for (let i = 3; i < p.length; i++) {
      const v = p[i];
      if (Array.isArray(v)) {
        const start = timeOf(v[0], p[1].tzid, zones, zone, name.toUpperCase()).ms;
        const end = /^[+-]?P/.test(String(v[1])) ? start + secondsOf(v[1]) * 1000 : timeOf(v[1], p[1].tzid, zones, zone, name.toUpperCase()).ms;
        out.push({ ms: start, end });
      } else {
        out.push({ ms: timeProp(p, zones, zone, name.toUpperCase(), i).ms, end: null });
      }
    }
    if (out.length > ICAL_LIMITS.maxRdates) throw new Unreadable(`it has more than ${ICAL_LIMITS.maxRdates} ${name.toUpperCase()} dates`);
  }
  return out;
}

/** What an override changes of the occurrence the master gives at `original`; null when nothing. */
function exceptionOf(master: ReadFields, original: number, o: Read): OccurrenceException | null {
  if (o.cancelled) return { occurrenceStartsAt: iso(original), cancelled: true };
  const own: Record<string, unknown> = {};
  for (const f of OCCURRENCE_FIELDS) {
    if (f !== 'startsAt' && f !== 'endsAt' && JSON.stringify(o.fields[f]) !== JSON.stringify(master[f])) own[f] = o.fields[f];
  }
  if (Date.parse(o.fields.startsAt) !== original || durationOf(o.fields) !== durationOf(master)) {
    Object.assign(own, { startsAt: o.fields.startsAt, endsAt: o.fields.endsAt });
  }
  return Object.keys(own).length ? { occurrenceStartsAt: iso(original), ...own } : null;
}

/** One UID: its master and overrides as our events, the overrides that match nothing reported. */
function readObject(uid: string, masters: JComp[], overrides: JComp[], zones: Zones, zone: string, skipped: Skipped[]): ReadEvent[] {
  if (masters.length === 0) throw new Unreadable('it has only overrides (RECURRENCE-ID) and no VEVENT of the series');
  if (masters.length > 1) throw new Unreadable('two VEVENTs have this UID and no RECURRENCE-ID');
  // A calendar component inside a VEVENT is recursion, refused; others (RFC 9073's VLOCATION, PARTICIPANT) are ignored.
  const nested = masters[0][2].find((c) => CALENDAR_COMPONENTS.has(c[0]));
  if (nested) throw new Unreadable(`it holds a ${nested[0].toUpperCase()} inside its VEVENT`);
  const master = readVevent(masters[0], zones, zone);
  const f = master.fields;
  const excluded = new Set(datesOf(masters[0], 'exdate', zones, zone).map((d) => d.ms));
  const first = Date.parse(f.startsAt);
  const produced = f.recurrenceRule ? producedStarts(f, [...excluded]) : new Set<number>();
  const exceptions = new Map<number, OccurrenceException>();
  for (const ms of produced) exceptions.set(ms, { occurrenceStartsAt: iso(ms), cancelled: true });
  const rdates = new Map<number, ReadEvent>();
  for (const d of datesOf(masters[0], 'rdate', zones, zone)) {
    if (excluded.has(d.ms) || d.ms === first || (f.recurrenceRule && producedStarts(f, [d.ms]).has(d.ms))) continue;
    const end = d.end ?? d.ms + durationOf(f);
    if (end <= d.ms) continue;
    rdates.set(d.ms, {
      uid, recurrenceId: iso(d.ms), exceptions: [], cancelled: master.cancelled,
      fields: { ...f, startsAt: iso(d.ms), endsAt: iso(end), recurrenceRule: null },
    });
  }
  for (const c of overrides) {
    const rid = firstOf(c, 'recurrence-id')!;
    let original: number;
    let o: Read;
    try {
      original = timeProp(rid, zones, zone, 'RECURRENCE-ID').ms;
      o = readVevent(c, zones, zone);
    } catch (err) {
      if (!(err instanceof Unreadable)) throw err;
      skipped.push({ uid, reason: `an override (RECURRENCE-ID) was not read: ${err.message}` });
      continue;
    }
    const rdate = rdates.get(original);
    if (rdate) {
      rdates.set(original, { ...rdate, fields: { ...o.fields, recurrenceRule: null }, cancelled: o.cancelled });
    } else if (f.recurrenceRule && !excluded.has(original) && producedStarts(f, [original]).has(original)) {
      const x = exceptionOf(f, original, o);
      if (x) exceptions.set(original, x);
    } else {
      skipped.push({ uid, reason: `the override for ${iso(original)} (RECURRENCE-ID) is no occurrence of the series` });
    }
  }
  const list = [...exceptions.values()].sort((a, b) => a.occurrenceStartsAt.localeCompare(b.occurrenceStartsAt));
  if (list.length > MAX_EXCEPTIONS || JSON.stringify(list).length > MAX_EXCEPTIONS_BYTES) {
    throw new Unreadable(`it has more than ${MAX_EXCEPTIONS} cancelled or changed occurrences`);
  }
  const dated = [...rdates.values()].sort((a, b) => a.fields.startsAt.localeCompare(b.fields.startsAt));
  return [{ uid, recurrenceId: null, fields: f, exceptions: list, cancelled: master.cancelled }, ...dated];
}

/** Reads a whole iCalendar text; 400 `invalid_request` when it is none or breaks the bounds. */
export function readCalendar(text: string, options: ReadOptions): ReadResult {
  precheck(text);
  let parsed: unknown;
  try {
    parsed = ICAL.parse(text);
  } catch (err) {
    throw refuse(`Not valid iCalendar: ${(err as Error).message.slice(0, 300)}`);
  }
  const roots = (Array.isArray((parsed as unknown[])[0]) ? parsed : [parsed]) as JComp[];
  if (roots.some((r) => r[0] !== 'vcalendar')) throw refuse('Not iCalendar: every top-level component must be a VCALENDAR');
  const components = roots.flatMap((r) => r[2]);
  const zones = zonesOf(components.filter((c) => c[0] === 'vtimezone'));
  // Floating times and dates are the calendar's: X-WR-TIMEZONE (Google's and Apple's exports), else the owner's.
  const calendarZone = textOf(roots[0], 'x-wr-timezone');
  const zone = (calendarZone && ianaZoneOf(calendarZone)) || options.defaultZone;
  const skipped: Skipped[] = [];
  const byUid = new Map<string, { masters: JComp[]; overrides: JComp[] }>();
  for (const c of components) {
    if (c[0] === 'vtimezone') continue;
    const uid = textOf(c, 'uid')?.trim() || null;
    if (c[0] !== 'vevent') {
      skipped.push({ uid, reason: `${c[0].toUpperCase()} components are not imported (only VEVENT)` });
      continue;
    }
    if (!uid) {
      skipped.push({ uid: null, reason: 'a VEVENT without UID' });
      continue;
    }
    if (uid.length > 500) {
      skipped.push({ uid: uid.slice(0, 500), reason: 'its UID is longer than 500 characters' });
      continue;
    }
    const group = byUid.get(uid) ?? { masters: [], overrides: [] };
    (firstOf(c, 'recurrence-id') ? group.overrides : group.masters).push(c);
    byUid.set(uid, group);
  }
  const objects: ReadResult['objects'] = [];
  let events = 0;
  let series = 0;
  for (const [uid, group] of byUid) {
    try {
      if (group.masters.some((c) => firstOf(c, 'rrule')) && ++series > ICAL_LIMITS.maxSeries) {
        throw new Unreadable(`the text has more than ${ICAL_LIMITS.maxSeries} recurring series`);
      }
      const read = readObject(uid, group.masters, group.overrides, zones, zone, skipped);
      if (events + read.length > ICAL_LIMITS.maxComponents) throw new Unreadable(`the text makes more than ${ICAL_LIMITS.maxComponents} events`);
      events += read.length;
      objects.push({ uid, events: read });
    } catch (err) {
      if (!(err instanceof Unreadable)) throw err;
      skipped.push({ uid, reason: err.message });
    }
  }
  return { method: textOf(roots[0], 'method'), objects, skipped };
}
