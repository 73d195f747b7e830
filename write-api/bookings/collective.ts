/**
 * A collective booking across its hosts' schedules, all or nothing without a distributed transaction
 * (docs/bookings.md, "Collective bookings"):
 *
 *   1. hold the slot in every host's schedule, one after another in a fixed order (by user id), each schedule
 *      applying its own rules (busy time, buffers, limits, seats); the first refusal releases the holds made so far
 *      and is the answer;
 *   2. decide the booking in its first host's schedule (the one commit: booking.created, the guest's token);
 *   3. make each other host's part: their event follows the booking (never refused: the hold kept the time).
 *
 * A hold that nobody released (the process died in step 1) lapses at its expiry; step 3 is done again by the
 * booking consumer (parts-consumer.ts) for every booking event, so a process that died after step 2 leaves no host
 * without the event. The fixed order makes two bookings racing for the same hosts meet at the first host: one holds
 * it and the other is refused there, before holding anyone.
 */
import type { Booking } from '../../contracts/bookings';
import type { AppContext } from '../../services/app-context';
import type { Handled } from '../../services/commands/command-handler';
import { deterministicUuid } from '../../services/ids';
import type { SlotAsk } from '../schedule/booking-slot';
import { scheduleDecider, scheduleStream } from '../schedule/schedule.decider';
import { eventDetailsOf, onSchedule, targetOf, type HostTarget } from './booking-steps';

/** How long a hold keeps a host's time when nobody releases it (a process died between the holds and the booking). */
export const HOLD_MS = 60_000;

export interface HeldHost {
  target: HostTarget;
  /** The host's own event of the booking when it moves. */
  ownEventId: string | null;
}

type Step = { userId: string | null; commandId: string; correlationId: string };

const byUserId = (a: HeldHost, b: HeldHost) => a.target.user.id.localeCompare(b.target.user.id);

/**
 * Holds [startsAt, endsAt) for `bookingId` in every host's schedule (fixed order), runs `commit` (the booking's own
 * schedule), and releases the holds when a hold or the commit is refused.
 */
export async function heldAcross<T>(
  app: AppContext, step: Step, hosts: HeldHost[], hold: { bookingId: string; meetingTypeId: string; startsAt: string; endsAt: string },
  ask: SlotAsk, commit: () => Promise<T>,
): Promise<T> {
  const held: HeldHost[] = [];
  const now = new Date();
  const release = () => Promise.all(held.map((h) => onSchedule(app, h.target.spaceId, { type: 'ReleaseHold', bookingId: hold.bookingId, hostId: h.target.user.id }, {
    ...step, commandId: deterministicUuid(step.commandId, 'release', h.target.user.id),
  })));
  try {
    for (const host of [...hosts].sort(byUserId)) {
      await onSchedule(app, host.target.spaceId, {
        type: 'HoldSlot', ask, ignoreEventId: host.ownEventId, now: now.toISOString(),
        hold: { ...hold, hostId: host.target.user.id, heldAt: now.toISOString(), expiresAt: new Date(now.getTime() + HOLD_MS).toISOString() },
      }, { ...step, commandId: deterministicUuid(step.commandId, 'hold', host.target.user.id) });
      held.push(host);
    }
    return await commit();
  } catch (err) {
    await release();
    throw err;
  }
}

/** The other hosts' parts as the booking now is (step 3; again by the consumer: a part at the booking's version decides nothing). */
export async function syncParts(app: AppContext, booking: Booking, type: { name: string; seats: number; ownerId: string; calendarId: string | null }): Promise<void> {
  const others = booking.hostIds.filter((id) => id !== booking.hostId);
  await Promise.all(others.map(async (hostId) => {
    const target = await targetOf(app, { ownerId: type.ownerId, calendarId: null }, hostId);
    const details = eventDetailsOf(type, booking.guest, booking.note, target.user);
    await onSchedule(app, target.spaceId, {
      type: 'SyncPart',
      part: {
        bookingId: booking.id, meetingTypeId: booking.meetingTypeId, hostId, spaceId: target.spaceId, calendarId: target.calendarId,
        eventId: deterministicUuid(booking.id, 'part-event', hostId, String(booking.version)), startsAt: booking.startsAt,
        endsAt: booking.endsAt, guest: { name: booking.guest.name, email: booking.guest.email }, status: booking.status, version: booking.version,
      },
      event: { ...details, location: booking.location, timeZone: target.user.timeZone },
      now: new Date().toISOString(),
    }, { userId: null, commandId: deterministicUuid(booking.id, 'part', hostId, String(booking.version)), correlationId: booking.id });
  }));
}

/** The hosts of a collective booking with their own events of it, for holding its new time. */
export async function heldHostsOf(app: AppContext, booking: Booking, type: { ownerId: string; calendarId: string | null }): Promise<HeldHost[]> {
  return Promise.all(booking.hostIds.map(async (hostId) => {
    if (hostId === booking.hostId) return { target: { ...(await targetOf(app, type, hostId)), spaceId: booking.spaceId, calendarId: booking.calendarId }, ownEventId: booking.eventId };
    const target = await targetOf(app, { ownerId: type.ownerId, calendarId: null }, hostId);
    const part = (await app.commands.load(scheduleStream(target.spaceId), scheduleDecider)).state.parts.get(booking.id);
    return { target, ownEventId: part?.eventId ?? null };
  }));
}

export type BookingResult = Handled<{ type: string; data: unknown }>;
