/**
 * One occurrence of a series (addendum, "One occurrence of a series"): changed or cancelled on its own, or the series
 * split there ("this and following"). Session-only: api-spec.md keeps per-occurrence editing for the first-party apps.
 */
import { z } from 'zod';
import { DateTime, ErrorEnvelope, IdParams, Uuid } from './common';
import { EventOccurrence, EventResponse, MAX_EXCEPTIONS, MAX_EXCEPTIONS_BYTES, UpdateEventBody, writeRefused } from './events';
import { op } from './operation';

const OccurrenceStart = DateTime.describe(
  'The occurrence\'s original start, exactly as GET /events reports it in `occurrenceStartsAt` (ISO 8601; URL-encoded in ' +
    'paths). It stays the occurrence\'s identity after a move.',
);

export const OccurrenceParams = z.object({ id: Uuid, occurrenceStartsAt: OccurrenceStart });

export const UpdateOccurrenceBody = UpdateEventBody.pick({
  title: true, description: true, location: true, meetingUrl: true, kind: true, busy: true, startsAt: true, endsAt: true,
  attendees: true, reminders: true,
}).meta({
  id: 'UpdateOccurrenceBody',
  description:
    'Any of these fields (at least one), for this occurrence alone; a field left out keeps the occurrence\'s value (a ' +
    '`startsAt` alone keeps its end). A field set back to the series\' value is no longer the occurrence\'s own.',
  examples: [{ title: 'Weekly planning (in the big room)', startsAt: '2026-03-23T13:00:00Z', endsAt: '2026-03-23T14:00:00Z' }],
});
export type UpdateOccurrenceBody = z.infer<typeof UpdateOccurrenceBody>;

export const SplitEventBody = UpdateEventBody.extend({ occurrenceStartsAt: OccurrenceStart }).meta({
  id: 'SplitEventBody',
  description:
    'The occurrence to split at (not the first), and any fields of PATCH /events/{id} for the new series. The new ' +
    'series starts at that occurrence (its start and end unless given) with the rule\'s remaining COUNT or its UNTIL.',
  examples: [{ occurrenceStartsAt: '2026-03-30T08:00:00.000Z', title: 'Weekly planning (new format)', location: 'Room Green' }],
});
export type SplitEventBody = z.infer<typeof SplitEventBody>;

export const OccurrenceResponse = z.object({ event: EventOccurrence }).meta({ id: 'OccurrenceResponse' });

const errors = {
  403: writeRefused,
  404: { description: 'No such event of the caller, or no such occurrence: a start its rule does not produce, or a cancelled one', schema: ErrorEnvelope },
  412: { description: '`If-Match` carried a stale ETag of the series (`version_mismatch`)', schema: ErrorEnvelope },
};
const limit =
  `\`too_many_exceptions\`: the series already holds ${MAX_EXCEPTIONS} cancelled or changed occurrences (or ${MAX_EXCEPTIONS_BYTES / 1e6} MB of them)`;

export const occurrenceOperations = [
  op({
    method: 'patch', path: '/events/{id}/occurrences/{occurrenceStartsAt}', tag: 'Events', summary: 'Change one occurrence of a series',
    description:
      'The occurrence is then listed once, at its new time, with the same `seriesId` and its original `occurrenceStartsAt`. ' +
      'It is checked for conflicts as a single event (never with its own series). Emits `event.updated` whose `data` is ' +
      'the occurrence. ETag and If-Match are the series\' version, which every change of an occurrence moves on.',
    params: OccurrenceParams, body: UpdateOccurrenceBody, etag: true,
    responses: {
      200: { description: 'The occurrence as it now is', schema: OccurrenceResponse },
      ...errors,
      409: { description: `Time (\`time_conflict\`) or resource (\`resource_conflict\`) conflict, or ${limit}`, schema: ErrorEnvelope },
    },
  }),
  op({
    method: 'delete', path: '/events/{id}/occurrences/{occurrenceStartsAt}', tag: 'Events', summary: 'Cancel one occurrence of a series',
    description: 'The occurrence is no longer listed and is busy nowhere. Emits `event.cancelled` whose `data` is the occurrence.',
    params: OccurrenceParams, etag: true,
    responses: { 204: { description: 'Cancelled' }, ...errors, 409: { description: limit, schema: ErrorEnvelope } },
  }),
  op({
    method: 'post', path: '/events/{id}/split', tag: 'Events', summary: 'Split a series at an occurrence (this and following)',
    description:
      'The series now ends just before that occurrence (UNTIL, `event.updated`) and keeps its exceptions before it; a new ' +
      'series starts there with the changes (`event.created`) and takes the exceptions from there on that its rule still ' +
      'produces. If-Match is checked against the old series. Splitting at the first occurrence is 400: PATCH the series.',
    params: IdParams, body: SplitEventBody, etag: true,
    responses: {
      201: { description: 'The new series', schema: EventResponse },
      400: { description: 'Invalid body, or the first occurrence (`invalid_request`)', schema: ErrorEnvelope },
      ...errors,
      409: { description: 'The new series conflicts (`time_conflict`, `resource_conflict`)', schema: ErrorEnvelope },
    },
  }),
];
