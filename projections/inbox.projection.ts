/**
 * The inbox: invitations (events whose attendees, or those of one of their occurrences, include a user of the service,
 * until that user answers; the invitation shows the series with its exceptions) and
 * booking requests (bookings of the host's meeting types, pending ones included, until cancelled or declined; GET
 * /inbox also drops those that have started).
 */
import { bookingIn, isLive } from '../contracts/bookings';
import { attendeesOf, type Event } from '../contracts/events';
import type { RecordedEvent } from '../services/eventstore/event-store.port';
import { calendarEventOf } from './event-time';
import { projection, type ProjectionDocs } from './projection';

export const INBOX = 'inbox';

async function invitations(e: RecordedEvent, docs: ProjectionDocs): Promise<void> {
  const event = calendarEventOf(e.type, e.data) as Event;
  const invitations = docs('invitations');
  const invited = new Set(
    event.status === 'confirmed'
      ? attendeesOf(event)
          .filter((a) => a.userId && a.userId !== event.createdBy && a.response === 'needs_action')
          .map((a) => a.userId as string)
      : [],
  );
  // A new event has no invitations yet to take back.
  const earlier = e.type === 'event.created' ? [] : await invitations.find({ eventId: event.id });
  for (const stale of earlier) {
    if (!invited.has(stale.userId as string)) await invitations.delete(stale._id);
  }
  for (const userId of invited) {
    const id = `${event.id}:${userId}`;
    const existing = await invitations.get(id);
    await invitations.putIfNewer({
      _id: id,
      _pos: e.position,
      userId,
      eventId: event.id,
      event,
      createdAt: (existing?.createdAt as string | undefined) ?? e.metadata.occurredAt,
    });
  }
}

async function bookingRequests(e: RecordedEvent, docs: ProjectionDocs): Promise<void> {
  const booking = bookingIn(e.type, e.data);
  if (!booking) return;
  const requests = docs('bookings');
  if (!isLive(booking.status)) return requests.delete(booking.id);
  await requests.putIfNewer({
    _id: booking.id, _pos: e.position, userId: booking.hostId, booking, _startMs: Date.parse(booking.startsAt), createdAt: booking.createdAt,
  });
}

export const inboxProjection = projection({
  name: INBOX,
  version: 4, // v2: booking requests; v3: invitations to a series carry its exceptions and reminders; v4: bookings with hosts, pending
  collections: {
    invitations: { indexes: [['userId', 'createdAt'], ['eventId']] },
    bookings: { indexes: [['userId', '_startMs']] },
  },
  handles: [
    'event.created', 'event.updated', 'event.cancelled', 'event.occurrence.changed', 'event.occurrence.cancelled',
    'booking.created', 'booking.rescheduled', 'booking.cancelled', 'booking.confirmed', 'booking.declined',
  ],
  apply: (e, docs) => (e.type.startsWith('booking.') ? bookingRequests(e, docs) : invitations(e, docs)),
});
