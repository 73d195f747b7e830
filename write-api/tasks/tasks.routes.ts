import { findOperation } from '../../contracts/operation';
import { taskOperations, type CreateTaskBody, type Task, type UpdateTaskBody } from '../../contracts/tasks';
import { visibleTask } from '../../read-api/tasks/tasks.queries';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import type { Principal } from '../../services/http/principal';
import { route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { userDecider, userStream } from '../accounts/user.decider';
import { isTestAccountEmail } from '../api-keys/test-environment';
import { lookupCaughtUp } from '../schedule/locate';
import { board, ifMatch, lastOf, withEtag } from './board';
import type { Anchor, TaskChanges } from './tasks.decider';

type IdParams = { id: string };

const iso = (instant: string | null) => (instant === null ? null : new Date(instant).toISOString());

export function tasksWriteRoutes(app: AppContext) {
  const commands = board(app);

  /**
   * An assignee is a user of the caller's environment (test keys never reach live people, nor live keys test accounts);
   * any other id names nobody the caller can reach: 404, as for a project or list.
   */
  const checkAssignee = async (principal: Principal, assigneeId: string | null | undefined) => {
    if (!assigneeId) return;
    const user = (await app.commands.load(userStream(assigneeId), userDecider)).state.user;
    if (!user || isTestAccountEmail(user.email) !== (principal.environment === 'test')) {
      throw notFound('Assignee (assigneeId)');
    }
  };

  /**
   * The task as the caller sees it: its owner's stream is where the command goes. The caller's own board is read
   * first, from the log, so a task just created can be changed at once however far the read models lag; a task on
   * someone else's board (a shared project) is found through the read model.
   */
  const locate = async (viewerId: string, taskId: string) => {
    const own = (await commands.state(viewerId)).tasks.get(taskId);
    if (own) return own;
    const task = await lookupCaughtUp(app, () => visibleTask(app.readModels, viewerId, taskId));
    if (!task) throw notFound('Task');
    return task;
  };

  return [
    route<CreateTaskBody>(findOperation(taskOperations, 'post', '/tasks'), async (input) => {
      const b = input.body;
      await checkAssignee(input.principal!, b.assigneeId);
      const result = await commands.run(input, input.principal!.userId, {
        type: 'CreateTask',
        taskId: deterministicUuid(input.commandId, 'task'),
        fields: {
          title: b.title, notes: b.notes ?? null, dueAt: iso(b.dueAt ?? null), estimateMinutes: b.estimateMinutes ?? null,
          priority: b.priority ?? 'normal', assigneeId: b.assigneeId ?? null,
        },
        place: { projectId: b.projectId, listId: b.listId },
      });
      const task = lastOf<Task>(result.events, 'task.')!;
      return withEtag(201, { task }, task.version, result.position);
    }),

    route<UpdateTaskBody, unknown, IdParams>(findOperation(taskOperations, 'patch', '/tasks/{id}'), async (input) => {
      const located = await locate(input.principal!.userId, input.params.id);
      const { projectId, listId, beforeId, afterId, dueAt, ...rest } = input.body;
      await checkAssignee(input.principal!, rest.assigneeId);
      const changes: TaskChanges = { ...rest };
      if (dueAt !== undefined) changes.dueAt = iso(dueAt);
      const anchor: Anchor | undefined = beforeId ? { beforeId } : afterId ? { afterId } : undefined;
      const owner = located.createdBy;
      const result = await commands.run(input, owner, {
        type: 'UpdateTask', taskId: located.id, changes, place: { projectId, listId }, anchor, expectedVersions: ifMatch(input),
      });
      const task = lastOf<Task>(result.events, 'task.') ?? (await commands.state(owner)).tasks.get(located.id);
      if (!task) throw notFound('Task');
      return withEtag(200, { task }, task.version, result.position);
    }),

    route<unknown, unknown, IdParams>(findOperation(taskOperations, 'delete', '/tasks/{id}'), async (input) => {
      const located = await locate(input.principal!.userId, input.params.id);
      const result = await commands.run(input, located.createdBy, { type: 'DeleteTask', taskId: located.id, expectedVersions: ifMatch(input) });
      return { status: 204, position: result.position };
    }),
  ];
}
