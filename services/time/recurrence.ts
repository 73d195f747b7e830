/**
 * Recurring events: occurrences in a window, where a series ends, and whether a rule may be stored. A rule is
 * evaluated on the wall clock of the event's IANA zone (a 09:00 meeting stays at 09:00 across DST changes; a wall time
 * the spring change skips is no occurrence, RFC 5545 3.3.10), from the structure `parseRule` made. Work is
 * proportional to the days a window spans: an open series jumps straight to the window, a COUNT series never runs
 * past the horizon, and no rule produces more than RECURRENCE_LIMITS.maxStartsPerDay starts a day.
 */
import { countEndBound } from './series-end';
import { HORIZON_MS, type Recurring, seriesOf, startsOf, YEARS } from './series';

export { HORIZON_MS, type Recurring } from './series';

export interface Interval {
  start: number;
  end: number;
}

/** Upper bound for series without COUNT/UNTIL, as epoch ms (the largest valid Date). */
export const OPEN_END = 8.64e15;

/**
 * Starts of the occurrences (or of the single event) overlapping [from, to), ascending. A stored rule that today's
 * limits refuse is shown as its first occurrence only.
 */
export function* occurrenceStarts(ev: Recurring, from: number, to: number): Generator<number> {
  const start = Date.parse(ev.startsAt);
  const duration = Date.parse(ev.endsAt) - start;
  const c = seriesOf(ev);
  if (c && 'series' in c) return yield* startsOf(c.series, from - duration + 1, to);
  if (start < to && start + duration > from) yield start;
}

/** Occurrences (or the single event) overlapping [from, to), sorted by start. */
export function occurrences(ev: Recurring, from: number, to: number): Interval[] {
  const duration = Date.parse(ev.endsAt) - Date.parse(ev.startsAt);
  return [...occurrenceStarts(ev, from, to)].map((start) => ({ start, end: start + duration }));
}

/** Why the event's rule may not be stored, or null when it may (or there is none). Bounded: see the file comment. */
export function checkRule(ev: Recurring): string | null {
  const c = seriesOf(ev);
  if (!c) return null;
  if ('problem' in c) return c.problem;
  const s = c.series;
  const starts = startsOf(s, s.startMs, s.startMs + HORIZON_MS + 1);
  if (starts.next().done) return `produces no occurrence within ${YEARS} years of startsAt`;
  if (s.rule.count === null) return null;
  let n = 1;
  while (!starts.next().done) n++;
  return n < s.rule.count ? `COUNT=${s.rule.count} is not reached within ${YEARS} years of startsAt (${n} occurrences)` : null;
}

/** End of the last occurrence, or an upper bound of it; OPEN_END for an endless series. Never enumerates. */
export function seriesEnd(ev: Recurring): number {
  const start = Date.parse(ev.startsAt);
  const duration = Date.parse(ev.endsAt) - start;
  const c = seriesOf(ev);
  if (!c || 'problem' in c) return start + duration;
  const s = c.series;
  if (s.rule.count !== null) return countEndBound(s, s.rule.count) + duration;
  return s.lastMs === Number.POSITIVE_INFINITY ? OPEN_END : s.lastMs + duration;
}
