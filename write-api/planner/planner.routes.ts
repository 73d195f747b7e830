/**
 * POST /planner/apply: the kept blocks become events of the default calendar in one decision of its Space schedule,
 * so either all are written or, when one overlaps busy time that appeared since the plan, none.
 */
import { findOperation } from '../../contracts/operation';
import { plannerOperations, type ApplyBlock, type ApplyBody } from '../../contracts/planner';
import { defaultRemindersOf } from '../../contracts/reminders';
import { refuseOverlappingBlocks } from './overlaps';
import { ownGoal } from '../../read-api/goals/goals.queries';
import { visibleTask } from '../../read-api/tasks/tasks.queries';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { userDecider, userStream } from '../accounts/user.decider';
import { lookupCaughtUp } from '../schedule/locate';
import { scheduleDecider, scheduleStream, type EventFields } from '../schedule/schedule.decider';

export function plannerWriteRoutes(app: AppContext) {
  /** The title of each linked task or goal; someone else's (or an unknown) id is 404. */
  async function linkedTitles(userId: string, blocks: ApplyBlock[]): Promise<Map<string, string>> {
    const titles = new Map<string, string>();
    const taskIds = new Set(blocks.map((b) => b.taskId).filter((id): id is string => !!id));
    const goalIds = new Set(blocks.map((b) => b.goalId).filter((id): id is string => !!id));
    await Promise.all([
      ...[...taskIds].map(async (id) => {
        const task = await lookupCaughtUp(app, () => visibleTask(app.readModels, userId, id));
        if (!task) throw notFound('Task');
        titles.set(id, task.title);
      }),
      ...[...goalIds].map(async (id) => {
        const goal = await lookupCaughtUp(app, () => ownGoal(app.readModels, userId, id));
        if (!goal) throw notFound('Goal');
        titles.set(id, goal.name);
      }),
    ]);
    return titles;
  }

  return [
    route<ApplyBody>(findOperation(plannerOperations, 'post', '/planner/apply'), async (input) => {
      refuseOverlappingBlocks(input.body.blocks);
      const userId = input.principal!.userId;
      const me = (await app.commands.load(userStream(userId), userDecider)).state.user!;
      const titles = await linkedTitles(userId, input.body.blocks);
      const fields = (b: ApplyBlock): EventFields => ({
        calendarId: me.defaultCalendarId,
        title: b.title ?? titles.get(b.taskId ?? '') ?? titles.get(b.goalId ?? '') ?? 'Focus',
        description: null, location: null, meetingUrl: null,
        kind: b.kind,
        startsAt: new Date(b.startsAt).toISOString(),
        endsAt: new Date(b.endsAt).toISOString(),
        timeZone: me.timeZone, allDay: false, busy: true, recurrenceRule: null,
        taskId: b.taskId ?? null, goalId: b.goalId ?? null,
        resources: [], attendees: [], reminders: defaultRemindersOf(me.preferences), allowOverlap: false,
      });
      // The default calendar lives in the personal Space (both fixed at signup).
      const spaceId = me.personalSpaceId;
      const result = await app.commands.handle(scheduleStream(spaceId), scheduleDecider, {
        type: 'CreateEvents',
        actorId: userId,
        now: new Date().toISOString(),
        events: input.body.blocks.map((b, i) => ({ eventId: deterministicUuid(input.commandId, 'planner-block', String(i)), fields: fields(b) })),
      }, { userId, commandId: input.commandId, correlationId: input.requestId, spaceId });
      return { status: 200, body: { events: result.events.map((e) => e.data) }, position: result.position };
    }),
  ];
}
