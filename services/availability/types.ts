/**
 * The availability engine's vocabulary: plain intervals (epoch ms, end exclusive) and rules, no I/O.
 * Every blocked interval carries the reason it is blocked.
 */
import type { Interval, Recurring } from '../time/recurrence';

export type { Interval };

/** A calendar event as stored (a single event or a whole series); `Event` of contracts/events.ts fits. */
export interface CalendarEvent extends Recurring {
  id: string;
  kind: string;
  allDay: boolean;
  busy: boolean;
  title?: string;
  /** Planner links: the task or goal the time is for. */
  taskId?: string | null;
  goalId?: string | null;
}

/** A single event whose span is already known as numbers (the busy-time read model keeps them so). */
export interface PlacedEvent extends CalendarEvent, Interval {}

/** A person's events over a window: single events already placed in time, and events (series) still to expand. */
export interface CalendarEvents {
  placed: readonly PlacedEvent[];
  events: readonly CalendarEvent[];
}

/** One occurrence of an event as the engine sees it; all-day events span whole days of the owner's zone. */
export interface Occurrence extends Interval {
  event: CalendarEvent;
}

/** A routine period on one date (the routines slice's `routineBlocks`). */
export interface RoutineBlock {
  routineId: string;
  periodId: string;
  name: string;
  start: number;
  end: number;
  canMove: boolean;
  windowStart: number | null;
  windowEnd: number | null;
  status: 'done' | 'skipped' | null;
}

/** Local hours of a week: ISO weekday (1 Monday … 7 Sunday) and minutes of the day, end exclusive (1440 = midnight). */
export interface WeeklyHour {
  day: number;
  startMinute: number;
  endMinute: number;
}
export type WeeklyHours = readonly WeeklyHour[];

export type BlockReason =
  | { type: 'event'; eventId: string }
  | { type: 'focus'; eventId: string }
  | { type: 'routine'; routineId: string; periodId: string }
  | { type: 'buffer'; eventId?: string; periodId?: string }
  | { type: 'notice' }
  | { type: 'outside_hours' };

export interface Blocked extends Interval {
  reason: BlockReason;
}

/** A piece of a timeline: free when `reasons` is empty, else blocked for all of them. */
export interface Stretch extends Interval {
  reasons: BlockReason[];
}

export interface Rules {
  /** When one may be booked or planned; null = any time of day. */
  workingHours: WeeklyHours | null;
  bufferBeforeMinutes: number;
  bufferAfterMinutes: number;
  /** Nothing starts before now + this. */
  minimumNoticeMinutes: number;
  now: number;
}
