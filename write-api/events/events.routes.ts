import type { z } from 'zod';
import type { CreateEventBody, RsvpBody, UpdateEventBody } from '../../contracts/events';
import { eventOperations } from '../../contracts/events';
import { findOperation } from '../../contracts/operation';
import { defaultRemindersOf } from '../../contracts/reminders';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { deterministicUuid } from '../../services/ids';
import { route } from '../../services/http/route';
import { decided } from '../../services/commands/command-handler';
import { isTestSpace } from '../api-keys/test-environment';
import { eventCommands } from './event-commands';

type IdParams = { id: string };

export function eventsWriteRoutes(app: AppContext) {
  const { profile, resolveAttendees, spaceOfCalendar, eventLocation, checkGoal, changesOf, run, ifMatch, answer } = eventCommands(app);

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
          reminders: b.reminders ?? defaultRemindersOf(me.preferences),
          allowOverlap: b.allowOverlap ?? false,
        },
      });
      return answer(201, decided(result.events, 'event.created'), result.position);
    }),

    route<UpdateEventBody, unknown, IdParams>(findOperation(eventOperations, 'patch', '/events/{id}'), async (input) => {
      const located = await eventLocation(input.params.id);
      await checkGoal(input.principal!.userId, input.body.goalId);
      const changes = await changesOf(input, input.body, located.attendees);
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
