import { ApiError } from '../errors';
import { asOccurrence, occurrences, type Instance } from '../time/recurrence';
import { seriesOf } from '../time/series';
import { wallClock } from '../time/zone';
import { overlaps } from './intervals';
import { addDays, DAY_MS, epochAt, localDate } from '../time/local-time';
import type { Blocked, CalendarEvent, CalendarEvents, Interval, Occurrence, RoutineBlock } from './types';

/** Room a request may take: stored events read, and occurrences (event occurrences plus routine periods) used. */
export interface Budget {
  maxEvents: number;
  maxOccurrences: number;
}

export const DEFAULT_BUDGET: Budget = { maxEvents: 10_000, maxOccurrences: 50_000 };

export const overBudget = (what: 'events' | 'occurrences', limit: number) =>
  new ApiError(422, 'expansion_limit_exceeded', `More than ${limit} ${what} in the range: ask for fewer days`, { what, limit });

/**
 * An all-day occurrence names dates (read in the event's own zone, the end exclusive when it falls on midnight);
 * it covers those whole dates in the owner's zone, as a holiday is all of the 25th wherever one lives.
 */
function ownerDays(start: number, end: number, eventZone: string, ownerZone: string): Interval {
  const first = localDate(start, eventZone);
  const endWall = wallClock(end, eventZone).local;
  let after = endWall.endsWith('T00:00:00') ? endWall.slice(0, 10) : addDays(endWall.slice(0, 10), 1);
  if (after <= first) after = addDays(first, 1);
  return { start: epochAt(first, 0, ownerZone), end: epochAt(after, 0, ownerZone) };
}

/**
 * Expansions of a series, kept with the event object for the last few windows asked: the embedded read store hands
 * out the same frozen document until the event changes, so repeated requests for the same days expand nothing.
 */
const expansions = new WeakMap<CalendarEvent, Map<string, Instance[]>>();
const WINDOWS_KEPT = 8;

function occurrencesOf(event: CalendarEvent, from: number, to: number): Instance[] {
  if (!event.recurrenceRule) return occurrences(event, from, to);
  let byWindow = expansions.get(event);
  if (!byWindow) expansions.set(event, (byWindow = new Map()));
  const key = `${from} ${to}`;
  let found = byWindow.get(key);
  if (!found) {
    if (byWindow.size >= WINDOWS_KEPT) byWindow.delete(byWindow.keys().next().value as string);
    byWindow.set(key, (found = occurrences(event, from, to)));
  }
  return found;
}

/**
 * Every occurrence of the events that overlaps `window`: placed single events as they are, recurring series expanded
 * on their own zone's wall clock, and all-day events mapped to whole days of `ownerZone`; sorted by start. Events
 * with `busy: false` are kept (a day view lists them); `busyBlocks` leaves them out.
 */
export function expandEvents(input: CalendarEvents, window: Interval, ownerZone: string, budget = DEFAULT_BUDGET): Occurrence[] {
  const { placed, events } = input;
  if (placed.length + events.length > budget.maxEvents) throw overBudget('events', budget.maxEvents);
  const out: Occurrence[] = [];
  for (const event of placed) {
    const span = event.allDay ? ownerDays(event.start, event.end, event.timeZone, ownerZone) : event;
    if (overlaps(span, window)) out.push({ start: span.start, end: span.end, event });
  }
  for (const event of events) {
    // An all-day date may sit up to a day and a bit away from the owner's date it stands for.
    const from = event.allDay ? window.start - 2 * DAY_MS : window.start;
    const to = event.allDay ? window.end + 2 * DAY_MS : window.end;
    for (const o of occurrencesOf(event, from, to)) {
      const span = event.allDay ? ownerDays(o.start, o.end, event.timeZone, ownerZone) : o;
      if (overlaps(span, window)) out.push({ start: span.start, end: span.end, event: asOccurrence(event, o) });
    }
    if (out.length > budget.maxOccurrences) throw overBudget('occurrences', budget.maxOccurrences);
  }
  if (out.length > budget.maxOccurrences) throw overBudget('occurrences', budget.maxOccurrences);
  return out.sort((a, b) => a.start - b.start || a.end - b.end);
}

/**
 * About how many occurrences `events` have in `window`, from their rules alone (start times a day, times the days):
 * an upper bound for most rules, worked out without expanding anything.
 */
export function expansionEstimate(events: readonly CalendarEvent[], window: Interval): number {
  const days = Math.ceil((window.end - window.start) / DAY_MS);
  let total = 0;
  for (const event of events) {
    const compiled = seriesOf(event);
    if (!compiled || 'problem' in compiled) total += 1;
    else {
      const { rule, times } = compiled.series;
      const hours = rule.freq === 'HOURLY' ? Math.min(rule.byHour?.length ?? 24, Math.ceil(24 / rule.interval)) : 1;
      total += days * hours * times.length;
    }
  }
  return total;
}

/**
 * Time that cannot be given away: busy events (kind `focus` counts as protected focus time, every other kind as
 * `event`) and routine periods that cannot move, unless skipped that day.
 */
export function busyBlocks(occurrences: readonly Occurrence[], routines: readonly RoutineBlock[]): Blocked[] {
  const out: Blocked[] = [];
  for (const o of occurrences) {
    if (!o.event.busy) continue;
    const type = o.event.kind === 'focus' ? 'focus' : 'event';
    out.push({ start: o.start, end: o.end, reason: { type, eventId: o.event.id } });
  }
  for (const r of routines) {
    if (r.canMove || r.status === 'skipped' || r.end <= r.start) continue;
    out.push({ start: r.start, end: r.end, reason: { type: 'routine', routineId: r.routineId, periodId: r.periodId } });
  }
  return out;
}
