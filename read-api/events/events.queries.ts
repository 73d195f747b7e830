import type { Event } from '../../contracts/events';
import { publicView, type ReadModels } from '../../projections/read-models';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { Doc } from '../../services/readstore/read-store.port';
import { spaceIdsOf } from '../spaces/spaces.queries';

type EventDoc = Doc & Event;

/** The stored event, whoever owns it: for the write side to find an event's Space. Not for answering clients. */
export async function locateEvent(models: ReadModels, id: string): Promise<Event | null> {
  const doc = await (await models.docs(SCHEDULE))<EventDoc>('events').get(id);
  return doc ? publicView<Event>(doc) : null;
}

/** The event if `userId` may see it: a member of its Space, or an attendee. Cancelled events are gone. */
export async function visibleEvent(models: ReadModels, userId: string, id: string): Promise<Event | null> {
  const event = await locateEvent(models, id);
  if (!event || event.status === 'cancelled') return null;
  if (event.attendees.some((a) => a.userId === userId)) return event;
  const spaces = await spaceIdsOf(models, userId);
  return spaces.includes(event.spaceId) ? event : null;
}
