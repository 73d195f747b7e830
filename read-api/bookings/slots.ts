/**
 * Slots of a meeting type: each host's (host-slots.ts), taken together as the type gives its meetings to its hosts:
 * the owner's own, a collective type's when every host is free, a round-robin type's when any host is. Listing slots
 * and checking one requested start are the same computation, so a listed slot is always bookable until someone takes it.
 */
import { BOOKING_HORIZON_DAYS, SLOT_DAYS, type Booking, type MeetingType, type SlotsQuery } from '../../contracts/bookings';
import type { Interval } from '../../services/availability/types';
import { ApiError, conflict, notFound } from '../../services/errors';
import { localDate, localDays, localMinute, DAY_MS, MINUTE_MS } from '../../services/time/local-time';
import { wallClock } from '../../services/time/zone';
import { userById } from '../profile/users.queries';
import { hostDay, refusalAt, slotsOfDay, stepMinutesOf, type Host, type HostSlot, type SlotInputs, type SlotRefusal, type TypeClock } from './host-slots';

export type { Host, HostSlot, SlotInputs } from './host-slots';

/** A type with the clock its rules are read on and the hosts its meetings go to. */
export interface TypePlan {
  type: MeetingType;
  clock: TypeClock;
  hosts: Host[];
}

/** Most slots one answer lists (31 days of 15-minute steps around the clock). */
const MAX_SLOTS = SLOT_DAYS.max * 96;

export async function planOf(inputs: SlotInputs, type: MeetingType, hostIds: readonly string[]): Promise<TypePlan> {
  const [owner, ...found] = await Promise.all([
    userById(inputs.models, type.ownerId),
    ...hostIds.map(async (id) => {
      const owner = await inputs.sources.owner(id);
      return owner && { id, owner };
    }),
  ]);
  const hosts = found.filter((h): h is Host => h !== null);
  if (!owner || hosts.length === 0) throw notFound('Meeting type');
  return { type, clock: { timeZone: owner.timeZone, weekStartsOn: owner.weekStartsOn }, hosts };
}

/** The length a guest asked for: one of the type's durations (400 otherwise), by default the first. */
export function lengthFor(type: Pick<MeetingType, 'durations'>, asked: number | undefined, path: string): number {
  if (asked === undefined) return type.durations[0];
  if (type.durations.includes(asked)) return asked;
  throw new ApiError(400, 'invalid_request', `This meeting type offers ${type.durations.join(', ')} minutes`, {
    issues: [{ path, message: `must be one of ${type.durations.join(', ')}` }],
  });
}

/** One slot per start, as the type combines its hosts': collective needs every host, the others any. */
function combined(plan: TypePlan, perHost: HostSlot[][]): Array<Interval & { seatsLeft: number }> {
  if (perHost.length === 1) return perHost[0];
  const byStart = new Map<number, { slot: HostSlot; hosts: number; seatsLeft: number }>();
  for (const slots of perHost) {
    for (const slot of slots) {
      const seen = byStart.get(slot.start);
      if (!seen) byStart.set(slot.start, { slot, hosts: 1, seatsLeft: slot.seatsLeft });
      else {
        seen.hosts++;
        // Collective: the fewest seats of any host; round robin: a booking takes a seat in a meeting if one is open.
        const joins = slot.eventId !== null && seen.slot.eventId === null;
        seen.seatsLeft = plan.type.assignment === 'collective' ? Math.min(seen.seatsLeft, slot.seatsLeft) : joins ? slot.seatsLeft : seen.seatsLeft;
        if (joins) seen.slot = slot;
      }
    }
  }
  const everyone = plan.type.assignment === 'collective' ? perHost.length : 1;
  return [...byStart.values()].filter((s) => s.hosts >= everyone).map((s) => ({ ...s.slot, seatsLeft: s.seatsLeft })).sort((a, b) => a.start - b.start);
}

const iso = (ms: number) => new Date(ms).toISOString();

/** `moving`: the booking whose own time does not count (its length is kept). */
export async function slotsFor(inputs: SlotInputs, plan: TypePlan, query: SlotsQuery, now: number, moving: Booking | null = null) {
  const timeZone = query.timeZone ?? plan.clock.timeZone;
  const durationMinutes = moving ? (Date.parse(moving.endsAt) - Date.parse(moving.startsAt)) / MINUTE_MS : lengthFor(plan.type, query.durationMinutes, 'query.durationMinutes');
  const days = localDays(query.from ?? localDate(now, timeZone), query.days ?? SLOT_DAYS.default, timeZone);
  const range = { start: days[0].start, end: days[days.length - 1].end };
  const horizon = now + BOOKING_HORIZON_DAYS * DAY_MS;
  const open = { start: Math.max(range.start, now), end: Math.min(range.end, horizon) };
  const perHost = open.end > open.start
    ? await Promise.all(plan.hosts.map(async (host) => {
      const day = await hostDay(inputs, host, plan.type, plan.clock, open, now, moving?.id ?? null);
      return slotsOfDay(day, plan.type, plan.clock, open, durationMinutes, MAX_SLOTS);
    }))
    : [];
  const slots = perHost.length ? combined(plan, perHost).slice(0, MAX_SLOTS) : [];
  return {
    timeZone,
    durationMinutes,
    startsAt: iso(range.start),
    endsAt: iso(range.end),
    slots: slots.map((s) => {
      const local = wallClock(s.start, timeZone).local;
      return { startsAt: iso(s.start), endsAt: iso(s.end), date: local.slice(0, 10), time: local.slice(11, 16), seatsLeft: s.seatsLeft };
    }),
  };
}

const unavailable = (reason: string, message: string) => conflict('slot_unavailable', message, { reason });

function refused(refusal: SlotRefusal, plan: TypePlan): ApiError {
  switch (refusal) {
    case 'outside_hours':
      return unavailable('outside_hours', 'That time is outside the hours of this meeting type');
    case 'too_soon':
      return unavailable('too_soon', `This meeting type needs ${plan.type.minimumNoticeMinutes} minutes' notice`);
    case 'day_limit':
    case 'week_limit':
      return unavailable(refusal, `This meeting type takes no more bookings that ${refusal === 'day_limit' ? 'day' : 'week'}`);
    case 'slot_taken':
      return conflict('slot_taken', 'That time is no longer free');
  }
}

/** A host free at the requested time, with the seat of their meeting a booking would take (null: a new meeting). */
export interface FreeHost {
  host: Host;
  seat: HostSlot | null;
}

/**
 * Refuses a start that is not a slot of the type: 409 `slot_unavailable` with the rule it breaks, or 409 `slot_taken`
 * when only busy time (or its buffers) is in the way. Collective: every host must be free; otherwise at least one.
 * Returns the end and the hosts free then.
 */
export async function requireSlot(
  inputs: SlotInputs, plan: TypePlan, start: number, durationMinutes: number, now: number, moving: string | null = null,
): Promise<{ end: number; free: FreeHost[] }> {
  const end = start + durationMinutes * MINUTE_MS;
  if (start < now) throw unavailable('in_past', 'That time has passed');
  if (start > now + BOOKING_HORIZON_DAYS * DAY_MS) throw unavailable('too_far', `Bookings open at most ${BOOKING_HORIZON_DAYS} days ahead`);
  const step = stepMinutesOf(durationMinutes);
  if (start % MINUTE_MS !== 0 || localMinute(start, plan.clock.timeZone) % step !== 0) throw unavailable('misaligned', `Slots start every ${step} minutes`);
  const answers = await Promise.all(plan.hosts.map(async (host) => {
    const day = await hostDay(inputs, host, plan.type, plan.clock, { start, end }, now, moving);
    return { host, answer: refusalAt(day, plan.type, start, end) };
  }));
  const free = answers.flatMap(({ host, answer }) => ('seat' in answer ? [{ host, seat: answer.seat }] : []));
  const refusals = answers.flatMap(({ answer }) => ('refusal' in answer ? [answer.refusal] : []));
  const everyone = plan.type.assignment === 'collective';
  if (free.length === 0 || (everyone && refusals.length > 0)) {
    // A rule of the type is what a guest can act on; busy time only when nothing else is in the way.
    throw refused(refusals.find((r) => r !== 'slot_taken') ?? 'slot_taken', plan);
  }
  return { end, free };
}
