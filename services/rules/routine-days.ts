/**
 * When a routine's period happens and what it holds on a date: rules the routines decider, its projection and its
 * queries share.
 */
import type { Routine } from '../../contracts/routines';
import { isoWeekday } from '../time/local-time';

/** A period's state on one date. Times are null while the period keeps its own. */
export interface RoutineDay {
  status: 'done' | 'skipped' | null;
  startMinute: number | null;
  endMinute: number | null;
  doneItemIds: string[];
}

export const dayKey = (periodId: string, date: string) => `${periodId}|${date}`;
export const emptyDay = (): RoutineDay => ({ status: null, startMinute: null, endMinute: null, doneItemIds: [] });

/** Whether a routine's period happens on a date. */
export const occursOn = (routine: Routine, date: string) => routine.isActive && routine.days.includes(isoWeekday(date));
