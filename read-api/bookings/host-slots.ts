/**
 * One host's slots of a meeting type, from the availability engine: busy time of all the host's Spaces and fixed
 * routine periods with the type's buffers and notice, the type's hours and date overrides on the owner's clock, the
 * days and weeks where the host has reached a limit, and the seats left in the host's meetings of the type.
 * Listing slots and checking one requested start are the same computation, so a listed slot is always bookable
 * until someone takes it.
 */
import type { MeetingType } from '../../contracts/bookings';
import { complement, mergeIntervals } from '../../services/availability/intervals';
import { bookableSlots } from '../../services/availability/slots';
import type { Blocked, Interval, Rules } from '../../services/availability/types';
import { DAY_MS } from '../../services/time/local-time';
import type { ReadModels } from '../../projections/read-models';
import { computeFor } from '../availability/availability.queries';
import type { AvailabilitySources, Owner } from '../availability/sources';
import { limitSpans, meetingHoursIn, type LimitSpan } from './meeting-hours';
import { hostMeetings, type Meeting } from './meetings.queries';

export type SlotRules = Pick<
  MeetingType,
  'id' | 'bufferBeforeMinutes' | 'bufferAfterMinutes' | 'minimumNoticeMinutes' | 'hours' | 'dateOverrides' | 'limits' | 'seats'
>;

export interface Host {
  id: string;
  owner: Owner;
}

/** The owner's wall clock, which the type's hours, days and weeks are read on. */
export interface TypeClock {
  timeZone: string;
  weekStartsOn: number;
}

export interface SlotInputs {
  sources: AvailabilitySources;
  models: ReadModels;
}

export interface HostSlot extends Interval {
  seatsLeft: number;
  /** The host's meeting a booking at this slot joins (a seat), or null for a new meeting. */
  eventId: string | null;
}

/** Slots start on the owner's clock every 15 minutes, every 30 for meetings longer than half an hour. */
export const stepMinutesOf = (durationMinutes: number) => (durationMinutes > 30 ? 30 : 15);

/**
 * The engine keeps its buffers around busy time, the type around the meeting: free time before the meeting is time
 * after the busy block before it, and the other way round. Hours are the type's (meeting-hours.ts), not the engine's.
 */
const rulesOf = (type: SlotRules, now: number): Rules => ({
  workingHours: null,
  bufferBeforeMinutes: type.bufferAfterMinutes,
  bufferAfterMinutes: type.bufferBeforeMinutes,
  minimumNoticeMinutes: type.minimumNoticeMinutes,
  now,
});

const fromEvent = (b: Blocked, eventId: string | null) => eventId !== null && 'eventId' in b.reason && b.reason.eventId === eventId;

/** What stands in the way of a host's new meetings over `range`, and the host's meetings there with their seats. */
export interface HostDay {
  /** Busy time, buffers, notice and outside the hours. */
  blocked: Blocked[];
  /** Days and weeks at a limit (a seat in an existing meeting is still offered there). */
  limited: Array<Interval & { reason: LimitSpan['reason'] }>;
  meetings: Meeting[];
}

/** `moving`: a booking whose own time does not count (its meeting, unless other guests share it, and its place in the limits). */
export async function hostDay(
  inputs: SlotInputs, host: Host, type: SlotRules, clock: TypeClock, range: Interval, now: number, moving: string | null,
): Promise<HostDay> {
  const around = { start: range.start - 8 * DAY_MS, end: range.end + 8 * DAY_MS };
  const [{ blocked }, all] = await Promise.all([
    computeFor(inputs.sources, host.id, host.owner, range, rulesOf(type, now)),
    hostMeetings(inputs.models, host.id, type.id, around),
  ]);
  const own = all.find((m) => moving !== null && m.bookingIds.length === 1 && m.bookingIds[0] === moving);
  const meetings = all.filter((m) => m !== own);
  const outside = complement(range, meetingHoursIn(range, type, clock.timeZone)).map((gap) => ({ ...gap, reason: { type: 'outside_hours' as const } }));
  return {
    blocked: [...blocked.filter((b) => !fromEvent(b, own?.eventId ?? null)), ...outside],
    limited: limitedSpans(meetings, type, clock, range),
    meetings,
  };
}

/** Days and weeks inside `range` where the host's meetings of the type have reached a limit. */
function limitedSpans(meetings: readonly Meeting[], type: SlotRules, clock: TypeClock, range: Interval) {
  const out: Array<Interval & { reason: LimitSpan['reason'] }> = [];
  const seen = new Set<string>();
  for (let at = range.start; at < range.end + DAY_MS; at += DAY_MS) {
    for (const span of limitSpans(Math.min(at, range.end - 1), type.limits, clock.timeZone, clock.weekStartsOn)) {
      const key = `${span.reason} ${span.start}`;
      if (seen.has(key) || span.end <= range.start || span.start >= range.end) continue;
      seen.add(key);
      const count = meetings.filter((m) => m.start >= span.start && m.start < span.end).length;
      if (count >= span.max) out.push({ start: span.start, end: span.end, reason: span.reason });
    }
  }
  return out;
}

/** Seats left in a meeting of `durationMinutes`, when nothing else now stands in its way. */
function seatSlots(day: HostDay, type: SlotRules, durationMinutes: number): HostSlot[] {
  if (type.seats <= 1) return [];
  const out: HostSlot[] = [];
  for (const m of day.meetings) {
    const left = type.seats - m.bookingIds.length;
    if (left <= 0 || m.end - m.start !== durationMinutes * 60_000) continue;
    const inTheWay = day.blocked.some((b) => b.start < m.end && b.end > m.start && !fromEvent(b, m.eventId));
    if (!inTheWay) out.push({ start: m.start, end: m.end, seatsLeft: left, eventId: m.eventId });
  }
  return out;
}

/** The host's bookable slots of `durationMinutes` inside `open` (at most `max`), in time order. */
export function slotsOfDay(day: HostDay, type: SlotRules, clock: TypeClock, open: Interval, durationMinutes: number, max: number): HostSlot[] {
  const free = complement(open, mergeIntervals([...day.blocked, ...day.limited]));
  const fresh = bookableSlots(free, { durationMinutes, stepMinutes: stepMinutesOf(durationMinutes), timeZone: clock.timeZone, max })
    .map((s) => ({ ...s, seatsLeft: type.seats, eventId: null }));
  const seats = seatSlots(day, type, durationMinutes).filter((s) => s.start >= open.start && s.end <= open.end);
  return [...fresh, ...seats].sort((a, b) => a.start - b.start).slice(0, max);
}

export type SlotRefusal = 'outside_hours' | 'too_soon' | 'day_limit' | 'week_limit' | 'slot_taken';

/** Why the host cannot take a meeting at [start, end), or null (with the seat it would take, if any). */
export function refusalAt(day: HostDay, type: SlotRules, start: number, end: number): { refusal: SlotRefusal } | { seat: HostSlot | null } {
  const seat = seatSlots(day, type, (end - start) / 60_000).find((s) => s.start === start);
  if (seat) return { seat };
  const reasons = new Set(day.blocked.filter((b) => b.start < end && b.end > start).map((b) => b.reason.type));
  if (reasons.has('outside_hours')) return { refusal: 'outside_hours' };
  if (reasons.has('notice')) return { refusal: 'too_soon' };
  const limited = day.limited.find((l) => l.start <= start && l.end > start);
  if (limited) return { refusal: limited.reason };
  return reasons.size ? { refusal: 'slot_taken' } : { seat: null };
}
