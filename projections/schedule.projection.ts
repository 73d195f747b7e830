/**
 * Spaces, memberships, calendars, the people calendars are shared with, and events: what GET /spaces, /calendars,
 * /events and /sync read, through read-api/spaces/calendar-access.ts for who may see what.
 */
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
  // v2: erasure stamps on every document; v3: span classes and the indexes below; v4: reminders, exceptions;
  // v5: organization members (with the Space's owner on each membership), calendar members, events by calendar.
  // v6: subscribed calendars (`source`) and their deletion.
  version: 6,
  // Each index serves a query of read-api (spaces, calendars, events and their /sync pages by owner and position).
  collections: {
    spaces: { indexes: [['id', '_pos']] },
    memberships: { indexes: [['userId', '_id'], ['spaceId']] },
    calendars: { indexes: [['spaceId', '_pos'], ['id', '_pos']] },
    // One per (calendar, member); a role taken away keeps its row with `deletedAt` (for /sync).
    calendarMembers: { indexes: [['userId', 'deletedAt'], ['calendarId', 'deletedAt', '_id'], ['userId', '_pos']] },
    events: { indexes: [['calendarId', '_spanClass', '_startMs'], ['spaceId', '_pos'], ['calendarId', '_pos']] },
  },
  handles: [
    'space.created', 'space.member.added', 'calendar.created', 'calendar.deleted', 'calendar.member.added', 'calendar.member.removed', 'event.created',
    'event.updated', 'event.cancelled', 'event.occurrence.changed', 'event.occurrence.cancelled',
  ],
  async apply(e, docs) {
    const at = e.metadata.occurredAt;
    switch (e.type) {
      case 'space.created': {
        const { space } = e.data as DomainEventData<'space.created'>;
        await docs('spaces').putIfNewer({ ...space, _id: space.id, _pos: e.position, _changedAt: at });
        await docs('memberships').putIfNewer({
          _id: `${space.id}:${space.ownerId}`, _pos: e.position, spaceId: space.id, userId: space.ownerId, ownerId: space.ownerId, role: 'owner',
        });
        return;
      }
      case 'space.member.added': {
        const member = e.data as DomainEventData<'space.member.added'>;
        const space = await docs('spaces').get(member.spaceId);
        if (!space) return;
        await docs('memberships').putIfNewer({
          _id: `${member.spaceId}:${member.userId}`, _pos: e.position, spaceId: member.spaceId, userId: member.userId,
          ownerId: space.ownerId as string, role: member.role,
        });
        return;
      }
      case 'calendar.member.added':
      case 'calendar.member.removed': {
        const member = e.data as DomainEventData<'calendar.member.added'>;
        const id = `${member.calendarId}:${member.userId}`;
        await docs('calendarMembers').putIfNewer({
          _id: id, _pos: e.position, _changedAt: at, id, ...member,
          deletedAt: e.type === 'calendar.member.removed' ? at : null,
        });
        return;
      }
      case 'calendar.created':
      case 'calendar.deleted': {
        const { calendar } = e.data as DomainEventData<'calendar.created'>;
        await docs('calendars').putIfNewer({ ...calendar, _id: calendar.id, _pos: e.position, _changedAt: at });
        return;
      }
      default:
        await docs('events').putIfNewer(eventDoc(calendarEventOf(e.type, e.data) as Event, e.position, at));
    }
  },
});
