/** Event types: the built-in kinds of events plus a person's own named, coloured types. */
import { z } from 'zod';
import { DateTime, ErrorEnvelope, NonBlankText, Uuid } from './common';
import { EVENT_KINDS, EventKind } from './events';
import { op } from './operation';
import { notFoundAnswer, staleEtagAnswer } from './responses';
import { Color } from './spaces';

export const MAX_EVENT_TYPES = 100;

const Name = NonBlankText(100);
const DefaultMinutes = z.number().int().min(1).max(1440);

const builtInExample = { id: 'focus', name: 'Focus', color: '#7c4dff', baseKind: 'focus', defaultMinutes: 60, builtIn: true };
const ownExample = {
  id: '6e5d4c3b-2a19-4f8e-9d7c-6b5a4f3e2d1c', name: 'Deep work', color: '#ff8800', baseKind: 'focus', defaultMinutes: 90,
  builtIn: false, createdAt: '2026-11-20T08:00:00.000Z', updatedAt: '2026-11-20T08:00:00.000Z', deletedAt: null, version: 1,
};

export const BuiltInEventType = z
  .object({
    id: EventKind.describe('The kind itself'),
    name: z.string(),
    color: z.string(),
    baseKind: EventKind,
    defaultMinutes: z.number().int(),
    builtIn: z.literal(true),
  })
  .meta({ id: 'BuiltInEventType', examples: [builtInExample] });

export const EventType = z
  .object({
    id: Uuid,
    name: z.string(),
    color: z.string(),
    baseKind: EventKind.nullable().describe('The built-in kind it behaves like'),
    defaultMinutes: z.number().int().nullable(),
    builtIn: z.literal(false),
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: DateTime.nullable(),
    version: z.number().int(),
  })
  .meta({ id: 'EventType', description: 'A type of one\'s own.', examples: [ownExample] });
export type EventType = z.infer<typeof EventType>;

export const CreateEventTypeBody = z
  .object({ name: Name, color: Color, baseKind: EventKind.nullable().optional(), defaultMinutes: DefaultMinutes.nullable().optional() })
  .meta({ id: 'CreateEventTypeBody', examples: [{ name: 'Deep work', color: '#ff8800', baseKind: 'focus', defaultMinutes: 90 }] });
export type CreateEventTypeBody = z.infer<typeof CreateEventTypeBody>;

export const UpdateEventTypeBody = z
  .object({ name: Name, color: Color })
  .partial()
  .meta({ id: 'UpdateEventTypeBody', examples: [{ name: 'Deep work (no meetings)', color: '#ff5500' }] });
export type UpdateEventTypeBody = z.infer<typeof UpdateEventTypeBody>;

export const EventTypeIdParams = z.object({
  id: z.union([Uuid, EventKind]).describe('The id of one\'s own type, or a built-in kind (which cannot change)'),
});

export const EventTypeResponse = z
  .object({ eventType: EventType })
  .meta({ id: 'EventTypeResponse', examples: [{ eventType: ownExample }] });

export const EventTypeListResponse = z
  .object({ eventTypes: z.array(z.union([BuiltInEventType, EventType])).describe('Built-in kinds first, then one\'s own, oldest first') })
  .meta({ id: 'EventTypeListResponse', examples: [{ eventTypes: [builtInExample, ownExample] }] });

const BUILT_IN_STYLE: Record<(typeof EVENT_KINDS)[number], [color: string, minutes: number]> = {
  meeting: ['#3366ff', 30], appointment: ['#00897b', 60], focus: ['#7c4dff', 60], personal: ['#43a047', 60],
  routine: ['#8d6e63', 30], travel: ['#fb8c00', 30], break: ['#9e9e9e', 15], buffer: ['#bdbdbd', 10],
  deadline: ['#e53935', 30], task: ['#fdd835', 30], holiday: ['#26c6da', 1440],
};

export const BUILT_IN_EVENT_TYPES: ReadonlyArray<z.infer<typeof BuiltInEventType>> = EVENT_KINDS.map((kind) => ({
  id: kind,
  name: kind[0].toUpperCase() + kind.slice(1),
  color: BUILT_IN_STYLE[kind][0],
  baseKind: kind,
  defaultMinutes: BUILT_IN_STYLE[kind][1],
  builtIn: true as const,
}));

const builtIn = { description: '`event_type_built_in`: built-in kinds cannot be changed or deleted', schema: ErrorEnvelope };

export const eventTypeOperations = [
  op({
    method: 'get', path: '/event-types', tag: 'Event types', summary: 'Built-in kinds and one\'s own event types',
    responses: { 200: { description: 'Event types', schema: EventTypeListResponse } },
  }),
  op({
    method: 'post', path: '/event-types', etag: true, tag: 'Event types', summary: 'Create an event type', body: CreateEventTypeBody,
    responses: {
      201: { description: 'Created, with an ETag', schema: EventTypeResponse },
      409: { description: `\`event_type_limit_reached\`: a person has at most ${MAX_EVENT_TYPES} types`, schema: ErrorEnvelope },
    },
  }),
  op({
    method: 'patch', path: '/event-types/{id}', etag: true, tag: 'Event types', summary: 'Rename or recolour an event type',
    params: EventTypeIdParams, body: UpdateEventTypeBody,
    responses: {
      200: { description: 'Updated, with an ETag', schema: EventTypeResponse },
      404: notFoundAnswer('event types'), 409: builtIn, 412: staleEtagAnswer,
    },
  }),
  op({
    method: 'delete', path: '/event-types/{id}', etag: true, tag: 'Event types', summary: 'Delete an event type',
    params: EventTypeIdParams,
    responses: { 204: { description: 'Deleted' }, 404: notFoundAnswer('event types'), 409: builtIn, 412: staleEtagAnswer },
  }),
];
