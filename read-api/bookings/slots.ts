/**
 * Slots of a meeting type, from the availability engine: the type's hours in the host's zone, busy time of all the
 * host's Spaces and fixed routine periods, the type's buffers and minimum notice. Listing slots and checking one
 * requested start are the same computation, so a listed slot is always bookable until someone takes it.
 */
import { BOOKING_HORIZON_DAYS, SLOT_DAYS, type Booking, type MeetingType, type SlotsQuery } from '../../contracts/bookings';
import { localDate, localDays, localMinute, DAY_MS, MINUTE_MS } from '../../services/time/local-time';
import { bookableSlots } from '../../services/availability/slots';
import { freeWindows } from '../../services/availability/timeline';
import type { Blocked, Interval, Rules } from '../../services/availability/types';
import { conflict, notFound } from '../../services/errors';
import { wallClock } from '../../services/time/zone';
import { computeFor } from '../availability/availability.queries';
import type { AvailabilitySources, Owner } from '../availability/sources';

export type SlotRules = Pick<MeetingType, 'durationMinutes' | 'bufferBeforeMinutes' | 'bufferAfterMinutes' | 'minimumNoticeMinutes' | 'hours'>;

export interface Host {
  id: string;
  owner: Owner;
}

export async function hostFor(sources: AvailabilitySources, hostId: string): Promise<Host> {
  const owner = await sources.owner(hostId);
  if (!owner) throw notFound('Meeting type');
  return { id: hostId, owner };
}

/** Slots start on the host's clock every 15 minutes, every 30 for meetings longer than half an hour. */
export const stepMinutesOf = (durationMinutes: number) => (durationMinutes > 30 ? 30 : 15);

/** Most slots one answer lists (31 days of 15-minute steps around the clock). */
const MAX_SLOTS = SLOT_DAYS.max * 96;

/**
 * The engine keeps its buffers around busy time, the type around the meeting: free time before the meeting is time
 * after the busy block before it, and the other way round.
 */
const rulesOf = (type: SlotRules, now: number): Rules => ({
  workingHours: type.hours,
  bufferBeforeMinutes: type.bufferAfterMinutes,
  bufferAfterMinutes: type.bufferBeforeMinutes,
  minimumNoticeMinutes: type.minimumNoticeMinutes,
  now,
});

/** Blocked time of `range` for the type; the booking being moved (`ignoreEventId`) and its buffers do not count. */
async function blockedFor(sources: AvailabilitySources, host: Host, type: SlotRules, range: Interval, now: number, ignoreEventId: string | null): Promise<Blocked[]> {
  const { blocked } = await computeFor(sources, host.id, host.owner, range, rulesOf(type, now));
  return ignoreEventId ? blocked.filter((b) => !('eventId' in b.reason && b.reason.eventId === ignoreEventId)) : blocked;
}

const iso = (ms: number) => new Date(ms).toISOString();

export async function slotsFor(sources: AvailabilitySources, host: Host, type: SlotRules, query: SlotsQuery, now: number, ignoreEventId: string | null = null) {
  const timeZone = query.timeZone ?? host.owner.timeZone;
  const days = localDays(query.from ?? localDate(now, timeZone), query.days ?? SLOT_DAYS.default, timeZone);
  const range = { start: days[0].start, end: days[days.length - 1].end };
  const horizon = now + BOOKING_HORIZON_DAYS * DAY_MS;
  const open = { start: Math.max(range.start, now), end: Math.min(range.end, horizon) };
  const free = open.end > open.start ? freeWindows(open, await blockedFor(sources, host, type, open, now, ignoreEventId)) : [];
  const slots = bookableSlots(free, {
    durationMinutes: type.durationMinutes, stepMinutes: stepMinutesOf(type.durationMinutes), timeZone: host.owner.timeZone, max: MAX_SLOTS,
  });
  return {
    timeZone,
    durationMinutes: type.durationMinutes,
    startsAt: iso(range.start),
    endsAt: iso(range.end),
    slots: slots.map((s) => {
      const local = wallClock(s.start, timeZone).local;
      return { startsAt: iso(s.start), endsAt: iso(s.end), date: local.slice(0, 10), time: local.slice(11, 16) };
    }),
  };
}

/** Where a booking could move: the slots of its type, its own time free; none once it is cancelled. */
export async function rescheduleOptions(sources: AvailabilitySources, booking: Booking, type: SlotRules, query: SlotsQuery, now: number) {
  const slots = await slotsFor(sources, await hostFor(sources, booking.hostId), type, query, now, booking.eventId);
  return { ...slots, slots: booking.status === 'cancelled' ? [] : slots.slots };
}

const unavailable = (reason: string, message: string) => conflict('slot_unavailable', message, { reason });

/**
 * Refuses a start that is not a slot of the type: 409 `slot_unavailable` with the rule it breaks, or 409
 * `slot_taken` when only busy time (or its buffers) is in the way. Returns the slot's end.
 */
export async function requireSlot(sources: AvailabilitySources, host: Host, type: SlotRules, start: number, now: number, ignoreEventId: string | null = null): Promise<number> {
  const end = start + type.durationMinutes * MINUTE_MS;
  if (start < now) throw unavailable('in_past', 'That time has passed');
  if (start > now + BOOKING_HORIZON_DAYS * DAY_MS) throw unavailable('too_far', `Bookings open at most ${BOOKING_HORIZON_DAYS} days ahead`);
  const step = stepMinutesOf(type.durationMinutes);
  if (start % MINUTE_MS !== 0 || localMinute(start, host.owner.timeZone) % step !== 0) {
    throw unavailable('misaligned', `Slots start every ${step} minutes`);
  }
  const range = { start, end };
  const reasons = new Set((await blockedFor(sources, host, type, range, now, ignoreEventId))
    .filter((b) => b.start < end && b.end > start)
    .map((b) => b.reason.type));
  if (reasons.has('outside_hours')) throw unavailable('outside_hours', 'That time is outside the hours of this meeting type');
  if (reasons.has('notice')) throw unavailable('too_soon', `This meeting type needs ${type.minimumNoticeMinutes} minutes\' notice`);
  if (reasons.size) throw conflict('slot_taken', 'That time is no longer free');
  return end;
}
