/**
 * Keeps a collective booking whole after its request is gone: a consumer group on the relayed domain events (part
 * of the dispatcher role). Each change of a collective booking brings its other hosts' parts to it (what the request
 * did already decides nothing again: a part at the booking's version), so a process that died between the booking
 * and its parts leaves no host without the event. A host who cancels their own event of the booking cancels the
 * booking, as the owner of a one-host booking does by cancelling its event.
 */
import { BookingPart, bookingIn, isLive, type Booking } from '../../contracts/bookings';
import { meetingTypeOf, storedBooking } from '../../read-api/bookings/bookings.queries';
import type { AppContext } from '../../services/app-context';
import type { Bus, BusConsumer } from '../../services/bus/bus.port';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { deterministicUuid } from '../../services/ids';
import { consumeDomainEvents, joinInBackground } from '../../services/relay/event-consumer';
import { lookupCaughtUp } from '../schedule/locate';
import { onSchedule } from './booking-steps';
import { syncParts } from './collective';

const BOOKING_TYPES = ['booking.created', 'booking.rescheduled', 'booking.cancelled', 'booking.confirmed', 'booking.declined'];

const isCollective = (b: Booking) => b.assignment?.method === 'collective' && b.hostIds.length > 1;

/** Handles one event (at least once: everything it does is decided against the schedules' state). */
export function bookingPartsHandler(app: AppContext): (event: RecordedEvent) => Promise<boolean> {
  return async (event) => {
    if (event.type === 'booking.part_changed') {
      const part = BookingPart.safeParse((event.data as { part?: unknown }).part);
      if (!part.success || isLive(part.data.status)) return false;
      const stored = await lookupCaughtUp(app, () => storedBooking(app.readModels, part.data.bookingId));
      if (!stored || !isLive(stored.booking.status)) return false;
      await onSchedule(app, stored.booking.spaceId, {
        type: 'CancelBooking', bookingId: stored.booking.id, actor: { kind: 'host', userId: part.data.hostId }, now: new Date().toISOString(),
      }, { userId: part.data.hostId, commandId: deterministicUuid(event.id, 'booking-parts'), correlationId: event.id });
      return true;
    }
    const booking = bookingIn(event.type, event.data);
    if (!booking || !isCollective(booking)) return false;
    const type = await lookupCaughtUp(app, () => meetingTypeOf(app.readModels, booking));
    if (!type) return false;
    await syncParts(app, booking, type);
    return true;
  };
}

export function startBookingPartsConsumer(app: AppContext, bus: Bus): BusConsumer {
  const handle = bookingPartsHandler(app);
  return joinInBackground(
    () => consumeDomainEvents(bus, app.store, app.config.KAFKA_TOPIC, `booking-parts.${app.config.KAFKA_TOPIC}`, app.codec, handle,
      new Set([...BOOKING_TYPES, 'booking.part_changed'])),
    (err, delay) => app.log.warn({ err, delay }, 'the booking parts consumer could not join its consumer group; retrying'),
  );
}
