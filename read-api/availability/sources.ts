/**
 * Where the availability engine's inputs come from: a small port, so the engine stays pure and the booking and
 * planner slices read the same inputs the same way.
 */
import { WorkingHours } from '../../contracts/availability';
import type { ReadModels } from '../../projections/read-models';
import { DEFAULT_BUDGET } from '../../services/availability/busy';
import type { CalendarEvents, Interval, RoutineBlock, WeeklyHours } from '../../services/availability/types';
import { DEFAULT_WORKING_HOURS } from '../../services/availability/weekly-hours';
import { userById } from '../profile/users.queries';
import { calendarAccessOf } from '../spaces/calendar-access';
import type { Owner } from './answers';
import { calendarEventsIn } from './busy-time.queries';

export type { Owner } from './answers';

export interface AvailabilitySources {
  /** The person's zone and working hours; null for an unknown user. */
  owner(userId: string): Promise<Owner | null>;
  /** Events and series of the person's Spaces that may occur in the window (cancelled ones left out). */
  events(userId: string, window: Interval): Promise<CalendarEvents>;
  /** Routine periods on the dates of the window. */
  routines(userId: string, window: Interval): Promise<RoutineBlock[]>;
}

/** The routines slice's query (read-api/routines/routines.queries.ts `routineBlocks`). */
export type RoutineBlocksQuery = (models: ReadModels, userId: string, from: number, to: number) => Promise<RoutineBlock[]>;

/** `preferences.workingHours` of the profile when it is valid working hours, else Mon-Fri 09:00-17:00. */
export function workingHoursOf(preferences: Record<string, unknown>): WeeklyHours {
  const parsed = WorkingHours.safeParse(preferences.workingHours);
  return parsed.success ? parsed.data : DEFAULT_WORKING_HOURS;
}

export function readModelSources(models: ReadModels, routineBlocks: RoutineBlocksQuery): AvailabilitySources {
  return {
    async owner(userId) {
      const user = await userById(models, userId);
      return user && { timeZone: user.timeZone, workingHours: workingHoursOf(user.preferences) };
    },
    // Their own time: the calendars of their Spaces and organizations, not the calendars others share with them.
    events: async (userId, window) => {
      const own = (await calendarAccessOf(models, userId)).filter((a) => a.viaSpace).map((a) => a.calendar.id);
      return calendarEventsIn(models, own, window, DEFAULT_BUDGET.maxEvents);
    },
    routines: (userId, window) => routineBlocks(models, userId, window.start, window.end),
  };
}
