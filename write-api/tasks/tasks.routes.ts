import { findOperation } from '../../contracts/operation';
import { taskOperations, type CreateTaskBody, type Task, type UpdateTaskBody } from '../../contracts/tasks';
import { visibleTask } from '../../read-api/tasks/tasks.queries';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { lookupCaughtUp } from '../schedule/locate';
import { assigneeFacts } from './assignee';
import { board, ifMatch, lastOf, withEtag } from './board';
import type { Anchor, TaskChanges } from './tasks.decider';

type IdParams = { id: string };

const iso = (instant: string | null) => (instant === null ? null : new Date(instant).toISOString());

export function tasksWriteRoutes(app: AppContext) {
  const commands = board(app);

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
      const owner = input.principal!.userId;
      const result = await commands.run(input, owner, {
        ...(await assigneeFacts(app, input.principal!, owner, b.assigneeId)),
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
      const owner = located.createdBy;
      const facts = await assigneeFacts(app, input.principal!, owner, rest.assigneeId);
      const changes: TaskChanges = { ...rest };
      if (dueAt !== undefined) changes.dueAt = iso(dueAt);
      const anchor: Anchor | undefined = beforeId ? { beforeId } : afterId ? { afterId } : undefined;
      const result = await commands.run(input, owner, {
        ...facts,
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
