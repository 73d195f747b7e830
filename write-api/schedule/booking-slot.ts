/**
 * The slot rules every booking command of a schedule shares: busy time (events and other bookings' holds) inside the
 * buffers, the limits per day and week, seats, and the calendar event a booking takes, joins or leaves.
 */
import type { BookingHeld } from '../../contracts/bookings';
import type { Event } from '../../contracts/events';
import { conflict } from '../../services/errors';
import { occurrences } from '../../services/time/recurrence';
import type { BookingIndex } from './booking-index';
import { isBusy, type ScheduleIndex } from './conflicts';

export interface Buffers {
  beforeMinutes: number;
  afterMinutes: number;
}

/** A limit of the type for the span [from, to) around the booking's start (a day or a week of the owner's). */
export interface Quota {
  reason: 'day_limit' | 'week_limit';
  from: string;
  to: string;
  max: number;
}

/** What a booking asks of the slot, beside its times. */
export interface SlotAsk {
  meetingTypeId: string;
  buffers: Buffers;
  quotas: Quota[];
  seats: number;
}

export interface SlotView {
  events: ReadonlyMap<string, Event>;
  index: ScheduleIndex;
  bookingIndex: BookingIndex;
  holds: Map<string, BookingHeld>;
}

const MINUTE = 60_000;

const slotTaken = (details?: unknown) => conflict('slot_taken', 'That time is no longer free', details);
const limitReached = (reason: Quota['reason']) =>
  conflict('slot_unavailable', `This meeting type takes no more bookings that ${reason === 'day_limit' ? 'day' : 'week'}`, { reason });

/** Holds of other bookings that stand at `now`. */
function* otherHolds(view: SlotView, bookingId: string, now: number): Iterable<BookingHeld> {
  for (const hold of view.holds.values()) if (hold.bookingId !== bookingId && Date.parse(hold.expiresAt) > now) yield hold;
}

/** Busy events of the Space (any calendar: the host is one person) and other bookings' holds within the buffers around [start, end). */
function busyAround(view: SlotView, bookingId: string, start: number, end: number, buffers: Buffers, ignoreEventId: string | null, now: number) {
  const from = start - buffers.beforeMinutes * MINUTE;
  const to = end + buffers.afterMinutes * MINUTE;
  const found: Array<{ id: string; startsAt: string; endsAt: string }> = [];
  for (const other of view.index.near(from, to)) {
    if (other.id === ignoreEventId) continue;
    const hit = occurrences(other, from, to).find((o) => isBusy(other, o) && o.start < to && o.end > from);
    if (hit) found.push({ id: other.id, startsAt: new Date(hit.start).toISOString(), endsAt: new Date(hit.end).toISOString() });
  }
  for (const hold of otherHolds(view, bookingId, now)) {
    if (Date.parse(hold.startsAt) < to && Date.parse(hold.endsAt) > from) found.push({ id: hold.bookingId, startsAt: hold.startsAt, endsAt: hold.endsAt });
  }
  return found;
}

/** The event of the type's slot the booking may take a seat in, or null when it needs a new event (or there is no seat left: 409). */
export function seatEvent(view: SlotView, bookingId: string, ask: SlotAsk, startsAt: string, endsAt: string, now: number): Event | null {
  const eventId = view.bookingIndex.eventAt(ask.meetingTypeId, startsAt, endsAt);
  const event = eventId ? view.events.get(eventId) : undefined;
  if (!event || event.status !== 'confirmed' || ask.seats <= 1) return null;
  let taken = view.bookingIndex.seatsTaken(event.id);
  for (const hold of otherHolds(view, bookingId, now)) {
    if (hold.meetingTypeId === ask.meetingTypeId && hold.startsAt === startsAt && hold.endsAt === endsAt) taken++;
  }
  if (taken >= ask.seats) throw conflict('slot_taken', 'No seat is left in that slot', { seats: ask.seats });
  return event;
}

/**
 * A new meeting's checks: nothing busy within its buffers (409 slot_taken) and room under each limit, counting the
 * type's meetings of this schedule and other bookings' holds (409 slot_unavailable, `day_limit` / `week_limit`).
 */
export function requireNewMeeting(view: SlotView, bookingId: string, ask: SlotAsk, startsAt: string, endsAt: string, ignoreEventId: string | null, now: number): void {
  const conflicts = busyAround(view, bookingId, Date.parse(startsAt), Date.parse(endsAt), ask.buffers, ignoreEventId, now);
  if (conflicts.length) throw slotTaken({ conflicts });
  for (const quota of ask.quotas) {
    const from = Date.parse(quota.from);
    const to = Date.parse(quota.to);
    let count = view.bookingIndex.meetings(ask.meetingTypeId, from, to, ignoreEventId);
    for (const hold of otherHolds(view, bookingId, now)) {
      const start = Date.parse(hold.startsAt);
      if (hold.meetingTypeId === ask.meetingTypeId && start >= from && start < to) count++;
    }
    if (count >= quota.max) throw limitReached(quota.reason);
  }
}

type Guest = { name: string; email: string };

const attendeeOf = (guest: Guest): Event['attendees'][number] => ({ email: guest.email, name: guest.name, userId: null, response: 'yes' });

/** The event taking one more guest's seat. */
export const joined = (event: Event, guest: Guest, now: string): Event => ({
  ...event, attendees: [...event.attendees, attendeeOf(guest)], updatedAt: now, version: event.version + 1,
});

export interface NewEvent {
  id: string;
  spaceId: string;
  calendarId: string;
  title: string;
  description: string | null;
  location: string | null;
  startsAt: string;
  endsAt: string;
  timeZone: string;
  reminders: Event['reminders'];
  createdBy: string;
}

export const newBookingEvent = (e: NewEvent, guest: Guest, now: string): Event => ({
  ...e, meetingUrl: null, kind: 'meeting', allDay: false, busy: true, recurrenceRule: null, taskId: null, goalId: null, resources: [],
  attendees: [attendeeOf(guest)], allowOverlap: false, exceptions: [], icalUid: null, icalRecurrenceId: null, status: 'confirmed', createdAt: now, updatedAt: now,
  deletedAt: null, version: 1,
});

/** The event once a guest leaves it: without their seat, or cancelled when nobody else is on it. Null when there is none. */
export function left(view: SlotView, eventId: string | null, guest: Guest, now: string): { type: 'event.updated' | 'event.cancelled'; data: Event } | null {
  const event = eventId ? view.events.get(eventId) : undefined;
  if (!event || event.status !== 'confirmed') return null;
  const version = event.version + 1;
  if (view.bookingIndex.seatsTaken(event.id) > 1) {
    const at = event.attendees.findIndex((a) => a.email.toLowerCase() === guest.email.toLowerCase());
    const attendees = at < 0 ? event.attendees : [...event.attendees.slice(0, at), ...event.attendees.slice(at + 1)];
    return { type: 'event.updated', data: { ...event, attendees, updatedAt: now, version } };
  }
  return { type: 'event.cancelled', data: { ...event, status: 'cancelled', updatedAt: now, deletedAt: now, version } };
}

/** The booking's event moved to new times (the booking alone on it). */
const moved = (event: Event, startsAt: string, endsAt: string, now: string): Event => ({
  ...event, startsAt, endsAt, updatedAt: now, version: event.version + 1,
});

export type EventChange = { type: 'event.created' | 'event.updated' | 'event.cancelled'; data: Event };

/**
 * Where a booking's seat goes when it moves to [startsAt, endsAt): a seat in the type's event of that slot, its own
 * event moved (when it is alone on it), or a new event (`fresh`, made from its current one). With `checked`, the new
 * time must be free and under the limits; a collective booking's other hosts follow without checks.
 */
export function relocation(
  view: SlotView, booking: { id: string; eventId: string | null; guest: Guest }, ask: SlotAsk, startsAt: string, endsAt: string,
  fresh: (current: Event | null) => Event, now: string, checked: boolean,
): { events: EventChange[]; eventId: string } {
  const at = Date.parse(now);
  if (booking.eventId && view.bookingIndex.eventAt(ask.meetingTypeId, startsAt, endsAt) === booking.eventId) return { events: [], eventId: booking.eventId };
  const seat = seatEvent(view, booking.id, checked ? ask : { ...ask, seats: Number.MAX_SAFE_INTEGER }, startsAt, endsAt, at);
  const current = booking.eventId ? view.events.get(booking.eventId) ?? null : null;
  const leaving = () => { const change = left(view, booking.eventId, booking.guest, now); return change ? [change] : []; };
  if (seat) return { events: [...leaving(), { type: 'event.updated', data: joined(seat, booking.guest, now) }], eventId: seat.id };
  const alone = current !== null && current.status === 'confirmed' && view.bookingIndex.seatsTaken(current.id) <= 1;
  if (checked) requireNewMeeting(view, booking.id, ask, startsAt, endsAt, alone ? current.id : null, at);
  if (alone) return { events: [{ type: 'event.updated', data: moved(current, startsAt, endsAt, now) }], eventId: current.id };
  const made = fresh(current);
  return { events: [...leaving(), { type: 'event.created', data: made }], eventId: made.id };
}
