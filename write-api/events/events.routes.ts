import type { z } from 'zod';
import type { AttendeeInput, CreateEventBody, Event, RsvpBody, UpdateEventBody } from '../../contracts/events';
import { eventOperations } from '../../contracts/events';
import { findOperation } from '../../contracts/operation';
import { SCHEDULE } from '../../projections/schedule.projection';
import { etagOf, expectedVersions } from '../../services/http/etag';
import { locateEvent } from '../../read-api/events/events.queries';
import { ownGoal } from '../../read-api/goals/goals.queries';
import { userIdsByEmail } from '../../read-api/profile/users.queries';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { deterministicUuid } from '../../services/ids';
import { route, type Input } from '../../services/http/route';
import { decided } from '../../services/commands/command-handler';
import { userDecider, userStream } from '../accounts/user.decider';
import { isTestAccountEmail, isTestSpace } from '../api-keys/test-environment';
import { lookupCaughtUp } from '../schedule/locate';
import { scheduleDecider, scheduleStream, type ScheduleCommand } from '../schedule/schedule.decider';

type Attendees = z.infer<typeof AttendeeInput>[];
type IdParams = { id: string };

export function eventsWriteRoutes(app: AppContext) {
  const profile = async (userId: string) => (await app.commands.load(userStream(userId), userDecider)).state.user!;

  const resolveAttendees = async (input: Attendees, environment: 'live' | 'test'): Promise<Event['attendees']> => {
    const ids = await userIdsByEmail(app.readModels, input.map((a) => a.email));
    // Only users of the caller's environment are linked: test data never reaches a live inbox, nor live data a test one.
    const userId = (email: string) => (isTestAccountEmail(email) === (environment === 'test') ? ids.get(email.toLowerCase()) ?? null : null);
    return input.map((a) => ({ email: a.email, name: a.name ?? null, userId: userId(a.email), response: 'needs_action' }));
  };

  const spaceOfCalendar = async (calendarId: string) =>
    lookupCaughtUp(app, async () => {
      const doc = await (await app.readModels.docs(SCHEDULE))('calendars').get(calendarId);
      return (doc?.spaceId as string | undefined) ?? null;
    });

  const eventLocation = async (id: string) => {
    const event = await lookupCaughtUp(app, () => locateEvent(app.readModels, id));
    if (!event) throw notFound('Event');
    return event;
  };

  /** A block may count for one of the caller's goals only. */
  const checkGoal = async (userId: string, goalId: string | null | undefined) => {
    if (goalId && !(await lookupCaughtUp(app, () => ownGoal(app.readModels, userId, goalId)))) throw notFound('Goal');
  };

  const run = async (input: Input<unknown, unknown, unknown>, spaceId: string, command: ScheduleCommand) =>
    app.commands.handle(scheduleStream(spaceId), scheduleDecider, command, {
      userId: input.principal!.userId, commandId: input.commandId, correlationId: input.requestId, spaceId,
    });

  const ifMatch = (input: Input<unknown, unknown, unknown>) => expectedVersions(input.header('If-Match'));

  const answer = (status: number, event: Event, position: number | null) => ({
    status, body: { event }, headers: { ETag: etagOf(event.version) }, position,
  });

  return [
    route<CreateEventBody>(findOperation(eventOperations, 'post', '/events'), async (input) => {
      const b = input.body;
      const me = await profile(input.principal!.userId);
      const calendarId = b.calendarId ?? me.defaultCalendarId;
      const spaceId = await spaceOfCalendar(calendarId);
      if (!spaceId) throw notFound('Calendar');
      await checkGoal(me.id, b.goalId);
      const eventId = deterministicUuid(input.commandId, 'event');
      const result = await run(input, spaceId, {
        type: 'CreateEvent',
        actorId: me.id,
        eventId,
        now: new Date().toISOString(),
        fields: {
          calendarId,
          title: b.title,
          description: b.description ?? null,
          location: b.location ?? null,
          meetingUrl: b.meetingUrl ?? null,
          kind: b.kind ?? 'meeting',
          startsAt: new Date(b.startsAt).toISOString(),
          endsAt: new Date(b.endsAt).toISOString(),
          timeZone: b.timeZone ?? me.timeZone,
          allDay: b.allDay ?? false,
          busy: b.busy ?? true,
          recurrenceRule: b.recurrenceRule ?? null,
          taskId: b.taskId ?? null,
          goalId: b.goalId ?? null,
          resources: [...new Set(b.resources ?? [])],
          attendees: await resolveAttendees(b.attendees ?? [], input.principal!.environment),
          allowOverlap: b.allowOverlap ?? false,
        },
      });
      return answer(201, decided(result.events, 'event.created'), result.position);
    }),

    route<UpdateEventBody, unknown, IdParams>(findOperation(eventOperations, 'patch', '/events/{id}'), async (input) => {
      const located = await eventLocation(input.params.id);
      await checkGoal(input.principal!.userId, input.body.goalId);
      const { attendees, startsAt, endsAt, resources, ...rest } = input.body;
      const changes: Partial<Event> = { ...rest };
      if (startsAt) changes.startsAt = new Date(startsAt).toISOString();
      if (endsAt) changes.endsAt = new Date(endsAt).toISOString();
      if (resources) changes.resources = [...new Set(resources)];
      if (attendees) {
        const previous = new Map(located.attendees.map((a) => [a.email.toLowerCase(), a.response]));
        changes.attendees = (await resolveAttendees(attendees, input.principal!.environment)).map((a) => ({ ...a, response: previous.get(a.email.toLowerCase()) ?? a.response }));
      }
      const result = await run(input, located.spaceId, {
        type: 'UpdateEvent', actorId: input.principal!.userId, eventId: located.id, changes,
        expectedVersions: ifMatch(input), now: new Date().toISOString(),
      });
      return answer(200, decided(result.events, 'event.updated'), result.position);
    }),

    route<unknown, unknown, IdParams>(findOperation(eventOperations, 'delete', '/events/{id}'), async (input) => {
      const located = await eventLocation(input.params.id);
      const result = await run(input, located.spaceId, {
        type: 'CancelEvent', actorId: input.principal!.userId, eventId: located.id,
        expectedVersions: ifMatch(input), now: new Date().toISOString(),
      });
      return { status: 204, position: result.position };
    }),

    route<z.infer<typeof RsvpBody>, unknown, IdParams>(findOperation(eventOperations, 'post', '/events/{id}/rsvp'), async (input) => {
      const located = await eventLocation(input.params.id);
      // Attendees may answer by email: an invitation of the other environment must not be answerable (or linked).
      if ((await isTestSpace(app, located.spaceId)) !== (input.principal!.environment === 'test')) throw notFound('Event');
      const me = await profile(input.principal!.userId);
      const result = await run(input, located.spaceId, {
        type: 'AnswerInvitation', userId: me.id, email: me.email, eventId: located.id,
        answer: input.body.answer, now: new Date().toISOString(),
      });
      return answer(200, decided(result.events, 'event.updated'), result.position);
    }),
  ];
}
