/**
 * One occurrence of a series in the Space schedule: changed or cancelled on its own, or the series split there ("this
 * and following"). An occurrence is (series id, original start), never an index: the series keeps its exceptions by
 * original start, and a start its rule does not produce is no occurrence (404). Exceptions live with the series, so
 * the conflicts they make or free are decided with every other event of the Space.
 */
import type { OccurrenceChange } from '../../contracts/domain-events';
import {
  MAX_EXCEPTIONS, MAX_EXCEPTIONS_BYTES, OCCURRENCE_FIELDS, type Event, type EventFields, type EventOccurrence, type OccurrenceException,
  type OccurrenceFields,
} from '../../contracts/events';
import { conflict, invalid, notFound } from '../../services/errors';
import { producedStarts, type Instance } from '../../services/time/recurrence';
import { splitRule } from '../../services/time/split';
import { occurrenceView } from './occurrence-view';
import { checkFields, validate, type ScheduleView } from './validation';

interface Addressed {
  actorId: string;
  eventId: string;
  /** The original start, as GET /events reports it. */
  occurrenceStartsAt: string;
  expectedVersions?: number[];
  now: string;
}

export type OccurrenceCommand =
  | ({ type: 'ChangeOccurrence'; changes: Partial<OccurrenceFields> } & Addressed)
  | ({ type: 'CancelOccurrence' } & Addressed)
  | ({ type: 'SplitSeries'; newEventId: string; changes: Partial<EventFields> } & Addressed);

export type OccurrenceEvent =
  | { type: 'event.occurrence.changed'; data: OccurrenceChange }
  | { type: 'event.occurrence.cancelled'; data: OccurrenceChange }
  | { type: 'event.updated'; data: Event }
  | { type: 'event.created'; data: Event };

const iso = (ms: number) => new Date(ms).toISOString();
const originalOf = (x: OccurrenceException) => Date.parse(x.occurrenceStartsAt);
const durationOf = (e: Pick<Event, 'startsAt' | 'endsAt'>) => Date.parse(e.endsAt) - Date.parse(e.startsAt);
const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

const tooMany = () => conflict(
  'too_many_exceptions',
  `A series holds at most ${MAX_EXCEPTIONS} cancelled or changed occurrences (${MAX_EXCEPTIONS_BYTES / 1e6} MB of them)`,
  { limit: MAX_EXCEPTIONS, bytes: MAX_EXCEPTIONS_BYTES },
);

/** The occurrence at its original start: 404 when the rule gives none there, or when it is cancelled. */
function requireOccurrence(series: Event, original: number): Instance<OccurrenceException> {
  const change = series.exceptions.find((x) => originalOf(x) === original) ?? null;
  const produced = change !== null || producedStarts(series, [original]).has(original);
  if (!series.recurrenceRule || !produced || change?.cancelled) throw notFound('Occurrence');
  const start = change?.startsAt === undefined ? original : Date.parse(change.startsAt);
  const end = change?.endsAt === undefined ? start + durationOf(series) : Date.parse(change.endsAt);
  return { start, end, original, change };
}

/** The exceptions whose original start the event's rule still produces (none for a single event). */
export function keptExceptions(event: Event, exceptions: readonly OccurrenceException[]): OccurrenceException[] {
  if (!event.recurrenceRule || exceptions.length === 0) return [];
  const produced = producedStarts(event, exceptions.map(originalOf));
  return exceptions.filter((x) => produced.has(originalOf(x)));
}

const fieldsOf = (o: OccurrenceFields): OccurrenceFields =>
  Object.fromEntries(OCCURRENCE_FIELDS.map((f) => [f, o[f]])) as unknown as OccurrenceFields;

/** What the occurrence has of its own: the fields that differ from the series (a moved one: both times); null if none. */
function exceptionFor(series: Event, original: number, next: OccurrenceFields): OccurrenceException | null {
  const own: Record<string, unknown> = {};
  for (const field of OCCURRENCE_FIELDS) {
    if (field !== 'startsAt' && field !== 'endsAt' && !same(next[field], series[field])) own[field] = next[field];
  }
  if (Date.parse(next.startsAt) !== original || durationOf(next) !== durationOf(series)) {
    Object.assign(own, { startsAt: next.startsAt, endsAt: next.endsAt });
  }
  return Object.keys(own).length ? { occurrenceStartsAt: iso(original), ...own } : null;
}

/** The series with the occurrence's exception set (or removed), one version on; refused past the bounds. */
function withException(series: Event, original: number, exception: OccurrenceException | null, now: string): Event {
  const others = series.exceptions.filter((x) => originalOf(x) !== original);
  const exceptions = exception ? [...others, exception].sort((a, b) => originalOf(a) - originalOf(b)) : others;
  if (exceptions.length > series.exceptions.length && (exceptions.length > MAX_EXCEPTIONS || JSON.stringify(exceptions).length > MAX_EXCEPTIONS_BYTES)) {
    throw tooMany();
  }
  return { ...series, exceptions, updatedAt: now, version: series.version + 1 };
}

type OccurrenceType = 'event.occurrence.changed' | 'event.occurrence.cancelled';
const changed = (type: OccurrenceType, after: Event, original: number, occurrence: EventOccurrence) =>
  ({ type, data: { seriesId: after.id, occurrenceStartsAt: iso(original), occurrence, series: after } }) as OccurrenceEvent;

/** `series` is the addressed series, already found live and the caller's, its version checked. */
export function decideOccurrence(command: OccurrenceCommand, state: ScheduleView, series: Event): OccurrenceEvent[] {
  const original = Date.parse(command.occurrenceStartsAt);
  const current = occurrenceView(series, requireOccurrence(series, original));
  const now = command.now;
  switch (command.type) {
    case 'ChangeOccurrence': {
      const next = { ...current, ...command.changes };
      // The occurrence is checked as the single event it now is; its own series never conflicts with it.
      validate(state, { ...series, ...fieldsOf(next), recurrenceRule: null, exceptions: [] }, now);
      const after = withException(series, original, exceptionFor(series, original, next), now);
      return [changed('event.occurrence.changed', after, original, { ...next, updatedAt: now, version: after.version })];
    }
    case 'CancelOccurrence': {
      const after = withException(series, original, { occurrenceStartsAt: iso(original), cancelled: true }, now);
      const occurrence = { ...current, status: 'cancelled' as const, updatedAt: now, deletedAt: now, version: after.version };
      return [changed('event.occurrence.cancelled', after, original, occurrence)];
    }
    case 'SplitSeries':
      return split(command, state, series, original);
  }
}

function split(command: Extract<OccurrenceCommand, { type: 'SplitSeries' }>, state: ScheduleView, series: Event, at: number): OccurrenceEvent[] {
  if (at <= Date.parse(series.startsAt)) {
    throw invalid('occurrenceStartsAt is the first occurrence: change the whole series with PATCH /events/{id}', [
      { path: 'body.occurrenceStartsAt', message: 'is the first occurrence of the series' },
    ]);
  }
  if (state.events.has(command.newEventId)) throw conflict('duplicate_id', 'An event with this id exists');
  const now = command.now;
  const rules = splitRule({ ...series, recurrenceRule: series.recurrenceRule! }, at);
  const before: Event = {
    ...series, recurrenceRule: rules.before, exceptions: series.exceptions.filter((x) => originalOf(x) < at),
    updatedAt: now, version: series.version + 1,
  };
  checkFields(state, before);
  const draft: Event = {
    ...series, startsAt: iso(at), endsAt: iso(at + durationOf(series)), recurrenceRule: rules.after, ...command.changes,
    // The new series is made here: it has no iCalendar identity of its own (the old series keeps the UID).
    id: command.newEventId, icalUid: null, icalRecurrenceId: null, status: 'confirmed', createdBy: command.actorId, createdAt: now, updatedAt: now, deletedAt: null, version: 1,
  };
  const created = { ...draft, exceptions: keptExceptions(draft, series.exceptions.filter((x) => originalOf(x) >= at)) };
  validate(state, created, now, new Map([[series.id, before]]));
  return [{ type: 'event.updated', data: before }, { type: 'event.created', data: created }];
}

/** An attendee's answer, in the series and in every occurrence that lists them; exceptions left equal to it drop it. */
type Attendee = Event['attendees'][number];

export function answered(series: Event, matches: (a: Attendee) => boolean, answer: (a: Attendee) => Attendee) {
  const answerIn = (list: Attendee[]) => list.map((a) => (matches(a) ? answer(a) : a));
  const attendees = answerIn(series.attendees);
  const exceptions = series.exceptions.flatMap((x) => {
    if (!x.attendees) return [x];
    const { attendees: own, ...rest } = x;
    const mine = answerIn(own);
    if (!same(mine, attendees)) return [{ ...rest, attendees: mine }];
    return Object.keys(rest).length > 1 ? [rest] : [];
  });
  return { attendees, exceptions };
}

/** Whether the attendee is invited to the series or to one of its occurrences. */
export const invitedTo = (series: Event, matches: (a: Attendee) => boolean) =>
  series.attendees.some(matches) || series.exceptions.some((x) => x.attendees?.some(matches));
