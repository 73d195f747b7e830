/**
 * What a notification says, made from the domain event that produced it. Payloads are read through small lenient
 * schemas: an event of a shape we cannot use makes no notification (a projection never stops on one event).
 */
import { z } from 'zod';
import type { Notification } from '../contracts/notifications';
import { wallClock } from '../services/time/zone';

export type NotificationContent = Pick<Notification, 'kind' | 'title' | 'body' | 'source'> & Partial<Pick<Notification, 'eventId' | 'occurrenceStartsAt'>>;

const Booking = z.object({
  id: z.string(),
  hostId: z.string(),
  startsAt: z.string(),
  timeZone: z.string().optional(),
  guest: z.object({ name: z.string(), email: z.string() }),
  cancelledBy: z.enum(['guest', 'host']).nullable().optional(),
});
type Booking = z.infer<typeof Booking>;
/** booking.rescheduled carries `{data, previous}` (the webhook catalogue's shape); a bare booking is read too. */
const Rescheduled = z.union([
  z.object({ data: Booking, previous: z.object({ startsAt: z.string() }).nullable().optional() }),
  Booking.transform((data) => ({ data, previous: null })),
]);
const Task = z.object({ id: z.string(), title: z.string(), assigneeId: z.string().nullable(), dueAt: z.string().nullable().optional() });

const clip = (text: string, max = 200) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** `2031-05-12 at 14:00 (Europe/Lisbon)`; in UTC when the zone is unknown. */
export function when(instant: string, timeZone = 'UTC', dateOnly = false): string {
  const ms = Date.parse(instant);
  if (Number.isNaN(ms)) return instant;
  let zone = timeZone;
  let local: string;
  try {
    local = wallClock(ms, zone).local;
  } catch {
    zone = 'UTC';
    local = new Date(ms).toISOString();
  }
  return dateOnly ? local.slice(0, 10) : `${local.slice(0, 10)} at ${local.slice(11, 16)} (${zone})`;
}

const bookingSource = (b: Booking) => ({ type: 'booking', id: b.id });

/** Who gets a notification about a booking, and what it says: the host. */
export function bookingNotification(type: string, data: unknown): { userId: string; content: NotificationContent } | null {
  if (type === 'booking.rescheduled') {
    const parsed = Rescheduled.safeParse(data);
    if (!parsed.success) return null;
    const { data: b, previous } = parsed.data;
    const was = previous ? `, was ${when(previous.startsAt, b.timeZone)}` : '';
    return {
      userId: b.hostId,
      content: { kind: 'booking_rescheduled', title: clip(`Booking moved: ${b.guest.name}`), body: `Now ${when(b.startsAt, b.timeZone)}${was}`, source: bookingSource(b) },
    };
  }
  const parsed = Booking.safeParse(data);
  if (!parsed.success) return null;
  const b = parsed.data;
  if (type === 'booking.created') {
    return {
      userId: b.hostId,
      content: { kind: 'booking_created', title: clip(`New booking: ${b.guest.name}`), body: `${when(b.startsAt, b.timeZone)} · ${b.guest.email}`, source: bookingSource(b) },
    };
  }
  const by = b.cancelledBy === 'host' ? 'by you' : b.cancelledBy === 'guest' ? 'by the guest' : null;
  return {
    userId: b.hostId,
    content: {
      kind: 'booking_cancelled', title: clip(`Booking cancelled: ${b.guest.name}`),
      body: `${when(b.startsAt, b.timeZone)}${by ? ` · cancelled ${by}` : ''}`, source: bookingSource(b),
    },
  };
}

/** The assignee of a task.assigned event. */
export function taskAssignedNotification(data: unknown): { userId: string; content: NotificationContent } | null {
  const parsed = Task.safeParse(data);
  if (!parsed.success || !parsed.data.assigneeId) return null;
  const t = parsed.data;
  return {
    userId: t.assigneeId!,
    content: {
      kind: 'task_assigned', title: clip(`Assigned to you: ${t.title}`), body: t.dueAt ? `Due ${when(t.dueAt)}` : null,
      source: { type: 'task', id: t.id },
    },
  };
}

export function invitationContent(event: { id: string; title: string; startsAt: string; timeZone: string; allDay: boolean }): NotificationContent {
  return {
    kind: 'invitation', title: clip(`Invitation: ${event.title}`), body: when(event.startsAt, event.timeZone, event.allDay),
    source: { type: 'event', id: event.id },
  };
}

const Due = z.object({
  eventId: z.string(), ownerId: z.string(), occurrenceStartsAt: z.string(), startsAt: z.string(), timeZone: z.string(),
  allDay: z.boolean(), title: z.string(), location: z.string().nullable().optional(), minutesBefore: z.number(),
});

/** `in 10 minutes`, `in 1 hour 30 minutes`, `in 2 days`, `now`. */
export function lead(minutes: number): string {
  if (minutes <= 0) return 'now';
  const parts: Array<[number, string]> = [[Math.floor(minutes / 1440), 'day'], [Math.floor((minutes % 1440) / 60), 'hour'], [minutes % 60, 'minute']];
  return `in ${parts.filter(([n]) => n > 0).map(([n, unit]) => `${n} ${unit}${n === 1 ? '' : 's'}`).join(' ')}`;
}

/** The owner of a reminder.fired event, told which occurrence starts when. */
export function reminderNotification(data: unknown): { userId: string; content: NotificationContent } | null {
  const parsed = Due.safeParse(data);
  if (!parsed.success) return null;
  const r = parsed.data;
  const where = r.location ? ` · ${r.location}` : '';
  return {
    userId: r.ownerId,
    content: {
      kind: 'reminder', title: clip(`Reminder: ${r.title}`), body: `Starts ${when(r.startsAt, r.timeZone, r.allDay)}, ${lead(r.minutesBefore)}${where}`,
      source: { type: 'event', id: r.eventId }, eventId: r.eventId, occurrenceStartsAt: r.occurrenceStartsAt,
    },
  };
}
