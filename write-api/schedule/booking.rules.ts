/**
 * Bookings in the Space schedule: a booking and its calendar event are decided together, so the schedule's view of
 * busy time decides whether a slot is still free (of concurrent bookings of one slot exactly one wins), and a move
 * or cancellation changes the event in the same append.
 *
 * Whether a time is a slot of the meeting type at all (hours, notice, alignment, busy time in the host's other
 * Spaces and routines) is checked by the route with the availability engine before the command; the schedule
 * re-checks what can change between that read and the append: busy events of this Space, with the type's buffers.
 */
import type { Booking } from '../../contracts/bookings';
import type { Event } from '../../contracts/events';
import { conflict, notFound } from '../../services/errors';
import { occurrences } from '../../services/time/recurrence';
import { isBusy, type ScheduleIndex } from './conflicts';

export const bookingCancelled = () => conflict('booking_cancelled', 'A cancelled booking cannot move');

/** Who asks: the host (by user id) or the guest (by the hash of the manage token). */
export type BookingActor = { kind: 'host'; userId: string } | { kind: 'guest'; tokenHash: string };

export interface Buffers {
  beforeMinutes: number;
  afterMinutes: number;
}

export type BookingCommand =
  | {
      type: 'BookSlot';
      booking: Omit<Booking, 'spaceId' | 'status' | 'cancelledBy' | 'createdAt' | 'updatedAt' | 'version'>;
      /** The calendar event's fields that do not follow from the booking. */
      title: string;
      buffers: Buffers;
      /** The host's default reminders. */
      reminders: Event['reminders'];
      tokenHash: string;
      now: string;
    }
  | { type: 'RescheduleBooking'; bookingId: string; actor: BookingActor; startsAt: string; endsAt: string; buffers: Buffers; now: string }
  | { type: 'CancelBooking'; bookingId: string; actor: BookingActor; now: string };

export type BookingEvent =
  | { type: 'event.created' | 'event.updated' | 'event.cancelled'; data: Event }
  | { type: 'booking.created' | 'booking.cancelled'; data: Booking }
  | { type: 'booking.rescheduled'; data: { data: Booking; previous: { startsAt: string; endsAt: string } } }
  | { type: 'booking.token_issued'; data: { bookingId: string; hostId: string; tokenHash: string } };

export interface BookingRecord {
  booking: Booking;
  tokenHash: string | null;
}

/** What the booking rules need of the schedule. */
export interface BookingView {
  space: { id: string; ownerId: string } | null;
  calendars: ReadonlyMap<string, unknown>;
  events: ReadonlyMap<string, Event>;
  index: ScheduleIndex;
  bookings: Map<string, BookingRecord>;
  /** Event id -> the booking that put it there. */
  bookingByEvent: Map<string, string>;
}

const MINUTE = 60_000;

/** Busy events of the Space (any calendar: the host is one person) within the buffers around [start, end). */
export function busyAround(view: BookingView, start: number, end: number, buffers: Buffers, ignoreEventId: string | null) {
  const from = start - buffers.beforeMinutes * MINUTE;
  const to = end + buffers.afterMinutes * MINUTE;
  const found: Array<{ id: string; startsAt: string; endsAt: string }> = [];
  for (const other of view.index.near(from, to)) {
    if (other.id === ignoreEventId) continue;
    const hit = occurrences(other, from, to).find((o) => isBusy(other, o) && o.start < to && o.end > from);
    if (hit) found.push({ id: other.id, startsAt: new Date(hit.start).toISOString(), endsAt: new Date(hit.end).toISOString() });
  }
  return found;
}

function requireFree(view: BookingView, startsAt: string, endsAt: string, buffers: Buffers, ignoreEventId: string | null): void {
  const conflicts = busyAround(view, Date.parse(startsAt), Date.parse(endsAt), buffers, ignoreEventId);
  if (conflicts.length) throw conflict('slot_taken', 'That time is no longer free', { conflicts });
}

/** The booking if the actor may change it: its host, or the guest holding its token. Anyone else: 404. */
function requireBooking(view: BookingView, bookingId: string, actor: BookingActor): Booking {
  const record = view.bookings.get(bookingId);
  const allowed = record && (actor.kind === 'host' ? record.booking.hostId === actor.userId : record.tokenHash === actor.tokenHash);
  if (!record || !allowed) throw notFound('Booking');
  return record.booking;
}

const liveEvent = (view: BookingView, id: string | null) => {
  const event = id ? view.events.get(id) : undefined;
  return event && event.status === 'confirmed' ? event : null;
};

export function decideBooking(command: BookingCommand, view: BookingView): BookingEvent[] {
  switch (command.type) {
    case 'BookSlot': {
      const b = command.booking;
      if (!view.space || view.space.ownerId !== b.hostId) throw notFound('Space');
      if (!view.calendars.has(b.calendarId)) throw notFound('Calendar');
      if (view.bookings.has(b.id) || (b.eventId && view.events.has(b.eventId))) throw conflict('duplicate_id', 'A booking with this id exists');
      requireFree(view, b.startsAt, b.endsAt, command.buffers, null);
      const { id, meetingTypeId, meetingTypeName, hostId, ...rest } = b;
      const booking: Booking = {
        id, meetingTypeId, meetingTypeName, hostId, spaceId: view.space.id, ...rest,
        status: 'confirmed', cancelledBy: null, createdAt: command.now, updatedAt: command.now, version: 1,
      };
      const event: Event = {
        id: b.eventId!, spaceId: view.space.id, calendarId: b.calendarId, title: command.title, description: b.note,
        location: b.location, meetingUrl: null, kind: 'meeting', startsAt: b.startsAt, endsAt: b.endsAt, timeZone: b.timeZone,
        allDay: false, busy: true, recurrenceRule: null, taskId: null, goalId: null, resources: [],
        attendees: [{ email: b.guest.email, name: b.guest.name, userId: null, response: 'yes' }], reminders: command.reminders,
        allowOverlap: false, exceptions: [], icalUid: null, icalRecurrenceId: null, status: 'confirmed', createdBy: b.hostId, createdAt: command.now, updatedAt: command.now, deletedAt: null, version: 1,
      };
      return [
        { type: 'event.created', data: event },
        { type: 'booking.created', data: booking },
        { type: 'booking.token_issued', data: { bookingId: b.id, hostId: b.hostId, tokenHash: command.tokenHash } },
      ];
    }
    case 'RescheduleBooking': {
      const current = requireBooking(view, command.bookingId, command.actor);
      if (current.status === 'cancelled') throw bookingCancelled();
      requireFree(view, command.startsAt, command.endsAt, command.buffers, current.eventId);
      const moved: Booking = {
        ...current, startsAt: command.startsAt, endsAt: command.endsAt, updatedAt: command.now, version: current.version + 1,
      };
      const previous = { startsAt: current.startsAt, endsAt: current.endsAt };
      const event = liveEvent(view, current.eventId);
      return [
        ...(event ? [{ type: 'event.updated' as const, data: { ...event, startsAt: moved.startsAt, endsAt: moved.endsAt, updatedAt: command.now, version: event.version + 1 } }] : []),
        { type: 'booking.rescheduled', data: { data: moved, previous } },
      ];
    }
    case 'CancelBooking': {
      const current = requireBooking(view, command.bookingId, command.actor);
      if (current.status === 'cancelled') return [];
      return cancellation(view, current, command.actor.kind, command.now, true);
    }
  }
}

function cancellation(view: BookingView, current: Booking, by: 'guest' | 'host', now: string, withEvent: boolean): BookingEvent[] {
  const cancelled: Booking = { ...current, status: 'cancelled', cancelledBy: by, updatedAt: now, version: current.version + 1 };
  const event = withEvent ? liveEvent(view, current.eventId) : null;
  return [
    ...(event ? [{ type: 'event.cancelled' as const, data: { ...event, status: 'cancelled' as const, updatedAt: now, deletedAt: now, version: event.version + 1 } }] : []),
    { type: 'booking.cancelled', data: cancelled },
  ];
}

/** The host cancelled a booking's event in the calendar (DELETE /events/{id}): the booking is cancelled with it. */
export function bookingOfCancelledEvent(view: BookingView, eventId: string, now: string): BookingEvent[] {
  const bookingId = view.bookingByEvent.get(eventId);
  const record = bookingId ? view.bookings.get(bookingId) : undefined;
  if (!record || record.booking.status === 'cancelled') return [];
  return cancellation(view, record.booking, 'host', now, false);
}

export function evolveBooking(view: BookingView, event: BookingEvent): void {
  switch (event.type) {
    case 'booking.created':
    case 'booking.cancelled':
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
  view.bookings.set(booking.id, { booking, tokenHash: record?.tokenHash ?? null });
  if (booking.eventId) view.bookingByEvent.set(booking.eventId, booking.id);
}
