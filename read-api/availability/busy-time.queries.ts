/**
 * The events of some calendars over a window, as the availability engine takes them: single events of at most a day
 * from the busy-time projection's day documents (a few reads, spans already numbers), and the rest (longer events,
 * recurring series) from the schedule's events, to be expanded. Bounded: more than `maxEvents` in the window is 422.
 */
import type { Event } from '../../contracts/events';
import { BUSY_TIME, DAY_ENTRY_MAX_MS, utcDay, type BusyEntry, type DayDoc } from '../../projections/busy-time.projection';
import { overlapFilters } from '../../projections/event-span';
import type { ReadModels } from '../../projections/read-models';
import { SCHEDULE } from '../../projections/schedule.projection';
import { overBudget } from '../../services/availability/busy';
import type { CalendarEvents, Interval } from '../../services/availability/types';
import type { Doc } from '../../services/readstore/read-store.port';

/** The events of each of the calendars over the window; more than `maxEvents` of them in all is 422. */
export async function calendarEventsByCalendar(
  models: ReadModels, calendarIds: readonly string[], window: Interval, maxEvents: number,
): Promise<Map<string, CalendarEvents>> {
  const out = new Map(calendarIds.map((id) => [id, { placed: [] as BusyEntry[], events: [] as Event[] }]));
  if (out.size === 0) return out;
  const schedule = await models.docs(SCHEDULE);
  const inCalendars = { calendarId: { $in: [...out.keys()] }, deletedAt: null };
  const [days, events] = await Promise.all([
    (await models.docs(BUSY_TIME))<DayDoc>('days').find({
      calendarId: { $in: [...out.keys()] },
      day: { $gte: utcDay(window.start - DAY_ENTRY_MAX_MS), $lte: utcDay(window.end - 1) },
    }),
    Promise.all(
      overlapFilters(window.start, window.end, 'all', DAY_ENTRY_MAX_MS).map((f) =>
        schedule<Doc & Event>('events').find({ ...inCalendars, ...f }, { limit: maxEvents + 1 })),
    ),
  ]);
  let count = 0;
  for (const day of days) {
    const placed = out.get(day.calendarId)?.placed;
    for (const entry of day.entries) if (entry.end > window.start && entry.start < window.end) placed?.push(entry), count++;
  }
  for (const event of events.flat()) out.get(event.calendarId)?.events.push(event), count++;
  if (count > maxEvents) throw overBudget('events', maxEvents);
  return out;
}

/** The events of the calendars together, as one person's. */
export function togetherOf(byCalendar: ReadonlyMap<string, CalendarEvents>, calendarIds: readonly string[]): CalendarEvents {
  const parts = calendarIds.map((id) => byCalendar.get(id)).filter((p): p is CalendarEvents => p !== undefined);
  return { placed: parts.flatMap((p) => p.placed), events: parts.flatMap((p) => p.events) };
}

export async function calendarEventsIn(models: ReadModels, calendarIds: string[], window: Interval, maxEvents: number): Promise<CalendarEvents> {
  return togetherOf(await calendarEventsByCalendar(models, calendarIds, window, maxEvents), calendarIds);
}
