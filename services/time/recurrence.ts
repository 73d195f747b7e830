/**
 * Recurring events: occurrences in a window, where a series ends, and whether a rule may be stored. A rule is
 * evaluated on the wall clock of the event's IANA zone (a 09:00 meeting stays at 09:00 across DST changes; a wall time
 * the spring change skips is no occurrence, RFC 5545 3.3.10), from the structure `parseRule` made. Work is
 * proportional to the days a window spans: an open series jumps straight to the window, a COUNT series never runs
 * past the horizon, and no rule produces more than RECURRENCE_LIMITS.maxStartsPerDay starts a day.
 */
import { type ExceptionLike, type Instance, instancesOf, movedSpan, type WithExceptions } from './exceptions';
import { countEndBound } from './series-end';
import { HORIZON_MS, type Recurring, seriesOf, startsOf, YEARS } from './series';

export { HORIZON_MS, type Recurring } from './series';
export { asOccurrence, type ExceptionLike, type Instance, instancesOf, producedStarts, type WithExceptions } from './exceptions';

export interface Interval {
  start: number;
  end: number;
}

/** Upper bound for series without COUNT/UNTIL, as epoch ms (the largest valid Date). */
export const OPEN_END = 8.64e15;

/**
 * Occurrences (or the single event) overlapping [from, to), its exceptions applied: cancelled ones left out, changed
 * ones at their real times; sorted by start. A stored rule that today's limits refuse is shown as its first
 * occurrence only.
 */
export function occurrences<X extends ExceptionLike>(ev: WithExceptions<X>, from: number, to: number): Instance<X>[] {
  return [...instancesOf(ev, from, to)];
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

/** End of the rule's last occurrence, or an upper bound of it; OPEN_END for an endless series. Never enumerates. */
export function seriesEnd(ev: Recurring): number {
  const start = Date.parse(ev.startsAt);
  const duration = Date.parse(ev.endsAt) - start;
  const c = seriesOf(ev);
  if (!c || 'problem' in c) return start + duration;
  const s = c.series;
  if (s.rule.count !== null) return countEndBound(s, s.rule.count) + duration;
  return s.lastMs === Number.POSITIVE_INFINITY ? OPEN_END : s.lastMs + duration;
}

/** Where a stored event's occurrences may lie, moved ones included: its earliest start and an upper bound of its end. */
export function spanOf(ev: WithExceptions): { startMs: number; endBoundMs: number } {
  const span = movedSpan(ev, Date.parse(ev.startsAt), seriesEnd(ev));
  return { startMs: span.start, endBoundMs: span.end };
}
