/** Sharing a calendar: POST and DELETE /calendars/{id}/members, decided on the calendar's Space stream. */
import { calendarMemberOperations, memberView, type AddCalendarMemberBody, type CalendarMemberRecord } from '../../contracts/calendar-members';
import { findOperation } from '../../contracts/operation';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { route, type Input } from '../../services/http/route';
import { lookupCaughtUp } from '../schedule/locate';
import type { MemberCommand } from '../schedule/members.rules';
import { scheduleDecider, scheduleStream } from '../schedule/schedule.decider';
import { personByEmail } from './person';

type CalendarParams = { id: string };

export function calendarMembersWriteRoutes(app: AppContext) {
  const spaceOf = async (calendarId: string) => {
    const spaceId = await lookupCaughtUp(app, async () => {
      const doc = await (await app.readModels.docs(SCHEDULE))('calendars').get(calendarId);
      return (doc?.spaceId as string | undefined) ?? null;
    });
    if (!spaceId) throw notFound('Calendar');
    return spaceId;
  };
  const run = (input: Input<unknown, unknown, unknown>, spaceId: string, command: MemberCommand) =>
    app.commands.handle(scheduleStream(spaceId), scheduleDecider, command, {
      userId: input.principal!.userId, commandId: input.commandId, correlationId: input.requestId, spaceId,
    });

  return [
    route<AddCalendarMemberBody, unknown, CalendarParams>(findOperation(calendarMemberOperations, 'post', '/calendars/{id}/members'), async (input) => {
      const calendarId = input.params.id;
      const spaceId = await spaceOf(calendarId);
      const person = await personByEmail(app, input.body.email);
      const result = await run(input, spaceId, {
        type: 'ShareCalendar', actorId: input.principal!.userId, calendarId, person, role: input.body.role, now: new Date().toISOString(),
      });
      const added = result.events.find((e) => e.type === 'calendar.member.added')?.data as CalendarMemberRecord | undefined;
      // The same role again changes nothing: the member as they are.
      const member = added ?? (await app.commands.load(scheduleStream(spaceId), scheduleDecider)).state.calendarMembers.get(calendarId)?.get(person!.userId);
      if (!member) throw notFound('Member');
      return { status: 201, body: { member: memberView(member) }, position: result.position };
    }),

    route<unknown, unknown, CalendarParams & { userId: string }>(
      findOperation(calendarMemberOperations, 'delete', '/calendars/{id}/members/{userId}'),
      async (input) => {
        const spaceId = await spaceOf(input.params.id);
        const result = await run(input, spaceId, {
          type: 'UnshareCalendar', actorId: input.principal!.userId, calendarId: input.params.id, userId: input.params.userId,
          now: new Date().toISOString(),
        });
        return { status: 204, position: result.position };
      },
    ),
  ];
}
