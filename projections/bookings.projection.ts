/**
 * Meeting types and bookings: what GET /meeting-types, /bookings, the public pages, the slots and /sync read. A
 * booking row keeps the hash of its guest's manage token (`_tokenHash`, never answered) for the guest's reads.
 *
 * A booking is also stored once per person who sees it (`hostBookings`, `<viewerId>:<bookingId>`): each of its hosts
 * and the type's owner. A host's row shows that host's own event (a collective booking puts one in each host's
 * calendar, `booking.part_changed`); the slots read each host's meetings of a type from these rows.
 */
import { bookingAudience, bookingIn, BookingPart, BookingTokenIssued, isLive, MeetingType, type Booking } from '../contracts/bookings';
import type { RecordedEvent } from '../services/eventstore/event-store.port';
import type { Doc } from '../services/readstore/read-store.port';
import { creationOrderKey } from './creation-order';
import { projection, type ProjectionDocs } from './projection';
import { publicView } from './read-models';

export const BOOKINGS = 'bookings';

/** Bookings list by start; the id makes the key unique. */
export const bookingSortKey = (booking: Pick<Booking, 'startsAt' | 'id'>) => `${booking.startsAt}|${booking.id}`;

export const hostBookingId = (viewerId: string, bookingId: string) => `${viewerId}:${bookingId}`;


type PartFields = Pick<Booking, 'eventId' | 'calendarId' | 'spaceId'>;

function viewerRow(booking: Booking, viewerId: string, part: PartFields | undefined, e: RecordedEvent): Doc {
  return {
    ...booking, ...part, _id: hostBookingId(viewerId, booking.id), _viewerId: viewerId, _hosts: booking.hostIds.includes(viewerId),
    _live: isLive(booking.status), _startMs: Date.parse(booking.startsAt), _createdMs: Date.parse(booking.createdAt),
    _sortKey: bookingSortKey(booking), _part: part ?? null, _pos: e.position, _changedAt: e.metadata.occurredAt,
  };
}

async function bookingChanged(booking: Booking, e: RecordedEvent, docs: ProjectionDocs): Promise<void> {
  const bookings = docs('bookings');
  const existing = await bookings.get(booking.id);
  await bookings.putIfNewer({
    _tokenHash: existing?._tokenHash ?? null, ...booking, _id: booking.id, _pos: e.position, _changedAt: e.metadata.occurredAt,
  });
  const rows = docs('hostBookings');
  for (const viewerId of bookingAudience(booking)) {
    const row = await rows.get(hostBookingId(viewerId, booking.id));
    await rows.putIfNewer(viewerRow(booking, viewerId, (row?._part as PartFields | null) ?? undefined, e));
  }
}

async function partChanged(part: BookingPart, e: RecordedEvent, docs: ProjectionDocs): Promise<void> {
  const rows = docs('hostBookings');
  const row = await rows.get(hostBookingId(part.hostId, part.bookingId));
  const booking = await docs('bookings').get(part.bookingId);
  if (!booking) return;
  const current = publicView<Booking>(row ?? booking);
  await rows.putIfNewer(viewerRow(current, part.hostId, { eventId: part.eventId, calendarId: part.calendarId, spaceId: part.spaceId }, e));
}

export const bookingsProjection = projection({
  name: BOOKINGS,
  version: 2, // v2: the booking options and team hosts; one row per person who sees a booking
  collections: {
    meetingTypes: { indexes: [['ownerId', '_sortKey'], ['ownerId', 'slug'], ['ownerId', '_pos']] },
    bookings: { indexes: [['meetingTypeId']] },
    hostBookings: {
      indexes: [['_viewerId', '_sortKey'], ['_viewerId', '_pos'], ['_viewerId', 'meetingTypeId', '_startMs'], ['_viewerId', 'meetingTypeId', '_createdMs']],
    },
  },
  handles: [
    'meeting_type.created', 'meeting_type.updated', 'meeting_type.deleted',
    'booking.created', 'booking.rescheduled', 'booking.cancelled', 'booking.confirmed', 'booking.declined', 'booking.token_issued',
    'booking.part_changed',
  ],
  async apply(e, docs) {
    if (e.type.startsWith('meeting_type.')) {
      const type = MeetingType.safeParse(e.data);
      if (!type.success) return;
      const types = docs('meetingTypes');
      await types.putIfNewer({
        ...type.data, _id: type.data.id, _pos: e.position, _changedAt: e.metadata.occurredAt,
        _sortKey: await creationOrderKey(types, type.data.id, e.position),
      });
      return;
    }
    if (e.type === 'booking.token_issued') {
      const issued = BookingTokenIssued.safeParse(e.data);
      const bookings = docs('bookings');
      const existing = issued.success ? await bookings.get(issued.data.bookingId) : null;
      if (existing) await bookings.putIfNewer({ ...existing, _pos: e.position, _tokenHash: issued.data!.tokenHash });
      return;
    }
    if (e.type === 'booking.part_changed') {
      const part = BookingPart.safeParse((e.data as { part?: unknown } | null)?.part);
      if (part.success) await partChanged(part.data, e, docs);
      return;
    }
    const booking = bookingIn(e.type, e.data);
    if (booking) await bookingChanged(booking, e, docs);
  },
});
