/** What projections outside the schedule read of a calendar event: its time, kind and links, checked once. */
import { z } from 'zod';
import { EventKind } from '../contracts/events';
import { OPEN_END, spanOf } from '../services/time/recurrence';

/** What an exception changes of the time an occurrence takes and what it counts as. */
const TimeException = z.object({
  occurrenceStartsAt: z.string(),
  cancelled: z.boolean().optional(),
  startsAt: z.string().optional(),
  endsAt: z.string().optional(),
  kind: EventKind.optional(),
});

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
  exceptions: z.array(TimeException).optional(),
});
export type EventTime = z.infer<typeof EventTime> & { startMs: number; endBoundMs: number };

/** The calendar event a schedule domain event carries: after an occurrence changed, its series. */
export const calendarEventOf = (type: string, data: unknown): unknown =>
  type.startsWith('event.occurrence.') ? (data as { series?: unknown } | null)?.series : data;

/** The event's time, or null for data a projection cannot use (it then ignores the event). */
export function eventTime(data: unknown): EventTime | null {
  const parsed = EventTime.safeParse(data);
  if (!parsed.success) return null;
  if (Number.isNaN(Date.parse(parsed.data.startsAt)) || Number.isNaN(Date.parse(parsed.data.endsAt))) return null;
  let span: { startMs: number; endBoundMs: number };
  try {
    span = spanOf(parsed.data);
  } catch {
    span = { startMs: Date.parse(parsed.data.startsAt), endBoundMs: OPEN_END };
  }
  return { ...span, ...parsed.data }; // new fields first: see eventDoc in schedule.projection.ts
}

/** The fields a block document keeps to expand its occurrences later. */
export const timeFields = (e: EventTime) => ({
  kind: e.kind, allDay: e.allDay, startsAt: e.startsAt, endsAt: e.endsAt, timeZone: e.timeZone, recurrenceRule: e.recurrenceRule,
  exceptions: e.exceptions ?? [], _startMs: e.startMs, _endBoundMs: e.endBoundMs,
});
