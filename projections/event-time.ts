/** What projections outside the schedule read of a calendar event: its time, kind and links, checked once. */
import { z } from 'zod';
import { EventKind } from '../contracts/events';
import { OPEN_END, seriesEnd } from '../services/time/recurrence';

const EventTime = z.object({
  id: z.string(),
  spaceId: z.string(),
  status: z.enum(['confirmed', 'cancelled']),
  kind: EventKind,
  allDay: z.boolean(),
  startsAt: z.string(),
  endsAt: z.string(),
  timeZone: z.string(),
  recurrenceRule: z.string().nullable(),
  goalId: z.string().nullish(),
});
export type EventTime = z.infer<typeof EventTime> & { startMs: number; endBoundMs: number };

/** The event's time, or null for data a projection cannot use (it then ignores the event). */
export function eventTime(data: unknown): EventTime | null {
  const parsed = EventTime.safeParse(data);
  if (!parsed.success) return null;
  const startMs = Date.parse(parsed.data.startsAt);
  if (Number.isNaN(startMs) || Number.isNaN(Date.parse(parsed.data.endsAt))) return null;
  let endBoundMs: number;
  try {
    endBoundMs = seriesEnd(parsed.data);
  } catch {
    endBoundMs = OPEN_END;
  }
  return { startMs, endBoundMs, ...parsed.data }; // new fields first: see eventDoc in schedule.projection.ts
}

/** The fields a block document keeps to expand its occurrences later. */
export const timeFields = (e: EventTime) => ({
  kind: e.kind, allDay: e.allDay, startsAt: e.startsAt, endsAt: e.endsAt, timeZone: e.timeZone, recurrenceRule: e.recurrenceRule,
  _startMs: e.startMs, _endBoundMs: e.endBoundMs,
});
