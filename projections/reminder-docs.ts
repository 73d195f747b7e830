/**
 * The documents of the reminders projection: per event with reminders, what its reminders are computed from (`series`),
 * and one document per (occurrence, reminder) due within its horizon (`due`), which the reminder worker polls.
 */
import { z } from 'zod';
import { Reminders, REMINDER_METHODS } from '../contracts/reminders';
import type { DueReminder } from '../services/reminders/due';
import type { Doc } from '../services/readstore/read-store.port';

export const REMINDERS = 'reminders';

/** What the projection reads of a calendar event: an event of another shape reminds no one. */
export const RemindedEventData = z.object({
  id: z.string(),
  status: z.enum(['confirmed', 'cancelled']),
  createdBy: z.string(),
  title: z.string(),
  location: z.string().nullable().optional(),
  startsAt: z.string(),
  endsAt: z.string(),
  timeZone: z.string(),
  allDay: z.boolean(),
  recurrenceRule: z.string().nullable(),
  reminders: Reminders,
  exceptions: z.array(z.object({
    occurrenceStartsAt: z.string(),
    cancelled: z.boolean().optional(),
    startsAt: z.string().optional(),
    endsAt: z.string().optional(),
    title: z.string().optional(),
    location: z.string().nullable().optional(),
    reminders: Reminders.optional(),
  })).optional(),
});
export type RemindedEventData = z.infer<typeof RemindedEventData>;

export type SeriesDoc = Doc & Omit<RemindedEventData, 'id' | 'status' | 'createdBy'> & {
  _pos: number;
  ownerId: string;
  /** Reminders due before this instant are computed (the horizon); the next one beyond it too. */
  coveredUntilMs: number;
};

export const DUE_STATES = ['pending', 'fired', 'missed'] as const;

export type DueDoc = Doc & {
  _pos: number;
  eventId: string;
  ownerId: string;
  occurrenceStartsAt: string;
  startsAt: string;
  endsAt: string;
  startMs: number;
  dueMs: number;
  minutesBefore: number;
  method: (typeof REMINDER_METHODS)[number];
  /** Of a series: its settling may move the series' horizon on. */
  recurring: boolean;
  state: (typeof DUE_STATES)[number];
};

export function seriesDoc(ev: RemindedEventData, position: number, coveredUntilMs: number): SeriesDoc {
  const { id, status: _status, createdBy, ...fields } = ev;
  return { _id: id, _pos: position, ownerId: createdBy, coveredUntilMs, ...fields, location: fields.location ?? null };
}

export function dueDoc(ev: { id: string; ownerId: string; recurrenceRule: string | null }, r: DueReminder, position: number): DueDoc {
  return {
    _id: r.id, _pos: position, eventId: ev.id, ownerId: ev.ownerId, occurrenceStartsAt: r.occurrenceStartsAt,
    startsAt: new Date(r.startMs).toISOString(), endsAt: new Date(r.endMs).toISOString(), startMs: r.startMs, dueMs: r.dueMs,
    minutesBefore: r.minutesBefore, method: r.method, recurring: !!ev.recurrenceRule, state: 'pending',
  };
}
