/**
 * A collective booking in the schedules of its hosts (docs/bookings.md, "Collective bookings"). Before the booking
 * is decided in its first host's schedule, every host's schedule holds the slot (`HoldSlot`, in a fixed order) with
 * the same rules a booking meets there; a refusal releases the holds made so far, and a hold nobody released lapses
 * at its expiry. Once the booking is decided, each other host's schedule keeps a part (`SyncPart`): that host's event,
 * following the booking's times and state, version by version. A part is never refused: its hold kept the time.
 */
import { isLive, type BookingHeld, type BookingPart } from '../../contracts/bookings';
import type { Event } from '../../contracts/events';
import { notFound } from '../../services/errors';
import type { Seated } from './booking-index';
import { left, newBookingEvent, relocation, requireNewMeeting, seatEvent, type EventChange, type SlotAsk, type SlotView } from './booking-slot';

export type PartCommand =
  | { type: 'HoldSlot'; hold: BookingHeld; ask: SlotAsk; /** The booking's own event here, when it moves. */ ignoreEventId: string | null; now: string }
  | { type: 'ReleaseHold'; bookingId: string; hostId: string }
  | {
      type: 'SyncPart';
      /** The part as the booking now is; `eventId`: the event to make when the host needs a new one. */
      part: BookingPart;
      event: { title: string; description: string | null; location: string | null; timeZone: string; reminders: Event['reminders'] };
      now: string;
    };

export type PartEvent =
  | EventChange
  | { type: 'booking.held'; data: BookingHeld }
  | { type: 'booking.hold_released'; data: { bookingId: string; hostId: string } }
  | { type: 'booking.part_changed'; data: { part: BookingPart } };

export interface PartsView {
  holds: Map<string, BookingHeld>;
  parts: Map<string, BookingPart>;
}

interface View extends SlotView, PartsView {
  space: { id: string; ownerId: string } | null;
  bookings: ReadonlyMap<string, { booking: Seated }>;
}

const seatedOf = (part: BookingPart): Seated => ({ ...part, id: part.bookingId });

function requireHostsSpace(view: View, hostId: string): void {
  if (!view.space || view.space.ownerId !== hostId) throw notFound('Space');
}

/** The booking already sits here at those times (a saga run again after a crash). */
function alreadyThere(view: View, bookingId: string, startsAt: string, endsAt: string): boolean {
  const here = view.bookings.get(bookingId)?.booking ?? (view.parts.has(bookingId) ? seatedOf(view.parts.get(bookingId)!) : undefined);
  return !!here && isLive(here.status) && here.startsAt === startsAt && here.endsAt === endsAt;
}

function hold(command: Extract<PartCommand, { type: 'HoldSlot' }>, view: View): PartEvent[] {
  const h = command.hold;
  requireHostsSpace(view, h.hostId);
  const held = view.holds.get(h.bookingId);
  if (held && held.startsAt === h.startsAt && held.endsAt === h.endsAt && Date.parse(held.expiresAt) > Date.parse(command.now)) return [];
  if (alreadyThere(view, h.bookingId, h.startsAt, h.endsAt)) return [];
  const now = Date.parse(command.now);
  if (!seatEvent(view, h.bookingId, command.ask, h.startsAt, h.endsAt, now)) {
    requireNewMeeting(view, h.bookingId, command.ask, h.startsAt, h.endsAt, command.ignoreEventId, now);
  }
  return [{ type: 'booking.held', data: h }];
}

function sync(command: Extract<PartCommand, { type: 'SyncPart' }>, view: View): PartEvent[] {
  const want = command.part;
  requireHostsSpace(view, want.hostId);
  const current = view.parts.get(want.bookingId);
  if (current && (current.version >= want.version || !isLive(current.status))) return [];
  const guest = want.guest;
  const changed = (eventId: string): PartEvent => ({ type: 'booking.part_changed', data: { part: { ...want, eventId } } });
  if (!isLive(want.status)) {
    const gone = current ? left(view, current.eventId, guest, command.now) : null;
    return [...(gone ? [gone] : []), changed(current?.eventId ?? want.eventId)];
  }
  if (current && current.startsAt === want.startsAt && current.endsAt === want.endsAt) return [changed(current.eventId)];
  const ask: SlotAsk = { meetingTypeId: want.meetingTypeId, buffers: { beforeMinutes: 0, afterMinutes: 0 }, quotas: [], seats: Number.MAX_SAFE_INTEGER };
  const fresh = (): Event => newBookingEvent({
    id: want.eventId, spaceId: view.space!.id, calendarId: want.calendarId, ...command.event, startsAt: want.startsAt, endsAt: want.endsAt,
    createdBy: want.hostId,
  }, guest, command.now);
  const seat = { id: want.bookingId, eventId: current?.eventId ?? null, guest };
  const { events, eventId } = relocation(view, seat, ask, want.startsAt, want.endsAt, fresh, command.now, false);
  return [...events, changed(eventId)];
}

export function decidePart(command: PartCommand, view: View): PartEvent[] {
  switch (command.type) {
    case 'HoldSlot':
      return hold(command, view);
    case 'ReleaseHold':
      return view.holds.has(command.bookingId) ? [{ type: 'booking.hold_released', data: { bookingId: command.bookingId, hostId: command.hostId } }] : [];
    case 'SyncPart':
      return sync(command, view);
  }
}

/** The host cancelled a part's event in their calendar: the part ends here (the booking itself follows, docs/bookings.md). */
export function partsOfCancelledEvent(view: View & { bookingsByEvent: ReadonlyMap<string, Set<string>> }, eventId: string): PartEvent[] {
  const out: PartEvent[] = [];
  for (const id of view.bookingsByEvent.get(eventId) ?? []) {
    const part = view.parts.get(id);
    if (part && part.eventId === eventId && isLive(part.status)) out.push({ type: 'booking.part_changed', data: { part: { ...part, status: 'cancelled' } } });
  }
  return out;
}

export function evolvePart(view: View & { bookingsByEvent: Map<string, Set<string>> }, event: PartEvent): void {
  switch (event.type) {
    case 'booking.held': {
      for (const [id, other] of view.holds) if (Date.parse(other.expiresAt) <= Date.parse(event.data.heldAt)) view.holds.delete(id);
      view.holds.set(event.data.bookingId, event.data);
      return;
    }
    case 'booking.hold_released':
      return void view.holds.delete(event.data.bookingId);
    case 'booking.part_changed': {
      const part = event.data.part;
      const before = view.parts.get(part.bookingId);
      view.bookingIndex.put(before && seatedOf(before), seatedOf(part));
      view.parts.set(part.bookingId, part);
      view.holds.delete(part.bookingId);
      view.bookingsByEvent.set(part.eventId, (view.bookingsByEvent.get(part.eventId) ?? new Set()).add(part.bookingId));
      return;
    }
  }
}
