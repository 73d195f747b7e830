import type { Routine, RoutineInstance, RoutinePeriod } from '../../contracts/routines';
import type { RoutineBlock } from '../../services/availability/types';
import type { RoutineDay } from '../../services/rules/routine-days';

/** A routine period on one date as other slices plan around it: the availability engine's input. */
export type { RoutineBlock };

/** One period on one date: as the routine's owner sees it, and as the availability engine plans around it. */
export interface RoutineDayEntry {
  instance: RoutineInstance;
  block: RoutineBlock;
}

/** One period on one date: that day's times (moved or its own) as minutes and as instants from `clock`. */
export function instanceOf(
  routine: Routine, period: RoutinePeriod, date: string, day: RoutineDay | undefined, clock: (minute: number) => number,
): RoutineInstance {
  const startMinute = day?.startMinute ?? period.startMinute;
  const endMinute = day?.endMinute ?? period.endMinute;
  const done = new Set(day?.doneItemIds ?? []);
  return {
    routineId: routine.id,
    routineName: routine.name,
    periodId: period.id,
    name: period.name,
    date,
    status: day?.status ?? null,
    startMinute,
    endMinute,
    moved: startMinute !== period.startMinute || endMinute !== period.endMinute,
    startsAt: new Date(clock(startMinute)).toISOString(),
    endsAt: new Date(clock(endMinute)).toISOString(),
    windowStartMinute: period.windowStartMinute,
    windowEndMinute: period.windowEndMinute,
    priority: period.priority,
    canMove: period.canMove,
    items: period.items.map((item) => ({ id: item.id, title: item.title, done: done.has(item.id) })),
  };
}

export function blockOf(instance: RoutineInstance, clock: (minute: number) => number): RoutineBlock {
  const { windowStartMinute: ws, windowEndMinute: we } = instance;
  return {
    routineId: instance.routineId,
    periodId: instance.periodId,
    name: instance.name,
    start: Date.parse(instance.startsAt),
    end: Date.parse(instance.endsAt),
    canMove: instance.canMove,
    windowStart: ws === null ? null : clock(ws),
    windowEnd: we === null ? null : clock(we),
    status: instance.status,
  };
}
