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
import { TASKS } from '../../projections/tasks.projection';
import type { Filter } from '../../services/readstore/read-store.port';

export interface Owner {
  userId: string;
  /** The Spaces the caller belongs to. */
  spaceIds: string[];
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

export const SYNCABLES: readonly Syncable[] = [
  { type: 'events', projection: SCHEDULE, collection: 'events', owned: inSpaces('spaceId') },
  { type: 'calendars', projection: SCHEDULE, collection: 'calendars', owned: inSpaces('spaceId') },
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
