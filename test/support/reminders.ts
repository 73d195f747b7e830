/**
 * Reminders in tests that run in real time: events starting a few seconds from now with 0-minute reminders (due as
 * they begin), and the reminder notifications a user has.
 */
import type { ApiResponse } from './service';

type Call = (method: string, path: string, body?: unknown, headers?: Record<string, string>) => Promise<ApiResponse>;

/** An instant `ms` from now, ISO. */
export const fromNow = (ms: number) => new Date(Date.now() + ms).toISOString();

/** Creates an event starting `inMs` from now (an hour long) with `reminders`; answers the event. */
export async function remindedEvent(
  call: Call, inMs: number, reminders: Array<{ minutesBefore: number; method: string }>, fields: Record<string, unknown> = {},
): Promise<Record<string, any>> {
  const startsAt = fromNow(inMs);
  const endsAt = new Date(Date.parse(startsAt) + 3_600_000).toISOString();
  const res = await call('POST', '/events', { title: 'Reminded', startsAt, endsAt, busy: false, reminders, ...fields });
  if (res.status !== 201) throw new Error(`creating a reminded event: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.event;
}

/** The caller's reminder notifications, newest first. */
export async function reminderNotifications(call: Call): Promise<Array<Record<string, any>>> {
  const res = await call('GET', '/notifications?limit=100');
  if (res.status !== 200) throw new Error(`GET /notifications: ${res.status}`);
  return (res.body.notifications as Array<Record<string, any>>).filter((n) => n.kind === 'reminder');
}

/** Of them, those about `eventId`. */
export const remindersOf = async (call: Call, eventId: string) => (await reminderNotifications(call)).filter((n) => n.eventId === eventId);
