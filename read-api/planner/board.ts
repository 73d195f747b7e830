/**
 * What a plan places blocks on: the time the availability engine blocks, the blocks placed so far, and the hours
 * each item may use. Pure: no I/O, no clock, no process time zone.
 */
import { PLANNER_RULES } from '../../contracts/planner';
import { complement, mergeIntervals } from '../../services/availability/intervals';
import { MINUTE_MS } from '../../services/time/local-time';
import { alignUp } from '../../services/availability/slots';
import type { Interval, WeeklyHours } from '../../services/availability/types';
import { localHoursIn } from '../../services/availability/weekly-hours';
import { wallClock } from '../../services/time/zone';

export interface Board {
  range: Interval;
  now: number;
  /** The person's zone: hours, days and block starts are read on its clock. */
  timeZone: string;
  /** Busy time, routine periods that are kept, and before now. */
  blocked: readonly Interval[];
  /** Blocks this plan placed so far. */
  placed: Interval[];
}

export interface Reason {
  code: string;
  message: string;
}

export interface Block extends Interval {
  kind: 'task' | 'focus';
  taskId: string | null;
  goalId: string | null;
  title: string;
  reason: Reason;
}

export interface Unplaced {
  kind: 'task' | 'goal';
  id: string;
  title: string;
  minutes: number;
  weekStart: string | null;
  reason: Reason;
}

export const minutesOf = (i: Interval) => Math.floor((i.end - i.start) / MINUTE_MS);

/** An instant as the person reads it, for messages: `2026-12-02 17:00 Europe/Berlin`. */
export const localText = (epochMs: number, timeZone: string) =>
  `${wallClock(epochMs, timeZone).local.slice(0, 16).replace('T', ' ')} ${timeZone}`;

/**
 * The free windows of `window` (cut to the plan's range) inside `hours`, clear of the board and of `extra`, each
 * starting on the step of the local clock (:00, :15, ...); sorted.
 */
export function freeIn(board: Board, window: Interval, hours: WeeklyHours, extra: readonly Interval[] = []): Interval[] {
  const span = { start: Math.max(window.start, board.range.start), end: Math.min(window.end, board.range.end) };
  if (span.end <= span.start) return [];
  const outside = complement(span, localHoursIn(span, hours, board.timeZone));
  const taken = mergeIntervals([...board.blocked, ...board.placed, ...extra, ...outside]);
  return complement(span, taken)
    .map((w) => ({ start: alignUp(w.start, PLANNER_RULES.stepMinutes, board.timeZone), end: w.end }))
    .filter((w) => w.end - w.start >= MINUTE_MS);
}

/**
 * Minutes of `need` to put in a free stretch of `available` minutes, in blocks of `min` to `max`: all of it when
 * it fits; else as much as fits, but rather one minimum block less than a remainder too short to place later;
 * 0 when not even a minimum block fits.
 */
export function blockLength(need: number, available: number, min: number, max: number): number {
  const cap = Math.min(available, max);
  if (cap < min || need < min) return 0;
  if (need <= cap) return need;
  if (need - cap >= min) return cap;
  return need - min >= min ? need - min : cap;
}

export function place(board: Board, block: Block): Block {
  board.placed.push({ start: block.start, end: block.end });
  return block;
}
