/**
 * A person's calendar events over a window, as the availability engine takes them: single events of at most a day
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
import { spaceIdsOf } from '../spaces/spaces.queries';

export async function calendarEventsIn(models: ReadModels, userId: string, window: Interval, maxEvents: number): Promise<CalendarEvents> {
  const spaceIds = await spaceIdsOf(models, userId);
  if (spaceIds.length === 0) return { placed: [], events: [] };
  const schedule = await models.docs(SCHEDULE);
  const calendars = await schedule('calendars').find({ spaceId: { $in: spaceIds } });
  const inSpaces = { spaceId: { $in: spaceIds }, deletedAt: null };
  const [days, events] = await Promise.all([
    (await models.docs(BUSY_TIME))<DayDoc>('days').find({
      calendarId: { $in: calendars.map((c) => c._id) },
      day: { $gte: utcDay(window.start - DAY_ENTRY_MAX_MS), $lte: utcDay(window.end - 1) },
    }),
    Promise.all(
      overlapFilters(window.start, window.end, 'all', DAY_ENTRY_MAX_MS).map((f) =>
        schedule<Doc & Event>('events').find({ ...inSpaces, ...f }, { limit: maxEvents + 1 })),
    ),
  ]);
  const placed: BusyEntry[] = [];
  for (const day of days) {
    for (const entry of day.entries) if (entry.end > window.start && entry.start < window.end) placed.push(entry);
  }
  const others = events.flat();
  if (placed.length + others.length > maxEvents) throw overBudget('events', maxEvents);
  return { placed, events: others };
}
