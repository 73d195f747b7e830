/** Focus sessions: api-spec.md section 3's machine (running, paused, stopped), one running-or-paused per user. */
import { z } from 'zod';
import { DateTime, ErrorEnvelope, IdParams, NonBlankText, Uuid } from './common';
import { op } from './operation';
import { notFoundAnswer, staleEtagAnswer } from './responses';

export const FOCUS_STATUSES = ['running', 'paused', 'stopped'] as const;
export const FocusAction = z.enum(['pause', 'resume', 'stop']);

/** What the domain events carry; the answers add the elapsed time. */
export const FocusSessionRecord = z.object({
  id: Uuid,
  userId: Uuid,
  taskId: Uuid.nullable(),
  eventId: Uuid.nullable(),
  goalId: Uuid.nullable().describe('The goal the session counts for: given at start, else the goal of its event'),
  label: z.string().nullable(),
  plannedMinutes: z.number().int().nullable().describe('`minutes` of the start body: how long it is meant to last'),
  status: z.enum(FOCUS_STATUSES),
  startedAt: DateTime,
  pausedAt: DateTime.nullable().describe('When the current pause began (set while paused)'),
  stoppedAt: DateTime.nullable(),
  pausedSeconds: z.number().int().describe('Paused time before the current pause'),
  updatedAt: DateTime,
  version: z.number().int(),
});
export type FocusSessionRecord = z.infer<typeof FocusSessionRecord>;

const example = {
  id: '0b7f4c1e-5a8d-4e2b-9c61-2f3a4b5c6d7e',
  userId: '5d2c8e3a-1b4f-4c6d-8e9a-0f1b2c3d4e5f',
  taskId: null,
  eventId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
  goalId: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f',
  label: 'Write the quarterly report',
  plannedMinutes: 50,
  status: 'paused',
  startedAt: '2026-11-23T09:00:00.000Z',
  pausedAt: '2026-11-23T09:32:00.000Z',
  stoppedAt: null,
  pausedSeconds: 120,
  updatedAt: '2026-11-23T09:32:00.000Z',
  version: 3,
  elapsedSeconds: 1800,
  elapsedMinutes: 30,
};

export const FocusSession = FocusSessionRecord.extend({
  elapsedSeconds: z.number().int().describe('Time focused so far, paused time excluded (up to now while running)'),
  elapsedMinutes: z.number().int().describe('`elapsedSeconds` in whole minutes'),
}).meta({ id: 'FocusSession', examples: [example] });
export type FocusSession = z.infer<typeof FocusSession>;

export const StartFocusBody = z
  .object({
    taskId: Uuid.optional().describe('The task worked on (recorded as given)'),
    eventId: Uuid.optional().describe('A calendar event of the caller (404 otherwise); its goal becomes the session\'s'),
    goalId: Uuid.optional().describe('One of the caller\'s goals (404 otherwise); wins over the event\'s goal'),
    minutes: z.number().int().min(1).max(1440).optional().describe('Planned length; the session does not stop by itself'),
    label: NonBlankText(200).optional(),
  })
  .meta({ id: 'StartFocusBody', examples: [{ eventId: example.eventId, minutes: 50, label: 'Write the quarterly report' }] });
export type StartFocusBody = z.infer<typeof StartFocusBody>;

export const FocusActionBody = z
  .object({ action: FocusAction })
  .meta({ id: 'FocusActionBody', examples: [{ action: 'pause' }] });
export type FocusActionBody = z.infer<typeof FocusActionBody>;

export const FocusSessionResponse = z
  .object({ session: FocusSession })
  .meta({ id: 'FocusSessionResponse', examples: [{ session: example }] });

export const CurrentFocusResponse = z
  .object({ session: FocusSession.nullable().describe('The running or paused session; null when there is none') })
  .meta({ id: 'CurrentFocusResponse', examples: [{ session: example }, { session: null }] });


export const focusOperations = [
  op({
    method: 'get', path: '/focus', tag: 'Focus', summary: 'The running or paused focus session',
    responses: { 200: { description: 'The current session, or `{session: null}`', schema: CurrentFocusResponse } },
  }),
  op({
    method: 'post', path: '/focus', etag: true, tag: 'Focus', summary: 'Start a focus session', body: StartFocusBody, bodyOptional: true,
    description: 'At most one session per person is running or paused; starting another is 409 `focus_already_running`.',
    responses: {
      201: { description: 'Started', schema: FocusSessionResponse },
      404: { description: 'The event or goal is not the caller\'s (`not_found`)', schema: ErrorEnvelope },
      409: { description: '`focus_already_running`: a session is running or paused (`details.sessionId`)', schema: ErrorEnvelope },
    },
  }),
  op({
    method: 'patch', path: '/focus/{id}', etag: true, tag: 'Focus', summary: 'Pause, resume or stop a focus session',
    description:
      'running -> pause -> paused; paused -> resume -> running; running or paused -> stop -> stopped. A move the ' +
      'state does not allow is 409: `focus_not_running` (pause a paused session), `focus_not_paused` (resume a ' +
      'running one), `focus_already_stopped` (any action on a stopped one).',
    params: IdParams, body: FocusActionBody,
    responses: {
      200: { description: 'The session after the move, with an ETag', schema: FocusSessionResponse },
      404: notFoundAnswer('sessions'),
      409: { description: '`focus_not_running`, `focus_not_paused` or `focus_already_stopped`', schema: ErrorEnvelope },
      412: staleEtagAnswer,
    },
  }),
];

/** The session as answers show it: elapsed time up to `now` (or its pause, or its stop), paused time excluded. */
export function focusView(record: FocusSessionRecord, now: number): FocusSession {
  const end = record.stoppedAt ?? record.pausedAt;
  const until = end ? Date.parse(end) : now;
  const elapsedSeconds = Math.max(0, Math.floor((until - Date.parse(record.startedAt)) / 1000) - record.pausedSeconds);
  return { ...record, elapsedSeconds, elapsedMinutes: Math.floor(elapsedSeconds / 60) };
}
