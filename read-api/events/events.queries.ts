import { seesEvents } from '../../contracts/calendar-members';
import { attendeesOf, type Event } from '../../contracts/events';
import { publicView, type ReadModels } from '../../projections/read-models';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { Doc } from '../../services/readstore/read-store.port';
import { calendarRoleOf } from '../spaces/calendar-access';

type EventDoc = Doc & Event;

/** The stored event, whoever owns it: for the write side to find an event's Space. Not for answering clients. */
export async function locateEvent(models: ReadModels, id: string): Promise<Event | null> {
  const doc = await (await models.docs(SCHEDULE))<EventDoc>('events').get(id);
  return doc ? publicView<Event>(doc) : null;
}

/**
 * The event if `userId` may see it: an attendee (of it or of one of its occurrences), or someone whose role on its
 * calendar shows events (a freeBusyReader does not see it). Cancelled events are gone.
 */
export async function visibleEvent(models: ReadModels, userId: string, id: string): Promise<Event | null> {
  const event = await locateEvent(models, id);
  if (!event || event.status === 'cancelled') return null;
  if (attendeesOf(event).some((a) => a.userId === userId)) return event;
  return seesEvents(await calendarRoleOf(models, userId, { id: event.calendarId, spaceId: event.spaceId })) ? event : null;
}
