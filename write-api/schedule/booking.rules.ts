/**
 * Bookings in the Space schedule: a booking and its calendar event are decided together, so the schedule's view of
 * busy time decides whether a slot is still free (of concurrent bookings of one slot exactly one wins; of a slot with
 * seats, as many as it has), the limits per day and week hold, and a move, a cancellation or the host's answer
 * changes the event in the same append.
 *
 * Whether a time is a slot of the meeting type at all (hours, date overrides, notice, alignment, busy time in the
 * host's other Spaces and routines) is checked by the route with the availability engine before the command; the
 * schedule re-checks what can change between that read and the append. A collective booking is decided here in its
 * first host's schedule, after holds in every host's (booking-parts.rules.ts).
 */
import { isLive, type Booking } from '../../contracts/bookings';
import type { Event } from '../../contracts/events';
import { conflict, notFound } from '../../services/errors';
import type { BookingIndex } from './booking-index';
import type { PartsView } from './booking-parts.rules';
import {
  joined, left, newBookingEvent, relocation, requireNewMeeting, seatEvent, type EventChange, type SlotAsk, type SlotView,
} from './booking-slot';

export const bookingCancelled = () => conflict('booking_cancelled', 'A cancelled or declined booking cannot move');

/** Who asks: a host (by user id: one of the booking's hosts or the type's owner) or the guest (by the hash of the manage token). */
export type BookingActor = { kind: 'host'; userId: string } | { kind: 'guest'; tokenHash: string };

export type NewBooking = Omit<Booking, 'spaceId' | 'status' | 'cancelledBy' | 'createdAt' | 'updatedAt' | 'version'>;

/** The calendar event's fields that do not follow from the booking. */
export interface EventDetails {
  title: string;
  description: string | null;
  reminders: Event['reminders'];
}

export type BookingCommand =
  | {
      type: 'BookSlot';
      booking: NewBooking;
      event: EventDetails;
      ask: SlotAsk;
      /** The booking is `pending` until a host answers. */
      requiresConfirmation: boolean;
      tokenHash: string;
      now: string;
    }
  /** `newEventId`: the event to make when the booking cannot take its own along (it shares a slot's event with other guests). */
  | { type: 'RescheduleBooking'; bookingId: string; actor: BookingActor; startsAt: string; endsAt: string; ask: SlotAsk; newEventId: string; now: string }
  | { type: 'CancelBooking'; bookingId: string; actor: BookingActor; now: string }
  | { type: 'AnswerBooking'; bookingId: string; actor: BookingActor; answer: 'confirm' | 'decline'; now: string };

type BookingChange = { type: 'booking.created' | 'booking.cancelled' | 'booking.confirmed' | 'booking.declined'; data: Booking };

export type BookingEvent =
  | EventChange
  | BookingChange
  | { type: 'booking.rescheduled'; data: { data: Booking; previous: { startsAt: string; endsAt: string } } }
  | { type: 'booking.token_issued'; data: { bookingId: string; hostId: string; tokenHash: string } };

export interface BookingRecord {
  booking: Booking;
  tokenHash: string | null;
}

/** What the booking rules need of the schedule. */
export interface BookingView extends SlotView, PartsView {
  space: { id: string; ownerId: string } | null;
  calendars: ReadonlyMap<string, unknown>;
  bookingIndex: BookingIndex;
  bookings: Map<string, BookingRecord>;
  /** Event id -> the bookings that were ever on it. */
  bookingsByEvent: Map<string, Set<string>>;
}

const mayHost = (booking: Pick<Booking, 'hostIds' | 'ownerId'>, userId: string) => booking.ownerId === userId || booking.hostIds.includes(userId);

/** The booking if the actor may change it: a host, the type's owner, or the guest holding its token. Anyone else: 404. */
function requireBooking(view: BookingView, bookingId: string, actor: BookingActor): Booking {
  const record = view.bookings.get(bookingId);
  const allowed = record && (actor.kind === 'host' ? mayHost(record.booking, actor.userId) : record.tokenHash === actor.tokenHash);
  if (!record || !allowed) throw notFound('Booking');
  return record.booking;
}

const notPending = (booking: Booking) => conflict('booking_not_pending', `The booking is ${booking.status}`, { status: booking.status });

function book(command: Extract<BookingCommand, { type: 'BookSlot' }>, view: BookingView): BookingEvent[] {
  const b = command.booking;
  if (!view.space || view.space.ownerId !== b.hostId) throw notFound('Space');
  if (!view.calendars.has(b.calendarId)) throw notFound('Calendar');
  if (view.bookings.has(b.id) || (b.eventId && view.events.has(b.eventId))) throw conflict('duplicate_id', 'A booking with this id exists');
  const now = Date.parse(command.now);
  const seat = seatEvent(view, b.id, command.ask, b.startsAt, b.endsAt, now);
  if (!seat) requireNewMeeting(view, b.id, command.ask, b.startsAt, b.endsAt, null, now);
  const booking: Booking = {
    ...b, spaceId: view.space.id, eventId: seat?.id ?? b.eventId, status: command.requiresConfirmation ? 'pending' : 'confirmed',
    cancelledBy: null, createdAt: command.now, updatedAt: command.now, version: 1,
  };
  const event = seat
    ? { type: 'event.updated' as const, data: joined(seat, b.guest, command.now) }
    : {
        type: 'event.created' as const,
        data: newBookingEvent({
          id: b.eventId!, spaceId: view.space.id, calendarId: b.calendarId, ...command.event, location: b.location, startsAt: b.startsAt,
          endsAt: b.endsAt, timeZone: b.timeZone, createdBy: b.hostId,
        }, b.guest, command.now),
      };
  return [
    event,
    { type: 'booking.created', data: booking },
    { type: 'booking.token_issued', data: { bookingId: b.id, hostId: b.hostId, tokenHash: command.tokenHash } },
  ];
}

function reschedule(command: Extract<BookingCommand, { type: 'RescheduleBooking' }>, view: BookingView): BookingEvent[] {
  const current = requireBooking(view, command.bookingId, command.actor);
  if (!isLive(current.status)) throw bookingCancelled();
  const fresh = (from: Event | null): Event => newBookingEvent({
    id: command.newEventId, spaceId: current.spaceId, calendarId: current.calendarId, title: from?.title ?? current.meetingTypeName,
    description: from?.description ?? null, location: current.location, startsAt: command.startsAt, endsAt: command.endsAt,
    timeZone: current.timeZone, reminders: from?.reminders ?? [], createdBy: current.hostId,
  }, current.guest, command.now);
  const { events, eventId } = relocation(view, current, command.ask, command.startsAt, command.endsAt, fresh, command.now, true);
  const moved: Booking = {
    ...current, eventId, startsAt: command.startsAt, endsAt: command.endsAt, updatedAt: command.now, version: current.version + 1,
  };
  return [...events, { type: 'booking.rescheduled', data: { data: moved, previous: { startsAt: current.startsAt, endsAt: current.endsAt } } }];
}

/** The booking leaving its event, as `status`; the event changes with it unless it is already gone (`withEvent` false). */
function ended(view: BookingView, current: Booking, status: 'cancelled' | 'declined', by: 'guest' | 'host', now: string, withEvent: boolean): BookingEvent[] {
  const data: Booking = { ...current, status, cancelledBy: by, updatedAt: now, version: current.version + 1 };
  const event = withEvent ? left(view, current.eventId, current.guest, now) : null;
  return [...(event ? [event] : []), { type: status === 'cancelled' ? 'booking.cancelled' : 'booking.declined', data }];
}

function answer(command: Extract<BookingCommand, { type: 'AnswerBooking' }>, view: BookingView): BookingEvent[] {
  const current = requireBooking(view, command.bookingId, command.actor);
  const wanted = command.answer === 'confirm' ? 'confirmed' : 'declined';
  if (current.status === wanted) return [];
  if (current.status !== 'pending') throw notPending(current);
  if (command.answer === 'decline') return ended(view, current, 'declined', 'host', command.now, true);
  return [{ type: 'booking.confirmed', data: { ...current, status: 'confirmed', updatedAt: command.now, version: current.version + 1 } }];
}

export function decideBooking(command: BookingCommand, view: BookingView): BookingEvent[] {
  switch (command.type) {
    case 'BookSlot':
      return book(command, view);
    case 'RescheduleBooking':
      return reschedule(command, view);
    case 'CancelBooking': {
      const current = requireBooking(view, command.bookingId, command.actor);
      if (!isLive(current.status)) return [];
      return ended(view, current, 'cancelled', command.actor.kind, command.now, true);
    }
    case 'AnswerBooking':
      return answer(command, view);
  }
}

/** A host cancelled a booking's event in the calendar (DELETE /events/{id}): every live booking on it is cancelled with it. */
export function bookingsOfCancelledEvent(view: BookingView, eventId: string, now: string): BookingEvent[] {
  const out: BookingEvent[] = [];
  for (const id of view.bookingsByEvent.get(eventId) ?? []) {
    const record = view.bookings.get(id);
    if (record && isLive(record.booking.status) && record.booking.eventId === eventId) out.push(...ended(view, record.booking, 'cancelled', 'host', now, false));
  }
  return out;
}

export function evolveBooking(view: BookingView, event: BookingEvent): void {
  switch (event.type) {
    case 'booking.created':
    case 'booking.cancelled':
    case 'booking.confirmed':
    case 'booking.declined':
      return remember(view, event.data);
    case 'booking.rescheduled':
      return remember(view, event.data.data);
    case 'booking.token_issued': {
      const record = view.bookings.get(event.data.bookingId);
      if (record) record.tokenHash = event.data.tokenHash;
      return;
    }
  }
}

function remember(view: BookingView, booking: Booking): void {
  const record = view.bookings.get(booking.id);
  view.bookingIndex.put(record?.booking, booking);
  view.bookings.set(booking.id, { booking, tokenHash: record?.tokenHash ?? null });
  view.holds.delete(booking.id);
  if (booking.eventId) view.bookingsByEvent.set(booking.eventId, (view.bookingsByEvent.get(booking.eventId) ?? new Set()).add(booking.id));
}
