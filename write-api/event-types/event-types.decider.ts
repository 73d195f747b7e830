/**
 * A person's own event types: a collection per user (`event-types-<userId>`), at most MAX_EVENT_TYPES of them.
 * Built-in kinds live in no stream and never change.
 */
import { EVENT_KINDS } from '../../contracts/events';
import { MAX_EVENT_TYPES, type EventType } from '../../contracts/event-types';
import { conflict } from '../../services/errors';
import { collectionDecider } from '../shared/collection.decider';

export type EventTypeFields = Pick<EventType, 'name' | 'color' | 'baseKind' | 'defaultMinutes'>;

export const isBuiltInEventType = (id: string) => (EVENT_KINDS as readonly string[]).includes(id);

export const eventTypesDecider = collectionDecider<'event_type', EventType, EventTypeFields, Partial<Pick<EventType, 'name' | 'color'>>>({
  name: 'event_type',
  what: 'Event type',
  limit: MAX_EVENT_TYPES,
  limitCode: 'event_type_limit_reached',
  create: (id, fields, now) => ({ id, ...fields, builtIn: false, createdAt: now, updatedAt: now, deletedAt: null, version: 1 }),
  refuse(id) {
    if (isBuiltInEventType(id)) throw conflict('event_type_built_in', 'Built-in event types cannot be changed or deleted');
  },
});

export const eventTypesStream = (userId: string) => `event-types-${userId}`;
