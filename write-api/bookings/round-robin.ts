/**
 * Round robin (addendum): a booking goes to a free host with the fewest bookings of the type in the last 30 days;
 * ties go to the host whose last one is longest ago (never booked: first), then to the type's order of hosts. A host
 * who already holds a meeting at that time with a seat left takes the guest into it. Each host's schedule still
 * decides its own slot, so two bookings at once never double-book a host; assignments of one type are made one at a
 * time in a process (`oneAtATime`), so each sees the counts the one before left.
 */
import { ROUND_ROBIN_DAYS, type BookingAssignment } from '../../contracts/booking-options';
import type { Standing } from '../../read-api/bookings/meetings.queries';
import type { FreeHost } from '../../read-api/bookings/slots';
import { DAY_MS } from '../../services/time/local-time';

export interface Candidate {
  free: FreeHost;
  assignment: BookingAssignment;
}

export const roundRobinSince = (now: number) => now - ROUND_ROBIN_DAYS * DAY_MS;

/** The free hosts in the order a booking tries them, each with why it would go there. */
export function rankHosts(free: readonly FreeHost[], standings: ReadonlyMap<string, Standing>, order: readonly string[]): Candidate[] {
  const standing = (f: FreeHost) => standings.get(f.host.id) ?? { count: 0, lastBookedAt: null };
  const assignment = (f: FreeHost, reason: BookingAssignment['reason']): BookingAssignment => ({
    method: 'round_robin', reason, bookingsInWindow: standing(f).count, lastBookedAt: standing(f).lastBookedAt,
  });
  const seats = free.filter((f) => f.seat !== null).sort((a, b) => b.seat!.seatsLeft - a.seat!.seatsLeft);
  const fresh = free.filter((f) => f.seat === null).sort((a, b) =>
    standing(a).count - standing(b).count
    || (standing(a).lastBookedAt ?? '').localeCompare(standing(b).lastBookedAt ?? '')
    || order.indexOf(a.host.id) - order.indexOf(b.host.id));
  return [
    ...seats.map((f) => ({ free: f, assignment: assignment(f, 'joined_slot') })),
    ...fresh.map((f, i) => {
      const tied = fresh.some((other, j) => j > i && standing(other).count === standing(f).count);
      return { free: f, assignment: assignment(f, tied ? 'longest_since_last' : 'fewest_bookings') };
    }),
  ];
}

const queues = new Map<string, Promise<unknown>>();

/** Runs `work` after every earlier call with the same key has settled (in this process). */
export function oneAtATime<T>(key: string, work: () => Promise<T>): Promise<T> {
  const previous = queues.get(key) ?? Promise.resolve();
  const next = previous.then(work, work);
  const settled = next.catch(() => undefined);
  queues.set(key, settled);
  void settled.then(() => { if (queues.get(key) === settled) queues.delete(key); });
  return next;
}
