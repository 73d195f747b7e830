import { attendeesOf, type Event } from '../../contracts/events';
import { publicView, type ReadModels } from '../../projections/read-models';
import { overlapFilters } from '../../projections/event-span';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { Doc } from '../../services/readstore/read-store.port';
import { spaceIdsOf } from '../spaces/spaces.queries';

type EventDoc = Doc & Event;

/** The stored event, whoever owns it: for the write side to find an event's Space. Not for answering clients. */
export async function locateEvent(models: ReadModels, id: string): Promise<Event | null> {
  const doc = await (await models.docs(SCHEDULE))<EventDoc>('events').get(id);
  return doc ? publicView<Event>(doc) : null;
}

/**
 * The event if `userId` may see it: a member of its Space, or an attendee (of it or of one of its occurrences).
 * Cancelled events are gone.
 */
export async function visibleEvent(models: ReadModels, userId: string, id: string): Promise<Event | null> {
  const event = await locateEvent(models, id);
  if (!event || event.status === 'cancelled') return null;
  if (attendeesOf(event).some((a) => a.userId === userId)) return event;
  const spaces = await spaceIdsOf(models, userId);
  return spaces.includes(event.spaceId) ? event : null;
}

/** Stored events and series of the user's Spaces that may have an occurrence in [from, to) (read-only documents). */
export async function eventDocsBetween(models: ReadModels, userId: string, from: number, to: number, spaceFilter?: string[], limit?: number) {
  let spaceIds = await spaceIdsOf(models, userId);
  if (spaceFilter) spaceIds = spaceIds.filter((id) => spaceFilter.includes(id));
  if (spaceIds.length === 0) return [];
  const events = (await models.docs(SCHEDULE))<EventDoc>('events');
  const found = await Promise.all(
    overlapFilters(from, to).map((f) => events.find({ spaceId: { $in: spaceIds }, deletedAt: null, ...f }, limit === undefined ? undefined : { limit })),
  );
  return limit === undefined ? found.flat() : found.flat().slice(0, limit);
}
