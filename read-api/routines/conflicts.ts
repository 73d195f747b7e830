/**
 * GET /routines/conflicts: routine periods a busy event landed on, each with a suggested free time that day. Busy
 * time comes from the availability engine, so a suggestion is free in the same sense as GET /availability. A pure
 * function of what was read (the day's routine periods and the engine's inputs), so that a large calendar's answer
 * is worked out on an answer thread (read-api/availability/answers.ts).
 */
import type { z } from 'zod';
import type { RoutineConflict } from '../../contracts/routines';
import { availabilityOf } from '../../services/availability/engine';
import { overlaps } from '../../services/availability/intervals';
import { nearestStart } from '../../services/availability/nearest';
import { freeWindows } from '../../services/availability/timeline';
import type { Blocked, CalendarEvents, Interval, Occurrence, RoutineBlock, Rules } from '../../services/availability/types';
import { isoOf } from '../../services/time/iso';
import { addDays, epochAt } from '../../services/time/local-time';
import { wallClock } from '../../services/time/zone';
import type { RoutineDayEntry } from './instances';

type Conflict = z.infer<typeof RoutineConflict>;

/** Minute of `date` at an instant of that day (its closing midnight is 1440). */
function minuteOf(epochMs: number, date: string, timeZone: string): number {
  const { local } = wallClock(epochMs, timeZone);
  return local.slice(0, 10) === date ? Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16)) : 1440;
}

function suggested(start: number, end: number, date: string, timeZone: string) {
  return {
    startMinute: minuteOf(start, date, timeZone),
    endMinute: minuteOf(end, date, timeZone),
    startsAt: isoOf(start),
    endsAt: isoOf(end),
  };
}

/** The days of a conflicts request: the range they span in the owner's zone. */
export function conflictsRange(from: string, days: number, timeZone: string): Interval {
  return { start: epochAt(from, 0, timeZone), end: epochAt(addDays(from, days - 1), 1440, timeZone) };
}

/** The conflicts of the periods on the days of `range`, with what the engine reads over it and `rules` (answers.ts). */
export function routineConflicts(
  entries: readonly RoutineDayEntry[], events: CalendarEvents, routines: readonly RoutineBlock[], timeZone: string, range: Interval, rules: Rules,
): Conflict[] {
  const found = availabilityOf({ range, timeZone, events, routines, rules });
  // All-day events do not make conflicts (a holiday is not a clash with the morning run).
  const busy = found.occurrences.filter((o) => o.event.busy && !o.event.allDay);
  const byDate = new Map<string, RoutineDayEntry[]>();
  for (const e of entries) {
    if (!byDate.has(e.instance.date)) byDate.set(e.instance.date, []);
    byDate.get(e.instance.date)!.push(e);
  }
  const out: Conflict[] = [];
  for (const entry of entries) {
    const { instance, block } = entry;
    if (instance.status !== null) continue;
    const hits = busy.filter((b) => overlaps(b, block));
    if (hits.length === 0) continue;
    const suggestion = block.canMove ? suggest(entry, byDate.get(instance.date)!, found.blocked, timeZone) : null;
    out.push({
      routineId: instance.routineId,
      routineName: instance.routineName,
      periodId: instance.periodId,
      name: instance.name,
      date: instance.date,
      startMinute: instance.startMinute,
      endMinute: instance.endMinute,
      startsAt: instance.startsAt,
      endsAt: instance.endsAt,
      events: hits.map(({ event: e, start, end }: Occurrence) => ({ id: e.id, title: e.title ?? '', startsAt: isoOf(start), endsAt: isoOf(end) })),
      suggestion,
    });
  }
  return out;
}

/** The free time nearest the period's start inside its window, clear of what the engine blocks and of the day's other (unskipped) periods. */
function suggest(entry: RoutineDayEntry, sameDay: readonly RoutineDayEntry[], blocked: readonly Blocked[], timeZone: string) {
  const { instance, block } = entry;
  const window = { start: block.windowStart ?? epochAt(instance.date, 0, timeZone), end: block.windowEnd ?? epochAt(instance.date, 1440, timeZone) };
  const others: Blocked[] = sameDay
    .filter((o) => o !== entry && o.instance.status !== 'skipped')
    .map((o) => ({ start: o.block.start, end: o.block.end, reason: { type: 'routine', routineId: o.block.routineId, periodId: o.block.periodId } }));
  const duration = block.end - block.start;
  const start = nearestStart(freeWindows(window, [...blocked, ...others]), duration, block.start);
  return start === null ? null : suggested(start, start + duration, instance.date, timeZone);
}
