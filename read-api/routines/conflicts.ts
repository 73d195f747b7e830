/** GET /routines/conflicts: routine periods a busy event landed on, each with a suggested free time that day. */
import type { z } from 'zod';
import type { RoutineConflict } from '../../contracts/routines';
import type { ReadModels } from '../../projections/read-models';
import { wallClock } from '../../services/time/zone';
import { addDays, dayClock } from '../../services/time/local-time';
import { eventsBetween } from '../events/events.queries';
import { suggestFreeTime, type Span } from './free-time';
import { routineDays, type RoutineDayEntry } from './routines.queries';

type Conflict = z.infer<typeof RoutineConflict>;

const overlaps = (a: Span, b: Span) => a.start < b.end && a.end > b.start;

/** Minute of `date` at an instant of that day (its closing midnight is 1440). */
function minuteOf(epochMs: number, date: string, timeZone: string): number {
  const { local } = wallClock(epochMs, timeZone);
  return local.slice(0, 10) === date ? Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16)) : 1440;
}

function suggested(start: number, end: number, date: string, timeZone: string) {
  return {
    startMinute: minuteOf(start, date, timeZone),
    endMinute: minuteOf(end, date, timeZone),
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(end).toISOString(),
  };
}

export async function routineConflicts(models: ReadModels, userId: string, timeZone: string, from: string, days: number): Promise<Conflict[]> {
  const last = addDays(from, days - 1);
  const start = dayClock(from, timeZone)(0);
  const end = dayClock(last, timeZone)(1440);
  const [entries, events] = await Promise.all([routineDays(models, userId, timeZone, from, last), eventsBetween(models, userId, start, end)]);
  const busy = events
    .filter((e) => e.busy && !e.allDay)
    .map((e) => ({ event: e, start: Date.parse(e.startsAt), end: Date.parse(e.endsAt) }));
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
    const suggestion = block.canMove ? suggest(entry, byDate.get(instance.date)!, busy, timeZone) : null;
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
      events: hits.map(({ event: e }) => ({ id: e.id, title: e.title, startsAt: e.startsAt, endsAt: e.endsAt })),
      suggestion,
    });
  }
  return out;
}

/** Free time that day inside the period's window, clear of busy events and the day's other (unskipped) periods. */
function suggest(entry: RoutineDayEntry, sameDay: RoutineDayEntry[], busy: Span[], timeZone: string) {
  const { instance, block } = entry;
  const clock = dayClock(instance.date, timeZone);
  const range = { start: block.windowStart ?? clock(0), end: block.windowEnd ?? clock(1440) };
  const taken = [
    ...busy.filter((b) => overlaps(b, range)),
    ...sameDay.filter((o) => o !== entry && o.instance.status !== 'skipped').map((o) => o.block),
  ];
  const duration = block.end - block.start;
  const found = suggestFreeTime(range, duration, taken, block.start);
  return found === null ? null : suggested(found, found + duration, instance.date, timeZone);
}
