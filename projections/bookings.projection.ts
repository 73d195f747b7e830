/**
 * Meeting types and bookings: what GET /meeting-types, /bookings, the public pages and /sync read. A booking row
 * keeps the hash of its guest's manage token (`_tokenHash`, never answered) for the guest's reads.
 */
import { bookingIn, BookingTokenIssued, MeetingType, type Booking } from '../contracts/bookings';
import { creationOrderKey } from './creation-order';
import { projection } from './projection';

export const BOOKINGS = 'bookings';

/** Bookings list by start; the id makes the key unique. */
export const bookingSortKey = (booking: Pick<Booking, 'startsAt' | 'id'>) => `${booking.startsAt}|${booking.id}`;

export const bookingsProjection = projection({
  name: BOOKINGS,
  version: 1,
  collections: {
    meetingTypes: { indexes: [['ownerId', '_sortKey'], ['ownerId', 'slug'], ['ownerId', '_pos']] },
    bookings: { indexes: [['hostId', '_sortKey'], ['meetingTypeId'], ['hostId', '_pos']] },
  },
  handles: [
    'meeting_type.created', 'meeting_type.updated', 'meeting_type.deleted',
    'booking.created', 'booking.rescheduled', 'booking.cancelled', 'booking.token_issued',
  ],
  async apply(e, docs) {
    const changedAt = e.metadata.occurredAt;
    if (e.type.startsWith('meeting_type.')) {
      const type = MeetingType.safeParse(e.data);
      if (!type.success) return;
      const types = docs('meetingTypes');
      await types.putIfNewer({
        ...type.data, _id: type.data.id, _pos: e.position, _changedAt: changedAt,
        _sortKey: await creationOrderKey(types, type.data.id, e.position),
      });
      return;
    }
    const bookings = docs('bookings');
    if (e.type === 'booking.token_issued') {
      const issued = BookingTokenIssued.safeParse(e.data);
      const existing = issued.success ? await bookings.get(issued.data.bookingId) : null;
      if (existing) await bookings.putIfNewer({ ...existing, _pos: e.position, _tokenHash: issued.data!.tokenHash });
      return;
    }
    const booking = bookingIn(e.type, e.data);
    if (!booking) return;
    const existing = await bookings.get(booking.id);
    await bookings.putIfNewer({
      _tokenHash: existing?._tokenHash ?? null, ...booking, _id: booking.id, _pos: e.position, _changedAt: changedAt,
      _sortKey: bookingSortKey(booking), _startMs: Date.parse(booking.startsAt),
    });
  },
});
