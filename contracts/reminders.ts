/**
 * Reminders of an event (addendum, "Reminders"): the field, its bounds and the owner's default. When they fire and
 * what they send is not decided here.
 */
import { z } from 'zod';
import { preferenceRule } from './common';

export const REMINDER_LIMITS = { perEvent: 5, maxMinutesBefore: 40_320 } as const;

export const Reminder = z
  .strictObject({
    minutesBefore: z.number().int().min(0).max(REMINDER_LIMITS.maxMinutesBefore).describe('Minutes before the start (at most 4 weeks)'),
    method: z.enum(['notification', 'push', 'email']),
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
