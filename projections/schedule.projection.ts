/** Spaces, memberships, calendars and events: what GET /spaces, /calendars, /events and /sync read. */
import type { DomainEventData } from '../contracts/domain-events';
import type { Event } from '../contracts/events';
import { spanOf } from '../services/time/recurrence';
import { spanClass } from './event-span';
import { calendarEventOf } from './event-time';
import { projection } from './projection';

export const SCHEDULE = 'schedule';

/** The stored event: its own fields (none of which start with `_`) and the ones queries use. */
export function eventDoc(event: Event, position: number, changedAt: string) {
  // Moved occurrences widen a series' span: the overlap filters must still find it where they now are.
  const span = spanOf(event);
  // New fields before the spread: on Node 20, fields added after a leading spread cost about 1 µs each.
  return {
    _id: event.id,
    _pos: position,
    _changedAt: changedAt,
    _startMs: span.startMs,
    _endBoundMs: span.endBoundMs,
    _spanClass: spanClass(span.startMs, Date.parse(event.endsAt), !!event.recurrenceRule),
    ...event,
  };
}

export const scheduleProjection = projection({
  name: SCHEDULE,
  version: 4, // v2: erasure stamps on every document; v3: span classes and the indexes below; v4: reminders, exceptions
  // Each index serves a query of read-api (spaces, calendars, events and their /sync pages by owner and position).
  collections: {
    spaces: { indexes: [['id', '_pos']] },
    memberships: { indexes: [['userId', '_id'], ['spaceId']] },
    calendars: { indexes: [['spaceId', '_pos']] },
    events: { indexes: [['spaceId', '_spanClass', '_startMs'], ['spaceId', '_pos']] },
  },
  handles: [
    'space.created', 'calendar.created', 'event.created', 'event.updated', 'event.cancelled', 'event.occurrence.changed',
    'event.occurrence.cancelled',
  ],
  async apply(e, docs) {
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'space.created': {
        const { space } = e.data as DomainEventData<'space.created'>;
        await docs('spaces').putIfNewer({ ...space, _id: space.id, _pos: e.position, _changedAt: at });
        await docs('memberships').putIfNewer({
          _id: `${space.id}:${space.ownerId}`, _pos: e.position, spaceId: space.id, userId: space.ownerId, role: 'owner',
        });
        return;
      }
      case 'calendar.created': {
        const { calendar } = e.data as DomainEventData<'calendar.created'>;
        await docs('calendars').putIfNewer({ ...calendar, _id: calendar.id, _pos: e.position, _changedAt: at });
        return;
      }
      default:
        await docs('events').putIfNewer(eventDoc(calendarEventOf(e.type, e.data) as Event, e.position, at));
    }
  },
});
