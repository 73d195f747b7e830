import { z } from 'zod';
import { AsOf, checkedByServer, DateTime, DateTimeAfter, Email, ErrorEnvelope, IdParams, NonBlankText, TimeZone, Uuid } from './common';
import * as examples from './examples';
import { op } from './operation';
import { MAX_PAGE_SIZE, NextPageToken, PageQuery } from './paging';
import { Reminder, Reminders } from './reminders';

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

export const AttendeeInput = z.strictObject({ email: Email, name: Text(200).optional() });
export const Attendee = z
  .object({
    email: z.string(),
    name: z.string().nullable(),
    userId: Uuid.nullable().describe('Set when the email belongs to a user of this service'),
    response: z.enum(['needs_action', 'yes', 'no', 'maybe']),
  })
  .meta({ id: 'Attendee' });

/** What a recurrence rule may ask for; each bound is checked when the rule is written, before anything is expanded. */
export const RECURRENCE_LIMITS = {
  /** COUNT at most this. */
  maxCount: 1000,
  /** UNTIL, and the last occurrence of a COUNT series, at most this many years after startsAt; the first occurrence too. */
  horizonYears: 10,
  maxInterval: 1000,
  /** Distinct values in one BY* part. */
  maxValuesPerPart: 31,
  /** Start times a rule may produce on one day: BYHOUR x BYMINUTE x BYSECOND (for HOURLY, hours of the day reached). */
  maxStartsPerDay: 24,
  /** Start times one period may hold when BYSETPOS picks among them (days of the period x start times a day). */
  maxSetPosCandidates: 1000,
} as const;

const L = RECURRENCE_LIMITS;
export const RecurrenceRule = z
  .string()
  .min(1)
  .max(500)
  .meta(checkedByServer(
    'RFC 5545 RRULE without DTSTART (`startsAt` is the first occurrence), e.g. `FREQ=WEEKLY;BYDAY=MO,WE`; an `RRULE:` ' +
      'prefix is allowed. Parts: FREQ (HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY; SECONDLY and MINUTELY are refused), ' +
      `INTERVAL (1-${L.maxInterval}), COUNT (1-${L.maxCount}) or UNTIL (not both), BYSECOND, BYMINUTE, BYHOUR, BYDAY, ` +
      'BYMONTHDAY, BYYEARDAY, BYWEEKNO, BYMONTH, BYSETPOS, WKST; each at most once. Refused with 400: unknown or ' +
      `repeated parts, malformed or repeated values, more than ${L.maxValuesPerPart} values in one part, more than ` +
      `${L.maxStartsPerDay} start times per day, BYSETPOS choosing among more than ${L.maxSetPosCandidates} start times a ` +
      `period, UNTIL before startsAt or more than ${L.horizonYears} years after it, a ` +
      `COUNT not reached within ${L.horizonYears} years, and a rule with no occurrence in the ${L.horizonYears} years ` +
      'from startsAt (such as `FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30`). A series without COUNT or UNTIL has no end.',
    ['FREQ=WEEKLY;BYDAY=MO,WE', 'FREQ=DAILY;COUNT=10', 'FREQ=MONTHLY;BYMONTHDAY=15;INTERVAL=2'],
  ));

/** Exceptions one series may hold (cancelled and changed occurrences), and their JSON at most (one log entry holds them). */
export const MAX_EXCEPTIONS = 1000;
export const MAX_EXCEPTIONS_BYTES = 2_000_000;

export const OccurrenceException = z
  .object({
    occurrenceStartsAt: DateTime.describe('The original start, as the rule produces it: the occurrence\'s identity'),
    cancelled: z.literal(true).optional().describe('Present on a cancelled occurrence, which carries no other field'),
    title: z.string().optional(),
    description: z.string().nullable().optional(),
    location: z.string().nullable().optional(),
    meetingUrl: z.string().nullable().optional(),
    kind: EventKind.optional(),
    busy: z.boolean().optional(),
    startsAt: DateTime.optional().describe('With endsAt, on a moved occurrence: where it now is'),
    endsAt: DateTime.optional(),
    attendees: z.array(Attendee).optional(),
    reminders: z.array(Reminder).optional(),
  })
  .meta({
    id: 'OccurrenceException',
    description:
      'One occurrence that differs from its series: `{occurrenceStartsAt, cancelled: true}`, or `{occurrenceStartsAt, ' +
      '...the fields that differ}` (a moved one has both `startsAt` and `endsAt`).',
    examples: [{ occurrenceStartsAt: '2026-03-23T09:00:00.000Z', startsAt: '2026-03-23T13:00:00.000Z', endsAt: '2026-03-23T14:00:00.000Z' }],
  });
export type OccurrenceException = z.infer<typeof OccurrenceException>;

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
    taskId: Uuid.nullable().describe('The task this time is for (planner blocks)'),
    goalId: Uuid.nullable().describe('The goal this time counts for (planner blocks): one of the creator\'s goals'),
    resources: z.array(z.string()),
    attendees: z.array(Attendee),
    reminders: z.array(Reminder),
    allowOverlap: z.boolean(),
    exceptions: z
      .array(OccurrenceException)
      .max(MAX_EXCEPTIONS)
      .describe('Cancelled and changed occurrences of a series, by original start; always empty for a single event'),
    icalUid: z.string().nullable().describe(
      'The iCalendar UID the event came with (imported, or written over CalDAV), kept as given; null for events made here, ' +
        'whose UID is `{id}@calendar-service`',
    ),
    icalRecurrenceId: DateTime.nullable().describe(
      'Set on an event made from an RDATE of an imported series (same `icalUid`): that date, its RECURRENCE-ID',
    ),
    status: z.enum(['confirmed', 'cancelled']),
    createdBy: Uuid,
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: DateTime.nullable().describe('Set once the event is cancelled (sync rows)'),
    version: z.number().int().describe('Increases with every change; the ETag is derived from it'),
  })
  .meta({ id: 'Event', description: 'A calendar event (for recurring events: the series).', examples: [examples.event] });
export type Event = z.infer<typeof Event>;
/**
 * What a command sets of an event; the rest (ids, status, times of change, version, exceptions, the iCalendar identity
 * an import gives) the schedule keeps.
 */
export type EventFields = Omit<
  Event,
  'id' | 'spaceId' | 'status' | 'createdBy' | 'createdAt' | 'updatedAt' | 'deletedAt' | 'version' | 'exceptions' | 'icalUid' | 'icalRecurrenceId'
>;
/** Everyone the event invites: the series' attendees and those of its changed occurrences (one may be in both). */
export const attendeesOf = (event: Pick<Event, 'attendees' | 'exceptions'>): Event['attendees'] => [
  ...event.attendees, ...(event.exceptions ?? []).flatMap((x) => x.attendees ?? []),
];
/** The fields one occurrence may have of its own (addendum: PATCH /events/{id}/occurrences/{occurrenceStartsAt}). */
export const OCCURRENCE_FIELDS = [
  'title', 'description', 'location', 'meetingUrl', 'kind', 'busy', 'startsAt', 'endsAt', 'attendees', 'reminders',
] as const;
export type OccurrenceFields = Pick<Event, (typeof OCCURRENCE_FIELDS)[number]>;

const { exceptions: _exceptions, ...occurrenceExample } = examples.event;
export const EventOccurrence = Event.omit({ exceptions: true }).extend({
  seriesId: Uuid.nullable().describe('The series id for an occurrence of a recurring event, else null'),
  occurrenceStartsAt: DateTime.nullable().describe('The occurrence start as the rule generated it (its identity), else null'),
}).meta({
  id: 'EventOccurrence',
  description:
    'A single event, or one occurrence of a series at its real time with the series\' id as `id` and `seriesId`; a ' +
    'changed occurrence shows its own fields. It never repeats the series\' `exceptions` (GET /events/{id} has them).',
  examples: [{ ...occurrenceExample, seriesId: examples.ids.event, occurrenceStartsAt: examples.at.starts }],
});
export type EventOccurrence = z.infer<typeof EventOccurrence>;

/** What event.updated and event.cancelled deliver: the event (a whole series), or one occurrence of a series. */
export const EventOrOccurrence = z.union([Event, EventOccurrence]).meta({
  id: 'EventOrOccurrence',
  description: 'The event or whole series; or, for one occurrence changed or cancelled, that occurrence (`occurrenceStartsAt` set)',
});

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
    taskId: Uuid.nullable().optional(),
    goalId: Uuid.nullable().optional().describe('One of the caller\'s goals (404 otherwise)'),
    resources: z.array(Resource).max(50).optional(),
    attendees: z.array(AttendeeInput).max(200).optional(),
    reminders: Reminders.optional().describe('At most 5; without it, the owner\'s `preferences.defaultReminders` (none by default)'),
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
    taskId: Uuid.nullable(),
    goalId: Uuid.nullable().describe('One of the caller\'s goals (404 otherwise)'),
    resources: z.array(Resource).max(50),
    attendees: z.array(AttendeeInput).max(200),
    reminders: Reminders,
    allowOverlap: z.boolean(),
  })
  .partial()
  .meta({
    id: 'UpdateEventBody',
    description:
      'Any subset of the create fields (at least one); edits the whole series. Exceptions whose original start the new ' +
      'rule still produces are kept, the others are dropped.',
    examples: [{ title: 'Weekly planning (moved)', startsAt: '2026-03-16T13:00:00Z', endsAt: '2026-03-16T14:00:00Z' }],
  });
export type UpdateEventBody = z.infer<typeof UpdateEventBody>;

export const RsvpBody = z.object({ answer: RsvpAnswer }).meta({ id: 'RsvpBody', examples: [{ answer: 'yes' }] });

/** Occurrences in one GET /events answer: a year of a daily series fits in one page. */
export const EVENTS_PAGE_SIZE = MAX_PAGE_SIZE;
/** A page also ends once its events take this many bytes of JSON (large series): building one stays cheap. */
export const EVENTS_PAGE_BYTES = 2_000_000;

export const ListEventsQuery = PageQuery.extend({
  from: DateTime,
  to: DateTimeAfter('from', MAX_EVENT_RANGE_DAYS),
  space: z.union([Uuid, z.array(Uuid)]).optional().describe('Space id filter; repeat the parameter for several'),
  limit: PageQuery.shape.limit.describe(`Occurrences per page (default and most ${EVENTS_PAGE_SIZE})`),
  asOf: AsOf.optional(),
}).describe(
  `Events and occurrences overlapping [from, to), at most 366 days, sorted by start then id, at most ${EVENTS_PAGE_SIZE} ` +
    `a page (fewer once a page holds about ${EVENTS_PAGE_BYTES / 1e6} MB of JSON): pass \`nextPageToken\` as \`pageToken\` ` +
    '(with the same range) for the next page; every occurrence appears exactly once across the pages.',
);

export const EventResponse = z.object({ event: Event }).meta({ id: 'EventResponse' });
export const EventListResponse = z
  .object({ events: z.array(EventOccurrence), nextPageToken: NextPageToken })
  .meta({ id: 'EventListResponse' });

const conflict = { description: 'Time (`time_conflict`) or resource (`resource_conflict`) conflict', schema: ErrorEnvelope };
const notFound = { description: 'Not found (also for events of other people)', schema: ErrorEnvelope };
const stale = { description: '`If-Match` carried a stale ETag (`version_mismatch`)', schema: ErrorEnvelope };
/** What a write of events answers for a calendar the caller may see but not write (docs/sharing.md, docs/subscriptions.md). */
export const writeRefused = {
  description: 'Not allowed: the caller only reads the calendar (`forbidden`, or `insufficient_scope` / `session_required` for the credential), or it is a subscription (`calendar_read_only`)',
  schema: ErrorEnvelope,
};

export const eventOperations = [
  op({
    method: 'get', path: '/events', tag: 'Events', summary: 'List events and occurrences in [from, to)',
    description:
      'Recurring series are expanded into occurrences (DST-correct in the event time zone), sorted by start then id, ' +
      `at most ${EVENTS_PAGE_SIZE} a page and about ${EVENTS_PAGE_BYTES / 1e6} MB (\`limit\`, \`pageToken\`, \`nextPageToken\`). ` +
      'The range spans at most 366 days.',
    query: ListEventsQuery,
    responses: { 200: { description: 'Events', schema: EventListResponse } },
  }),
  op({
    method: 'post', path: '/events', tag: 'Events', summary: 'Create an event', body: CreateEventBody, etag: true,
    responses: { 201: { description: 'Created', schema: EventResponse }, 403: writeRefused, 404: notFound, 409: conflict },
  }),
  op({
    method: 'get', path: '/events/{id}', tag: 'Events', summary: 'Get an event', params: IdParams, etag: true,
    responses: { 200: { description: 'The event, with an ETag', schema: EventResponse }, 404: notFound },
  }),
  op({
    method: 'patch', path: '/events/{id}', tag: 'Events', summary: 'Update an event (whole series)', params: IdParams, etag: true,
    body: UpdateEventBody,
    responses: { 200: { description: 'Updated', schema: EventResponse }, 403: writeRefused, 404: notFound, 409: conflict, 412: stale },
  }),
  op({
    method: 'delete', path: '/events/{id}', tag: 'Events', summary: 'Cancel an event', params: IdParams, etag: true,
    responses: { 204: { description: 'Cancelled' }, 403: writeRefused, 404: notFound, 412: stale },
  }),
  op({
    method: 'post', path: '/events/{id}/rsvp', tag: 'Events', summary: 'Answer an invitation', params: IdParams, etag: true,
    body: RsvpBody,
    responses: { 200: { description: 'Answered', schema: EventResponse }, 404: notFound },
  }),
];
