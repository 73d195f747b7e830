/**
 * What `/sync` (and `/me/bootstrap`) carry: one row per syncable type, naming the projection and collection that
 * hold it and which of its documents belong to the caller. A slice makes its resource syncable by adding a row here
 * and its schema to contracts/sync.ts; every document of such a collection carries `_pos` (log position of its
 * last change), `_changedAt` (that event's occurredAt) and, once removed, `deletedAt`.
 */
import { BOOKINGS } from '../../projections/bookings.projection';
import { GOALS } from '../../projections/goals.projection';
import { ROUTINES } from '../../projections/routines.projection';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { ReadModels } from '../../projections/read-models';
import { TASKS } from '../../projections/tasks.projection';
import type { Filter } from '../../services/readstore/read-store.port';
import { calendarAccessOf, eventCalendarIds } from '../spaces/calendar-access';
import { spaceIdsOf } from '../spaces/spaces.queries';

export interface Owner {
  userId: string;
  /** The Spaces the caller belongs to. */
  spaceIds: string[];
  /** Calendars shared with the caller outside those Spaces (any role), and those of them whose events they see. */
  sharedCalendarIds: string[];
  sharedEventCalendarIds: string[];
}

/** Who the caller is to the syncable rows: their Spaces and the calendars shared with them, as they are now. */
export async function ownerOf(models: ReadModels, userId: string): Promise<Owner> {
  const [spaceIds, access] = await Promise.all([spaceIdsOf(models, userId), calendarAccessOf(models, userId)]);
  const shared = access.filter((a) => !a.viaSpace);
  return { userId, spaceIds, sharedCalendarIds: shared.map((a) => a.calendar.id), sharedEventCalendarIds: eventCalendarIds(shared) };
}

export interface Syncable {
  /** Key under `changes` in the answer. */
  type: string;
  projection: string;
  collection: string;
  /** The caller's documents; null when the caller can have none. */
  owned(owner: Owner): Filter | null;
  /** Also listed (live rows, at most BOOTSTRAP_LIMIT) by GET /me/bootstrap under `type`. */
  bootstrap?: boolean;
}

export const BOOTSTRAP_LIMIT = 1000;

const inSpaces = (field: string) => ({ spaceIds }: Owner): Filter | null =>
  spaceIds.length ? { [field]: { $in: spaceIds } } : null;
const among = (field: string, ids: (owner: Owner) => string[]) => (owner: Owner): Filter | null =>
  ids(owner).length ? { [field]: { $in: ids(owner) } } : null;

export const SYNCABLES: readonly Syncable[] = [
  { type: 'events', projection: SCHEDULE, collection: 'events', owned: inSpaces('spaceId') },
  // Events of calendars shared with the caller as reader or writer: never a freeBusyReader's (docs/sharing.md).
  { type: 'events', projection: SCHEDULE, collection: 'events', owned: among('calendarId', (o) => o.sharedEventCalendarIds) },
  { type: 'calendars', projection: SCHEDULE, collection: 'calendars', owned: inSpaces('spaceId') },
  { type: 'calendars', projection: SCHEDULE, collection: 'calendars', owned: among('id', (o) => o.sharedCalendarIds) },
  // The caller's roles on calendars shared with them: a role taken away comes back with `deletedAt`.
  { type: 'calendarMemberships', projection: SCHEDULE, collection: 'calendarMembers', owned: ({ userId }) => ({ userId }) },
  { type: 'spaces', projection: SCHEDULE, collection: 'spaces', owned: inSpaces('id') },
  { type: 'goals', projection: GOALS, collection: 'goals', owned: ({ userId }) => ({ userId }), bootstrap: true },
  { type: 'routines', projection: ROUTINES, collection: 'routines', owned: ({ userId }) => ({ ownerId: userId }), bootstrap: true },
  // A task has one row per person who sees it (owner, assignee): see projections/tasks.projection.ts.
  { type: 'tasks', projection: TASKS, collection: 'tasks', owned: ({ userId }) => ({ _viewerId: userId }) },
  { type: 'projects', projection: TASKS, collection: 'projects', owned: ({ userId }) => ({ ownerId: userId }), bootstrap: true },
  { type: 'lists', projection: TASKS, collection: 'lists', owned: ({ userId }) => ({ ownerId: userId }), bootstrap: true },
  { type: 'meetingTypes', projection: BOOKINGS, collection: 'meetingTypes', owned: ({ userId }) => ({ ownerId: userId }) },
  // A booking has one row per person who sees it (its hosts, the type's owner): see projections/bookings.projection.ts.
  { type: 'bookings', projection: BOOKINGS, collection: 'hostBookings', owned: ({ userId }) => ({ _viewerId: userId }) },
];

export const SYNC_PROJECTIONS: readonly string[] = [...new Set(SYNCABLES.map((s) => s.projection))];
