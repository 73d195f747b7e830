/**
 * The assistant's view of the person and their calendar: a port, so the assistants stay free of storage.
 * read-api/assistant/world.ts answers it from the read models and the availability engine.
 */
import type { AssistantPreferences } from '../../contracts/assistant';
import type { Interval } from '../availability/types';

export interface CalendarItem extends Interval {
  id: string;
  title: string;
  kind: string;
  allDay: boolean;
  busy: boolean;
  recurring: boolean;
}

export interface BusyTime extends Interval {
  /** What takes the time: an event's title or a routine period's name. */
  label: string;
}

export interface DueTask {
  id: string;
  title: string;
  dueAt: string;
}

export interface AssistantWorld {
  now: number;
  timeZone: string;
  /** 0 Sunday … 6 Saturday (the profile's). */
  weekStartsOn: number;
  preferences: AssistantPreferences;
  /** Free time after now: no busy event, focus time or fixed routine period; inside working hours unless `anyHours`. */
  freeTime(range: Interval, options?: { anyHours?: boolean }): Promise<Interval[]>;
  /** Busy time overlapping the range (events, focus time, fixed routine periods), leaving out one event. */
  busyTime(range: Interval, exceptEventId?: string): Promise<BusyTime[]>;
  /** Occurrences of the person's events overlapping the range, by start. */
  events(range: Interval): Promise<CalendarItem[]>;
  /** One of the person's live events (a series as stored), else null. */
  event(id: string): Promise<CalendarItem | null>;
  /** Open tasks due in the range, by due time. */
  tasksDue(range: Interval): Promise<DueTask[]>;
}
