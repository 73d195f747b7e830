/**
 * Finding the events that overlap a time range through an index on (…, `_spanClass`, `_startMs`). An event overlaps
 * [from, to) when it starts before `to` and ends after `from`; an index on the start alone must read every earlier
 * event to find the few still running at `from`. Grouped by how long they last, the events of a class lasting at
 * most d can only overlap when they start in [from - d, to): a bounded range per class, whatever the history holds.
 * Recurring series are a class of their own (an endless series has no end to bound them by).
 */
import type { Filter } from '../services/readstore/read-store.port';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
/** The longest duration of each class of single events; the last class has no bound. */
const CLASS_LIMITS = [HOUR, DAY, 7 * DAY, 31 * DAY, 366 * DAY, Number.POSITIVE_INFINITY];
export const SERIES_CLASS = CLASS_LIMITS.length;

/** `_spanClass` of a stored event: its duration's class, or SERIES_CLASS for a recurring series. */
export function spanClass(startMs: number, endMs: number, recurring: boolean): number {
  if (recurring) return SERIES_CLASS;
  const duration = endMs - startMs;
  const found = CLASS_LIMITS.findIndex((limit) => duration <= limit);
  return found === -1 ? CLASS_LIMITS.length - 1 : found;
}

/**
 * One filter per class, each with `_spanClass`, a bounded `_startMs` range and `_endBoundMs > from`; the union of
 * their matches is every stored event overlapping [from, to). Single events only, series only, or both;
 * `singlesLongerThan` leaves out the classes of single events that cannot last longer than that (ms).
 */
export function overlapFilters(from: number, to: number, which: 'singles' | 'series' | 'all' = 'all', singlesLongerThan = 0): Filter[] {
  const filters: Filter[] = [];
  if (which !== 'series') {
    CLASS_LIMITS.forEach((limit, c) => {
      if (limit <= singlesLongerThan) return;
      const start = Number.isFinite(limit) ? { $gte: from - limit, $lt: to } : { $lt: to };
      filters.push({ _spanClass: c, _startMs: start, _endBoundMs: { $gt: from } });
    });
  }
  if (which !== 'singles') filters.push({ _spanClass: SERIES_CLASS, _startMs: { $lt: to }, _endBoundMs: { $gt: from } });
  return filters;
}
