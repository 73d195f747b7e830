import type { z } from 'zod';
import { findOperation } from '../../contracts/operation';
import { spaceOperations, type CreateCalendarBody, type CreateSpaceBody } from '../../contracts/spaces';
import type { AppContext } from '../../services/app-context';
import { deterministicUuid } from '../../services/ids';
import { route, type Input } from '../../services/http/route';
import { decided } from '../../services/commands/command-handler';
import { userDecider, userStream } from '../accounts/user.decider';
import { scheduleDecider, scheduleStream } from '../schedule/schedule.decider';

/** A new shared Space (an organization) owned by the caller, with its default calendar. */
export async function createSharedSpace(app: AppContext, input: Input<unknown, unknown, unknown>, name: string) {
  const userId = input.principal!.userId;
  const spaceId = deterministicUuid(input.commandId, 'space');
  const now = new Date().toISOString();
  const space = { id: spaceId, name, kind: 'shared' as const, ownerId: userId, createdAt: now, updatedAt: now, deletedAt: null };
  const calendar = {
    id: deterministicUuid(input.commandId, 'calendar'), spaceId, name, color: '#3366ff', isDefault: true,
    createdAt: now, updatedAt: now, deletedAt: null,
  };
  const result = await app.commands.handle(scheduleStream(spaceId), scheduleDecider, { type: 'CreateSpace', space, calendar }, {
    userId, commandId: input.commandId, correlationId: input.requestId, spaceId,
  });
  return {
    space: decided(result.events, 'space.created').space, calendar: decided(result.events, 'calendar.created').calendar, position: result.position,
  };
}

export function spacesWriteRoutes(app: AppContext) {
  return [
    route<z.infer<typeof CreateSpaceBody>>(findOperation(spaceOperations, 'post', '/spaces'), async (input) => {
      const { space, calendar, position } = await createSharedSpace(app, input, input.body.name);
      return { status: 201, body: { space, calendar }, position };
    }),

    route<z.infer<typeof CreateCalendarBody>>(findOperation(spaceOperations, 'post', '/calendars'), async (input) => {
      const userId = input.principal!.userId;
      const spaceId = input.body.spaceId ?? (await app.commands.load(userStream(userId), userDecider)).state.user!.personalSpaceId;
      const now = new Date().toISOString();
      const calendar = {
        id: deterministicUuid(input.commandId, 'calendar'), spaceId, name: input.body.name, color: input.body.color ?? '#3366ff',
        isDefault: false, createdAt: now, updatedAt: now, deletedAt: null,
      };
      const result = await app.commands.handle(scheduleStream(spaceId), scheduleDecider, { type: 'CreateCalendar', actorId: userId, calendar }, {
        userId, commandId: input.commandId, correlationId: input.requestId, spaceId,
      });
      return { status: 201, body: { calendar: decided(result.events, 'calendar.created').calendar }, position: result.position };
    }),
  ];
}
