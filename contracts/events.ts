import { z } from 'zod';
import { checkedByServer, DateTime, DateTimeAfter, ErrorEnvelope, IdParams, NonBlankText, TimeZone, Uuid } from './common';
import * as examples from './examples';
import { op } from './operation';

export const EVENT_KINDS = [
  'meeting', 'appointment', 'focus', 'personal', 'routine', 'travel', 'break', 'buffer', 'deadline', 'task', 'holiday',
] as const;
export const EventKind = z.enum(EVENT_KINDS);
export const RsvpAnswer = z.enum(['yes', 'no', 'maybe']);

const Text = (max: number) => z.string().max(max);

/** The longest span `GET /events` lists, and the longest an event (one occurrence) may last: expansions stay bounded. */
export const MAX_EVENT_RANGE_DAYS = 366;
export const MAX_EVENT_DAYS = 366;
const Resource = z.string().min(1).max(100).describe('A resource name such as `room:blue`');

export const AttendeeInput = z.strictObject({ email: z.email().max(254), name: Text(200).optional() });
export const Attendee = z
  .object({
    email: z.string(),
    name: z.string().nullable(),
    userId: Uuid.nullable().describe('Set when the email belongs to a user of this service'),
    response: z.enum(['needs_action', 'yes', 'no', 'maybe']),
  })
  .meta({ id: 'Attendee' });

export const RecurrenceRule = z
  .string()
  .min(1)
  .max(500)
  .meta(checkedByServer(
    'RFC 5545 RRULE without DTSTART, e.g. `FREQ=WEEKLY;BYDAY=MO,WE`; one the recurrence engine cannot read is 400, ' +
      'as are FREQ=SECONDLY and MINUTELY',
    ['FREQ=WEEKLY;BYDAY=MO,WE', 'FREQ=DAILY;COUNT=10', 'FREQ=MONTHLY;BYMONTHDAY=15;INTERVAL=2'],
  ));

export const Event = z
  .object({
    id: Uuid,
    spaceId: Uuid,
    calendarId: Uuid,
    title: z.string(),
    description: z.string().nullable(),
    location: z.string().nullable(),
    meetingUrl: z.string().nullable(),
    kind: EventKind,
    startsAt: DateTime,
    endsAt: DateTime,
    timeZone: z.string(),
    allDay: z.boolean(),
    busy: z.boolean(),
    recurrenceRule: z.string().nullable(),
    resources: z.array(z.string()),
    attendees: z.array(Attendee),
    allowOverlap: z.boolean(),
    status: z.enum(['confirmed', 'cancelled']),
    createdBy: Uuid,
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: DateTime.nullable().describe('Set once the event is cancelled (sync rows)'),
    version: z.number().int().describe('Increases with every change; the ETag is derived from it'),
  })
  .meta({ id: 'Event', description: 'A calendar event (for recurring events: the series).', examples: [examples.event] });
export type Event = z.infer<typeof Event>;

export const EventOccurrence = Event.extend({
  seriesId: Uuid.nullable().describe('The series id for an occurrence of a recurring event, else null'),
  occurrenceStartsAt: DateTime.nullable().describe('The occurrence start as the rule generated it, else null'),
}).meta({ id: 'EventOccurrence', examples: [{ ...examples.event, seriesId: examples.ids.event, occurrenceStartsAt: examples.at.starts }] });

export const CreateEventBody = z
  .object({
    title: NonBlankText(500),
    startsAt: DateTime,
    endsAt: DateTimeAfter('startsAt', MAX_EVENT_DAYS),
    calendarId: Uuid.optional(),
    timeZone: TimeZone.optional(),
    allDay: z.boolean().optional(),
    busy: z.boolean().optional(),
    kind: EventKind.optional(),
    description: Text(10_000).nullable().optional(),
    location: Text(1_000).nullable().optional(),
    meetingUrl: z.url().max(2_000).nullable().optional(),
    recurrenceRule: RecurrenceRule.nullable().optional(),
    resources: z.array(Resource).max(50).optional(),
    attendees: z.array(AttendeeInput).max(200).optional(),
    allowOverlap: z.boolean().optional(),
  })
  .meta({
    id: 'CreateEventBody',
    examples: [{
      title: 'Weekly planning', startsAt: '2026-03-16T09:00:00Z', endsAt: '2026-03-16T10:00:00Z', timeZone: 'Europe/London',
      location: 'Room Blue', recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO', resources: ['room:blue'],
      attendees: [{ email: 'grace@example.com', name: 'Grace Hopper' }],
    }],
  });
export type CreateEventBody = z.infer<typeof CreateEventBody>;

export const UpdateEventBody = z
  .object({
    title: NonBlankText(500),
    startsAt: DateTime,
    endsAt: DateTimeAfter('startsAt', MAX_EVENT_DAYS),
    calendarId: Uuid,
    timeZone: TimeZone,
    allDay: z.boolean(),
    busy: z.boolean(),
    kind: EventKind,
    description: Text(10_000).nullable(),
    location: Text(1_000).nullable(),
    meetingUrl: z.url().max(2_000).nullable(),
    recurrenceRule: RecurrenceRule.nullable(),
    resources: z.array(Resource).max(50),
    attendees: z.array(AttendeeInput).max(200),
    allowOverlap: z.boolean(),
  })
  .partial()
  .meta({
    id: 'UpdateEventBody',
    description: 'Any subset of the create fields (at least one); edits the whole series.',
    examples: [{ title: 'Weekly planning (moved)', startsAt: '2026-03-16T13:00:00Z', endsAt: '2026-03-16T14:00:00Z' }],
  });
export type UpdateEventBody = z.infer<typeof UpdateEventBody>;

export const RsvpBody = z.object({ answer: RsvpAnswer }).meta({ id: 'RsvpBody', examples: [{ answer: 'yes' }] });

export const ListEventsQuery = z.object({
  from: DateTime,
  to: DateTimeAfter('from', MAX_EVENT_RANGE_DAYS),
  space: z.union([Uuid, z.array(Uuid)]).optional().describe('Space id filter; repeat the parameter for several'),
});

export const EventResponse = z.object({ event: Event }).meta({ id: 'EventResponse' });
export const EventListResponse = z.object({ events: z.array(EventOccurrence) }).meta({ id: 'EventListResponse' });

export const InboxItem = z
  .object({
    id: z.string(),
    type: z.literal('invitation'),
    event: Event,
    createdAt: DateTime,
  })
  .meta({ id: 'InboxItem', examples: [{ id: `${examples.ids.event}:${examples.ids.otherUser}`, type: 'invitation', event: examples.event, createdAt: examples.at.created }] });

const conflict = { description: 'Time (`time_conflict`) or resource (`resource_conflict`) conflict', schema: ErrorEnvelope };
const notFound = { description: 'Not found (also for events of other people)', schema: ErrorEnvelope };
const stale = { description: '`If-Match` carried a stale ETag (`version_mismatch`)', schema: ErrorEnvelope };

export const eventOperations = [
  op({
    method: 'get', path: '/events', tag: 'Events', summary: 'List events and occurrences in [from, to)',
    description: 'Recurring series are expanded into occurrences (DST-correct in the event time zone), sorted by start.',
    query: ListEventsQuery,
    responses: { 200: { description: 'Events', schema: EventListResponse } },
  }),
  op({
    method: 'post', path: '/events', tag: 'Events', summary: 'Create an event', body: CreateEventBody, etag: true,
    responses: { 201: { description: 'Created', schema: EventResponse }, 404: notFound, 409: conflict },
  }),
  op({
    method: 'get', path: '/events/{id}', tag: 'Events', summary: 'Get an event', params: IdParams, etag: true,
    responses: { 200: { description: 'The event, with an ETag', schema: EventResponse }, 404: notFound },
  }),
  op({
    method: 'patch', path: '/events/{id}', tag: 'Events', summary: 'Update an event (whole series)', params: IdParams, etag: true,
    body: UpdateEventBody,
    responses: { 200: { description: 'Updated', schema: EventResponse }, 404: notFound, 409: conflict, 412: stale },
  }),
  op({
    method: 'delete', path: '/events/{id}', tag: 'Events', summary: 'Cancel an event', params: IdParams, etag: true,
    responses: { 204: { description: 'Cancelled' }, 404: notFound, 412: stale },
  }),
  op({
    method: 'post', path: '/events/{id}/rsvp', tag: 'Events', summary: 'Answer an invitation', params: IdParams, etag: true,
    body: RsvpBody,
    responses: { 200: { description: 'Answered', schema: EventResponse }, 404: notFound },
  }),
  op({
    method: 'get', path: '/inbox', tag: 'Events', summary: 'Invitations waiting for an answer',
    responses: { 200: { description: 'Inbox', schema: z.object({ items: z.array(InboxItem) }).meta({ id: 'InboxResponse' }) } },
  }),
  op({
    method: 'get', path: '/inbox/count', tag: 'Events', summary: 'Number of inbox items (badge)',
    responses: { 200: { description: 'Count', schema: z.object({ count: z.number().int() }).meta({ id: 'InboxCount', examples: [{ count: 2 }] }) } },
  }),
];
