/**
 * Our events as iCalendar (RFC 5545), built as jCal (RFC 7265) and written by ical.js, which escapes TEXT, quotes
 * parameters and folds lines at 75 octets. A series is one master VEVENT (RRULE, EXDATE for its cancelled occurrences,
 * RDATE for the events its RDATEs made) and one override VEVENT per changed occurrence (RECURRENCE-ID = its original
 * start). Times are written on the event's own zone (TZID and that zone's VTIMEZONE; `Z` for UTC; DATE for all-day).
 */
import ICAL from 'ical.js';
import type { Event, OccurrenceException } from '../../contracts/events';
import { localDate } from '../time/local-time';
import { producedStarts } from '../time/recurrence';
import { wallClock } from '../time/zone';
import { uidOf } from './uid';
import { isUtcZone, vtimezoneOf } from './zones';

type Params = Record<string, string>;
type JProp = [string, Params, string, ...unknown[]];
export type JCal = [string, JProp[], JCal[]];

/** What the writer reads of an event (the guest mail builds one for a booking, `tentative` while the host has to confirm it). */
export type WritableEvent = Pick<
  Event,
  | 'id' | 'title' | 'description' | 'location' | 'meetingUrl' | 'kind' | 'startsAt' | 'endsAt' | 'timeZone' | 'allDay' | 'busy'
  | 'recurrenceRule' | 'resources' | 'attendees' | 'reminders' | 'exceptions' | 'createdAt' | 'updatedAt' | 'version'
  | 'icalUid' | 'icalRecurrenceId'
> & { status: Event['status'] | 'tentative' };

export interface WriteOptions {
  /** ORGANIZER of events with attendees, and whom email alarms mail. */
  organizer?: { name: string | null; email: string } | null;
  /** DTSTAMP; by default each event's updatedAt (the time of its last revision, RFC 5545 3.8.7.2). */
  stamp?: string;
}

/** Our kinds travel in this property; other clients ignore it. */
export const KIND_PROPERTY = 'x-calendar-kind';
/** `push` reminders are DISPLAY alarms marked with this property. */
export const ALARM_METHOD_PROPERTY = 'x-calendar-method';

const utcText = (ms: number) => `${new Date(ms).toISOString().slice(0, 19)}Z`;

/** A time as the event's DTSTART is written: DATE (all-day), UTC, or the wall clock of its zone with TZID. */
function timeProp(name: string, ms: number, e: Pick<WritableEvent, 'allDay' | 'timeZone'>): JProp {
  if (e.allDay) return [name, {}, 'date', localDate(ms, e.timeZone)];
  if (isUtcZone(e.timeZone)) return [name, {}, 'date-time', utcText(ms)];
  return [name, { tzid: e.timeZone }, 'date-time', wallClock(ms, e.timeZone).local];
}

/** One property carrying several times (EXDATE, RDATE), in the event's DTSTART form. */
function timesProp(name: string, list: number[], e: Pick<WritableEvent, 'allDay' | 'timeZone'>): JProp {
  const first = timeProp(name, list[0], e);
  return [name, first[1], first[2], ...list.map((ms) => timeProp(name, ms, e)[3])];
}

const text = (name: string, value: string): JProp => [name, {}, 'text', value];
const optionalText = (name: string, value: string | null | undefined): JProp[] => (value ? [text(name, value)] : []);
const minutes = (m: number) => ICAL.Duration.fromSeconds(m * 60).toString();

const PARTSTAT = { needs_action: 'NEEDS-ACTION', yes: 'ACCEPTED', no: 'DECLINED', maybe: 'TENTATIVE' } as const;

function attendeeProp(a: Event['attendees'][number]): JProp {
  const params: Params = { role: 'REQ-PARTICIPANT', partstat: PARTSTAT[a.response], rsvp: a.response === 'needs_action' ? 'TRUE' : 'FALSE' };
  if (a.name) params.cn = a.name;
  return ['attendee', params, 'cal-address', `mailto:${a.email}`];
}

function alarm(r: Event['reminders'][number], title: string, options: WriteOptions): JCal {
  const trigger: JProp = ['trigger', {}, 'duration', minutes(-r.minutesBefore)];
  if (r.method === 'email') {
    const to: JProp[] = options.organizer ? [['attendee', {}, 'cal-address', `mailto:${options.organizer.email}`]] : [];
    return ['valarm', [text('action', 'EMAIL'), trigger, text('summary', title), text('description', title), ...to], []];
  }
  const marked: JProp[] = r.method === 'push' ? [text(ALARM_METHOD_PROPERTY, 'push')] : [];
  return ['valarm', [text('action', 'DISPLAY'), trigger, text('description', title), ...marked], []];
}

type Fields = Pick<WritableEvent, 'title' | 'description' | 'location' | 'meetingUrl' | 'kind' | 'busy' | 'attendees' | 'reminders'>;

/** The properties of one VEVENT that describe it (everything but identity and recurrence). */
function describe(f: Fields, start: number, end: number, e: WritableEvent, options: WriteOptions): { props: JProp[]; alarms: JCal[] } {
  const props: JProp[] = [
    timeProp('dtstart', start, e),
    timeProp('dtend', end, e),
    text('summary', f.title),
    ...optionalText('description', f.description),
    ...optionalText('location', f.location),
    ...(f.meetingUrl ? [['url', {}, 'uri', f.meetingUrl] as JProp] : []),
    text('transp', f.busy ? 'OPAQUE' : 'TRANSPARENT'),
    text(KIND_PROPERTY, f.kind),
  ];
  if (e.resources.length) props.push(['resources', {}, 'text', ...e.resources]);
  if (f.attendees.length && options.organizer) {
    const { name, email } = options.organizer;
    props.push(['organizer', name ? { cn: name } : {}, 'cal-address', `mailto:${email}`]);
  }
  props.push(...f.attendees.map(attendeeProp));
  return { props, alarms: f.reminders.map((r) => alarm(r, f.title, options)) };
}

function identity(e: WritableEvent, options: WriteOptions): JProp[] {
  const at = (iso: string) => utcText(Date.parse(iso));
  return [
    text('uid', uidOf(e)),
    ['dtstamp', {}, 'date-time', at(options.stamp ?? e.updatedAt)],
    ['created', {}, 'date-time', at(e.createdAt)],
    ['last-modified', {}, 'date-time', at(e.updatedAt)],
    ['sequence', {}, 'integer', Math.max(0, e.version - 1)],
    text('status', e.status === 'cancelled' ? 'CANCELLED' : e.status === 'tentative' ? 'TENTATIVE' : 'CONFIRMED'),
  ];
}

const durationOf = (e: Pick<Event, 'startsAt' | 'endsAt'>) => Date.parse(e.endsAt) - Date.parse(e.startsAt);
const stripPrefix = (rule: string) => rule.replace(/^RRULE:/i, '');

/** A rule as written and read back (ical.js orders its parts): two spellings of one rule compare equal this way. */
export const normalRule = (rule: string): string => ICAL.Recur.fromString(stripPrefix(rule)).toString();

/** The override VEVENT of a changed occurrence: complete, as RFC 5545 overrides are. */
function override(series: WritableEvent, x: OccurrenceException, options: WriteOptions): JCal {
  const original = Date.parse(x.occurrenceStartsAt);
  const start = x.startsAt ? Date.parse(x.startsAt) : original;
  const end = x.endsAt ? Date.parse(x.endsAt) : start + durationOf(series);
  const { props, alarms } = describe({ ...series, ...x }, start, end, series, options);
  return ['vevent', [...identity(series, options), timeProp('recurrence-id', original, series), ...props], alarms];
}

const sameFields = (a: Fields, b: Fields) =>
  (['title', 'description', 'location', 'meetingUrl', 'kind', 'busy', 'attendees', 'reminders'] as const)
    .every((k) => JSON.stringify(a[k]) === JSON.stringify(b[k]));

/**
 * The VEVENTs of one UID: the master (`series`, null when only RDATE-made events are left) with its overrides, and
 * the events its RDATEs made (`rdates`, each with `icalRecurrenceId`): listed as RDATE, and as an override where one
 * differs from what the master's RDATE gives.
 */
export function veventsOf(series: WritableEvent | null, rdates: readonly WritableEvent[], options: WriteOptions = {}): JCal[] {
  const out: JCal[] = [];
  const dated = rdates.filter((r) => r.icalRecurrenceId !== null);
  if (series) {
    const start = Date.parse(series.startsAt);
    const { props, alarms } = describe(series, start, start + durationOf(series), series, options);
    const recurrence: JProp[] = [];
    if (series.recurrenceRule) {
      recurrence.push(['rrule', {}, 'recur', ICAL.Recur.fromString(stripPrefix(series.recurrenceRule)).toJSON()]);
      const cancelled = series.exceptions.filter((x) => x.cancelled).map((x) => Date.parse(x.occurrenceStartsAt));
      // A start its rule does not produce is no occurrence here; RFC 5545 leaves such a DTSTART undefined and most
      // clients list it, so it is excluded in so many words.
      if (!producedStarts(series, [start]).has(start)) cancelled.unshift(start);
      if (cancelled.length) recurrence.push(timesProp('exdate', cancelled, series));
    }
    if (dated.length) recurrence.push(timesProp('rdate', dated.map((r) => Date.parse(r.icalRecurrenceId!)), series));
    out.push(['vevent', [...identity(series, options), ...props, ...recurrence], alarms]);
    if (series.recurrenceRule) for (const x of series.exceptions) if (!x.cancelled) out.push(override(series, x, options));
  }
  for (const r of dated) {
    const given = Date.parse(r.icalRecurrenceId!);
    const asListed = series && Date.parse(r.startsAt) === given && durationOf(r) === durationOf(series) && sameFields(r, series);
    if (asListed) continue;
    const { props, alarms } = describe(r, Date.parse(r.startsAt), Date.parse(r.endsAt), r, options);
    out.push(['vevent', [...identity(r, options), timeProp('recurrence-id', given, series ?? r), ...props], alarms]);
  }
  return out;
}

/** Events grouped as calendar objects (one per UID): the master and the events its RDATEs made. */
export function objectsOf<E extends WritableEvent>(events: readonly E[]): Array<{ uid: string; series: E | null; rdates: E[] }> {
  const byUid = new Map<string, { uid: string; series: E | null; rdates: E[] }>();
  for (const e of events) {
    const uid = uidOf(e);
    const object = byUid.get(uid) ?? { uid, series: null, rdates: [] };
    if (e.icalRecurrenceId === null) object.series = e;
    else object.rdates.push(e);
    byUid.set(uid, object);
  }
  return [...byUid.values()];
}

export interface CalendarOptions extends WriteOptions {
  /** METHOD (RFC 5546): REQUEST or CANCEL for invitations; none for feeds and CalDAV objects. */
  method?: 'REQUEST' | 'CANCEL';
  /** X-WR-CALNAME: the name subscribing apps show. */
  name?: string;
}

/** A component's text ending in exactly one CRLF (ical.js ends it with one already): no blank line between components. */
const textOf = (component: JCal): string => {
  const text = ICAL.stringify(component);
  return text.endsWith('\r\n') ? text : `${text}\r\n`;
};

/** ical.js folds after 75 octets of content plus the leading space; one fewer keeps every line within 75 octets. */
ICAL.foldLength = 74;

const zonesOf = (events: readonly WritableEvent[]) =>
  [...new Set(events.filter((e) => !e.allDay).map((e) => e.timeZone))].sort().map(vtimezoneOf).filter((z): z is JCal => z !== null);

function calendarHead(zones: JCal[], options: CalendarOptions): JCal {
  const props: JProp[] = [text('version', '2.0'), text('prodid', '-//Calendar Service//Calendar Service//EN'), text('calscale', 'GREGORIAN')];
  if (options.method) props.push(text('method', options.method));
  if (options.name) props.push(text('x-wr-calname', options.name));
  return ['vcalendar', props, zones];
}

/** One VCALENDAR holding the events (grouped by UID) and a VTIMEZONE for each zone they use. */
export function writeCalendar(events: readonly WritableEvent[], options: CalendarOptions = {}): string {
  const components = objectsOf(events).flatMap((o) => veventsOf(o.series, o.rdates, options));
  const calendar = calendarHead(zonesOf(events), options);
  calendar[2].push(...components);
  return textOf(calendar);
}

/** Text already written for a calendar object, by a key that changes whenever its text would. */
export type ObjectTexts = (key: string, write: () => string) => string;

const objectKey = (o: { series: WritableEvent | null; rdates: WritableEvent[] }, options: WriteOptions) =>
  [o.series, ...o.rdates].map((e) => (e ? `${e.id}:${e.version}` : '-')).join(' ') +
  `|${options.organizer?.email ?? ''}|${options.organizer?.name ?? ''}|${options.stamp ?? ''}`;

/**
 * The same text in pieces, for a large calendar (the feed): the head with the VTIMEZONEs, one piece per calendar
 * object, then the end; only one object's jCal exists at a time. `texts` may keep each object's text (by its events'
 * ids and versions) so that a feed written again after one change writes one object.
 */
export function* calendarPieces(events: readonly WritableEvent[], options: CalendarOptions = {}, texts?: ObjectTexts): Generator<string> {
  const head = ICAL.stringify(calendarHead(zonesOf(events), options));
  const end = head.lastIndexOf('END:VCALENDAR');
  yield head.slice(0, end);
  for (const o of objectsOf(events)) {
    const write = () => veventsOf(o.series, o.rdates, options).map(textOf).join('');
    yield texts ? texts(objectKey(o, options), write) : write();
  }
  yield 'END:VCALENDAR\r\n';
}
