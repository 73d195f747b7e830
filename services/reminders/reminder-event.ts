/**
 * What the log records when a reminder falls due: `reminder.fired` (delivered to the owner) while its occurrence has
 * not begun, or while the reminder is on time (a 0-minute reminder is due as the event begins); `reminder.missed`
 * once the occurrence has begun (it fell due while the service was down or far behind). One stream per reminder,
 * appended with "no stream" under an id derived from the reminder: the event store records it once.
 */
import { schemaVersionOf } from '../../contracts/domain-events';
import type { ReminderDue } from '../../contracts/reminders';
import type { DueDoc, SeriesDoc } from '../../projections/reminder-docs';
import type { NewEvent } from '../eventstore/event-store.port';
import { deterministicUuid } from '../ids';

/** How late a reminder may still fire after its occurrence began (its own due instant plus this). */
export const ON_TIME_MS = 60_000;

export const reminderStream = (reminderId: string) => `reminder-${reminderId}`;

export const reminderEventId = (reminderId: string) => deterministicUuid('reminder-due', reminderId);

/** The occurrence's own title and location when it has them, else the series'. */
function shown(series: SeriesDoc, occurrenceStartsAt: string): { title: string; location: string | null } {
  const original = Date.parse(occurrenceStartsAt);
  const own = series.recurrenceRule ? series.exceptions?.find((x) => Date.parse(x.occurrenceStartsAt) === original) : undefined;
  return { title: own?.title ?? series.title, location: own?.location !== undefined ? own.location : series.location ?? null };
}

export function reminderEvent(doc: DueDoc, series: SeriesDoc, now: number): NewEvent {
  const fired = now < doc.startMs || now <= doc.dueMs + ON_TIME_MS;
  const type = fired ? 'reminder.fired' : 'reminder.missed';
  const data: ReminderDue = {
    reminderId: doc._id, eventId: doc.eventId, ownerId: doc.ownerId, occurrenceStartsAt: doc.occurrenceStartsAt,
    startsAt: doc.startsAt, endsAt: doc.endsAt, timeZone: series.timeZone, allDay: series.allDay,
    ...shown(series, doc.occurrenceStartsAt), minutesBefore: doc.minutesBefore, method: doc.method,
    dueAt: new Date(doc.dueMs).toISOString(),
  };
  return {
    id: reminderEventId(doc._id),
    type,
    data,
    // No author: the data names its owner, whose key seals it (services/eventstore/sealing.ts).
    metadata: {
      userId: null, correlationId: `reminder:${doc._id}`, causationId: doc._id, occurredAt: new Date(now).toISOString(),
      schemaVersion: schemaVersionOf(type),
    },
  };
}
