import type { Event } from '../../contracts/events';
import { publicView, type ReadModels } from '../../projections/read-models';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { Doc } from '../../services/readstore/read-store.port';
import { occurrences } from '../../services/time/recurrence';
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

export async function eventsBetween(models: ReadModels, userId: string, from: number, to: number, spaceFilter?: string[]) {
  let spaceIds = await spaceIdsOf(models, userId);
  if (spaceFilter) spaceIds = spaceIds.filter((id) => spaceFilter.includes(id));
  if (spaceIds.length === 0) return [];
  const docs = await (await models.docs(SCHEDULE))<EventDoc>('events').find({
    spaceId: { $in: spaceIds },
    _startMs: { $lt: to },
    _endBoundMs: { $gt: from },
    deletedAt: null,
  });
  const out = [];
  for (const doc of docs) {
    const event = publicView<Event>(doc);
    if (!event.recurrenceRule) {
      out.push({ ...event, seriesId: null, occurrenceStartsAt: null });
      continue;
    }
    const duration = Date.parse(event.endsAt) - Date.parse(event.startsAt);
    for (const o of occurrences(event, from, to)) {
      const startsAt = new Date(o.start).toISOString();
      out.push({ ...event, startsAt, endsAt: new Date(o.start + duration).toISOString(), seriesId: event.id, occurrenceStartsAt: startsAt });
    }
  }
  return out.sort((a, b) => a.startsAt.localeCompare(b.startsAt) || a.id.localeCompare(b.id));
}
