/** What an `email` reminder tells the event's owner: one plain message per reminder.fired event. */
import type { ReminderDue } from '../../contracts/reminders';
import { lead, when } from '../../projections/notification-messages';
import type { MailContent } from './mail.port';

export function reminderMail(r: ReminderDue, owner: { name: string; email: string }): MailContent {
  const at = when(r.startsAt, r.timeZone, r.allDay);
  const lines = [
    `Hello ${owner.name},`,
    '',
    `${r.title} starts ${at}, ${lead(r.minutesBefore)}.`,
    ...(r.location ? ['', `Where: ${r.location}`] : []),
  ];
  return { to: { name: owner.name, address: owner.email }, subject: `Reminder: ${r.title}, ${at}`, text: lines.join('\n') };
}
