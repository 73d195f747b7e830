/**
 * The availability engine: pure functions from stored events, routine periods and rules to exact instants.
 * `availabilityOf` does the usual composition; its parts (busy.ts, rules.ts, timeline.ts, ranking.ts, slots.ts)
 * are there for callers that need them one by one (booking slots per meeting type reuse one expansion of busy time).
 */
import { ApiError } from '../errors';
import { busyBlocks, DEFAULT_BUDGET, expandEvents, overBudget, type Budget } from './busy';
import { overlaps } from './intervals';
import { DAY_MS, MINUTE_MS } from '../time/local-time';
import { ruleBlocks } from './rules';
import type { Blocked, CalendarEvents, Interval, Occurrence, RoutineBlock, Rules } from './types';

/** The longest range the engine answers for (loops run per day of it). */
export const MAX_RANGE_DAYS = 400;

export interface AvailabilityInput {
  range: Interval;
  /** The owner's IANA zone: working hours, all-day events and days are read in it. */
  timeZone: string;
  events: CalendarEvents;
  routines: readonly RoutineBlock[];
  rules: Rules;
  budget?: Budget;
}

export interface Availability {
  /** Event occurrences overlapping the range (busy or not), sorted by start. */
  occurrences: Occurrence[];
  /** Routine periods overlapping the range (movable and skipped ones too), sorted by start. */
  routines: RoutineBlock[];
  /** Events, protected focus time and fixed routine periods. */
  busy: Blocked[];
  /** `busy` and what the rules add: buffers, notice, outside working hours. */
  blocked: Blocked[];
}

/** The span sources must read for `range`: buffers reach past its ends, all-day dates up to two days. */
export const inputWindow = (range: Interval, rules: Pick<Rules, 'bufferBeforeMinutes' | 'bufferAfterMinutes'>): Interval => ({
  start: range.start - rules.bufferAfterMinutes * MINUTE_MS - 2 * DAY_MS,
  end: range.end + rules.bufferBeforeMinutes * MINUTE_MS + 2 * DAY_MS,
});

export function availabilityOf(input: AvailabilityInput): Availability {
  const { range, timeZone, rules } = input;
  if (!(range.end > range.start) || range.end - range.start > MAX_RANGE_DAYS * DAY_MS) {
    throw new ApiError(400, 'invalid_request', `A range must be positive and span at most ${MAX_RANGE_DAYS} days`, {
      issues: [{ path: 'range', message: `at most ${MAX_RANGE_DAYS} days` }],
    });
  }
  // Busy time just outside the range still casts its buffers into it.
  const reach = { start: range.start - rules.bufferAfterMinutes * MINUTE_MS, end: range.end + rules.bufferBeforeMinutes * MINUTE_MS };
  const budget = input.budget ?? DEFAULT_BUDGET;
  const expanded = expandEvents(input.events, reach, timeZone, budget);
  if (expanded.length + input.routines.length > budget.maxOccurrences) throw overBudget('occurrences', budget.maxOccurrences);
  const busy = busyBlocks(expanded, input.routines);
  return {
    occurrences: expanded.filter((o) => overlaps(o, range)),
    routines: input.routines.filter((r) => overlaps(r, range)).sort((a, b) => a.start - b.start),
    busy,
    blocked: [...busy, ...ruleBlocks(range, busy, rules, timeZone)],
  };
}
