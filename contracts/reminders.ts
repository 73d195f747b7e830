/**
 * Reminders of an event (addendum, "Reminders"): the field, its bounds, the owner's default, and what the log records
 * when one falls due (docs/reminders.md).
 */
import { z } from 'zod';
import { DateTime, preferenceRule, Uuid } from './common';

export const REMINDER_LIMITS = { perEvent: 5, maxMinutesBefore: 40_320 } as const;
export const REMINDER_METHODS = ['notification', 'push', 'email'] as const;

export const Reminder = z
  .strictObject({
    minutesBefore: z.number().int().min(0).max(REMINDER_LIMITS.maxMinutesBefore).describe('Minutes before the start (at most 4 weeks)'),
    method: z.enum(REMINDER_METHODS),
  })
  .meta({ id: 'Reminder', examples: [{ minutesBefore: 10, method: 'notification' }] });
export type Reminder = z.infer<typeof Reminder>;

export const Reminders = z.array(Reminder).max(REMINDER_LIMITS.perEvent);

/** The owner's `preferences.defaultReminders` when it is a valid reminder list, else none. */
export function defaultRemindersOf(preferences: Record<string, unknown>): Reminder[] {
  const parsed = Reminders.safeParse(preferences.defaultReminders);
  return parsed.success ? parsed.data : [];
}

/** PATCH /me: `preferences.defaultReminders` must be a reminder list (or null for none). */
export const checkDefaultRemindersPreference = preferenceRule('defaultReminders', Reminders);

/**
 * One reminder of one occurrence, as it fell due: the data of `reminder.fired` (delivered to the owner) and of
 * `reminder.missed` (its occurrence had begun when the service could fire it: recorded, not delivered). Appended on
 * the stream `reminder-<reminderId>` with "no stream", so it is recorded once.
 */
export const ReminderDue = z.object({
  reminderId: Uuid.describe('Derived from (event, occurrence, its start, minutesBefore, method)'),
  eventId: Uuid,
  ownerId: Uuid,
  occurrenceStartsAt: DateTime.describe('The original start of the occurrence (a single event: its start)'),
  startsAt: DateTime,
  endsAt: DateTime,
  timeZone: z.string(),
  allDay: z.boolean(),
  title: z.string(),
  location: z.string().nullable(),
  minutesBefore: z.number().int(),
  method: z.enum(REMINDER_METHODS),
  dueAt: DateTime,
});
export type ReminderDue = z.infer<typeof ReminderDue>;
