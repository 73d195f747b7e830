/**
 * Scheduling with other people (addendum): the busy time of several people at once, and meeting times that suit
 * them, both worked out by the one availability engine from the calendars each person shares with the caller.
 * The rules (who counts as shared, working hours, scoring, bounds) are in docs/sharing.md.
 */
import { z } from 'zod';
import { tooMuch } from './availability';
import { BoundedInstant as Instant, DateTime, Email, laterThan, Uuid } from './common';
import { op } from './operation';

export const SCHEDULING_LIMITS = {
  /** People per POST /free-busy, attendees per POST /meeting-suggestions. */
  people: 50,
  /** Longest range, in days. */
  rangeDays: 62,
  durationMinutes: { min: 5, max: 1440 },
  /** Candidate starts are this many minutes apart (on the quarter hours of every zone). */
  stepMinutes: 15,
  /** Suggestions in one answer, at most. */
  suggestions: 50,
} as const;

const limits = SCHEDULING_LIMITS;

export const PersonRef = z
  .union([Uuid, Email])
  .meta({ id: 'PersonRef', description: 'A user id, or the email of a user', examples: ['grace@example.com'] });

const people = (what: string) =>
  z.array(PersonRef).min(1).max(limits.people).describe(`${what}: user ids or emails, 1-${limits.people} (repeats count once)`);

const range = {
  from: Instant.describe('Start of the range (date-time)'),
  to: laterThan(Instant.describe('End of the range (date-time)'), 'from', { maxDays: limits.rangeDays }),
};

export const FreeBusyBody = z
  .strictObject({ ...range, people: people('Whose busy time') })
  .meta({
    id: 'FreeBusyBody',
    examples: [{ from: '2026-03-16T00:00:00Z', to: '2026-03-21T00:00:00Z', people: ['grace@example.com', '8d2e4f6a-1b3c-4d5e-8f7a-9b0c1d2e3f4a'] }],
  });
export type FreeBusyBody = z.infer<typeof FreeBusyBody>;

export const MeetingSuggestionsBody = z
  .strictObject({
    attendees: people('Who should meet'),
    durationMinutes: z.number().int().min(limits.durationMinutes.min).max(limits.durationMinutes.max)
      .describe(`Length of the meeting, ${limits.durationMinutes.min}-${limits.durationMinutes.max} minutes`),
    ...range,
    minimumAttendeePercentage: z.number().min(0).max(100).optional()
      .describe('Least share of the attendees who must be free for a time to be suggested, 0-100 (default 100)'),
  })
  .meta({
    id: 'MeetingSuggestionsBody',
    examples: [{
      attendees: ['grace@example.com', '8d2e4f6a-1b3c-4d5e-8f7a-9b0c1d2e3f4a'], durationMinutes: 30,
      from: '2026-03-16T00:00:00Z', to: '2026-03-21T00:00:00Z', minimumAttendeePercentage: 100,
    }],
  });
export type MeetingSuggestionsBody = z.infer<typeof MeetingSuggestionsBody>;

/** Who a person of the request is: both fields when they share something with the caller; else only what was asked. */
const who = {
  id: Uuid.nullable().describe('Their user id; null when asked by an email that shares nothing with the caller'),
  email: z.string().nullable().describe('Their email; null when asked by an id that shares nothing with the caller'),
  error: z.literal('not_shared').optional()
    .describe('They share no calendar with the caller, or there is no such user (the answer never tells which)'),
};

const span = { startsAt: DateTime, endsAt: DateTime };

export const PersonBusy = z
  .object({ ...who, busy: z.array(z.object(span)).describe('Merged busy intervals in time order; empty when `error` is set') })
  .meta({ id: 'PersonBusy' });

export const FreeBusyPeopleResponse = z
  .object({ from: DateTime, to: DateTime, people: z.array(PersonBusy).describe('One per person asked, in the order asked') })
  .meta({
    id: 'FreeBusyPeopleResponse',
    examples: [{
      from: '2026-03-16T00:00:00.000Z', to: '2026-03-21T00:00:00.000Z',
      people: [
        { id: '5f8a7c1e-3b2d-4e6f-9a1b-2c3d4e5f6a7b', email: 'grace@example.com', busy: [{ startsAt: '2026-03-16T09:00:00.000Z', endsAt: '2026-03-16T10:00:00.000Z' }] },
        { id: '8d2e4f6a-1b3c-4d5e-8f7a-9b0c1d2e3f4a', email: null, busy: [], error: 'not_shared' },
      ],
    }],
  });

export const EMPTY_SUGGESTIONS_REASONS = [
  'attendees_unavailable', 'outside_working_hours', 'attendees_not_shared', 'range_in_past', 'range_too_short',
] as const;
export type EmptySuggestionsReason = (typeof EMPTY_SUGGESTIONS_REASONS)[number];

const SuggestionAttendee = z.object({ ...who, free: z.boolean().describe('Inside their working hours and not busy') });

export const MeetingSuggestion = z
  .object({
    ...span,
    confidence: z.number().min(0).max(100).describe('Share of the attendees free then, in percent (two decimals)'),
    attendees: z.array(SuggestionAttendee).describe('Every attendee, in the order asked'),
  })
  .meta({ id: 'MeetingSuggestion' });

export const MeetingSuggestionsResponse = z
  .object({
    suggestions: z.array(MeetingSuggestion).describe(`Best first: highest confidence, then earliest; at most ${limits.suggestions}`),
    emptySuggestionsReason: z.enum(EMPTY_SUGGESTIONS_REASONS).optional().describe(
      'Set when there is no suggestion: `range_too_short` (the meeting is longer than the range), `range_in_past` (no start '
        + 'from now on), `attendees_not_shared` (too few attendees share their calendars with the caller to reach the '
        + 'percentage), `outside_working_hours` (too few attendees have working hours at any time of the range), '
        + '`attendees_unavailable` (the attendees are busy whenever enough of them work)',
    ),
  })
  .meta({
    id: 'MeetingSuggestionsResponse',
    examples: [{
      suggestions: [{
        startsAt: '2026-03-16T10:00:00.000Z', endsAt: '2026-03-16T10:30:00.000Z', confidence: 100,
        attendees: [
          { id: '5f8a7c1e-3b2d-4e6f-9a1b-2c3d4e5f6a7b', email: 'grace@example.com', free: true },
          { id: '8d2e4f6a-1b3c-4d5e-8f7a-9b0c1d2e3f4a', email: 'ada@example.com', free: true },
        ],
      }],
    }, { suggestions: [], emptySuggestionsReason: 'attendees_unavailable' }],
  });

export const schedulingOperations = [
  op({
    method: 'post', path: '/free-busy', heavy: true, tag: 'Availability', summary: 'Busy time of several people',
    description: 'For each person, their busy time in [from, to) across the calendars they share with the caller, whatever '
      + 'the role (their events marked busy, merged, without titles or anything else). The caller asking about themself gets '
      + 'what GET /free-busy answers them (their fixed routine periods included). A person who shares nothing with the '
      + 'caller, and an id or email of nobody, get `error: "not_shared"` alike, never any of their data.',
    body: FreeBusyBody,
    responses: { 200: { description: 'Busy time per person', schema: FreeBusyPeopleResponse }, 422: tooMuch },
  }),
  op({
    method: 'post', path: '/meeting-suggestions', heavy: true, tag: 'Availability', summary: 'Times the attendees can meet',
    description: `Meetings of \`durationMinutes\` starting on the quarter hours of [from, to), from now on, scored by the share of `
      + 'attendees free (inside their own working hours, read in their own time zone, and not busy on any calendar they '
      + 'share with the caller, as POST /free-busy counts it). Times with at least `minimumAttendeePercentage` of them free '
      + '(and one at least) are suggested, best first. An attendee who shares nothing with the caller is never free. When '
      + 'nothing fits, `suggestions` is empty and `emptySuggestionsReason` says why.',
    body: MeetingSuggestionsBody,
    responses: { 200: { description: 'Suggestions, best first', schema: MeetingSuggestionsResponse }, 422: tooMuch },
  }),
];
