/**
 * A host's meetings of a meeting type, from the per-person booking rows (projections/bookings.projection.ts): the
 * slots leave out days and weeks at a limit and offer the seats left, and round robin weighs who had fewer lately.
 */
import { BOOKINGS } from '../../projections/bookings.projection';
import type { ReadModels } from '../../projections/read-models';
import type { Interval } from '../../services/availability/types';

/** Most booking rows one host's meetings of a type are read from per request (a month of 15-minute slots, full, twice over). */
const MAX_ROWS = 10_000;

export interface Meeting extends Interval {
  eventId: string;
  startsAt: string;
  endsAt: string;
  /** The live bookings on it (several in a slot with seats). */
  bookingIds: string[];
}

const rows = async (models: ReadModels) => (await models.docs(BOOKINGS))('hostBookings');

/** The host's live meetings of the type starting inside `window`, one per event. */
export async function hostMeetings(models: ReadModels, hostId: string, typeId: string, window: Interval): Promise<Meeting[]> {
  const found = await (await rows(models)).find(
    { _viewerId: hostId, meetingTypeId: typeId, _startMs: { $gte: window.start, $lt: window.end }, _live: true, _hosts: true },
    { limit: MAX_ROWS },
  );
  const byEvent = new Map<string, Meeting>();
  for (const row of found) {
    const eventId = row.eventId as string;
    const meeting = byEvent.get(eventId);
    if (meeting) meeting.bookingIds.push(row.id as string);
    else {
      const startsAt = row.startsAt as string;
      const endsAt = row.endsAt as string;
      byEvent.set(eventId, { eventId, startsAt, endsAt, start: Date.parse(startsAt), end: Date.parse(endsAt), bookingIds: [row.id as string] });
    }
  }
  return [...byEvent.values()].sort((a, b) => a.start - b.start);
}

export interface Standing {
  /** Live bookings of the type made since the window's start. */
  count: number;
  /** When the host's last live booking of the type was made (null: never). */
  lastBookedAt: string | null;
}

/** Where a host stands for round robin: bookings of the type made since `since`, and the latest one. */
export async function hostStanding(models: ReadModels, hostId: string, typeId: string, since: number): Promise<Standing> {
  const all = await rows(models);
  const mine = { _viewerId: hostId, meetingTypeId: typeId, _live: true, _hosts: true };
  const [count, [last]] = await Promise.all([
    all.count({ ...mine, _createdMs: { $gte: since } }),
    all.find(mine, { sort: [['_createdMs', -1]], limit: 1 }),
  ]);
  return { count, lastBookedAt: (last?.createdAt as string | undefined) ?? null };
}
