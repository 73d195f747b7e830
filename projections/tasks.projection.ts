/**
 * Tasks, projects and lists: what GET /tasks, /projects and /sync read.
 *
 * A task is stored once per person who sees it (`<viewerId>:<taskId>`): its owner, and its assignee when that is
 * someone else. Every read and every sync row is then one equality on `_viewerId`, and an unassigned person's row
 * turns into a row with `deletedAt` so their apps drop it. `stats` keeps, per project, each live task's status and
 * assignee: the counts and People of GET /projects without reading the tasks.
 *
 * Within one event the owner's row is written last: once it is at the event's position, the event is fully applied,
 * and it tells what the task was before (the project and assignee to leave).
 */
import type { DomainEventData } from '../contracts/domain-events';
import type { Project, Task, TaskList } from '../contracts/tasks';
import type { RecordedEvent } from '../services/eventstore/event-store.port';
import type { Doc } from '../services/readstore/read-store.port';
import { projection, type ProjectionDocs } from './projection';

export const TASKS = 'tasks';

export type TaskDoc = Doc & Task & { _viewerId: string };
export type StatsDoc = Doc & { tasks: Record<string, { done: boolean; assigneeId: string | null }> };

export const viewId = (viewerId: string, taskId: string) => `${viewerId}:${taskId}`;

function taskDoc(task: Task, viewerId: string, e: RecordedEvent): TaskDoc {
  return {
    ...task,
    _id: viewId(viewerId, task.id),
    _viewerId: viewerId,
    _pos: e.position,
    _changedAt: e.metadata.occurredAt,
    _sortKey: `${task.createdAt}|${task.id}`,
    _rankKey: `${task.rank}|${task.id}`,
    _dueMs: task.dueAt ? Date.parse(task.dueAt) : null,
  };
}

async function updateStats(docs: ProjectionDocs, projectId: string, e: RecordedEvent, task: Task | null, taskId: string) {
  const stats = docs<StatsDoc>('stats');
  const current = await stats.get(projectId);
  if (current && current._pos! >= e.position) return;
  const tasks = { ...current?.tasks };
  if (task) tasks[taskId] = { done: task.status === 'done', assigneeId: task.assigneeId };
  else delete tasks[taskId];
  await stats.putIfNewer({ _id: projectId, _pos: e.position, tasks });
}

async function applyTask(docs: ProjectionDocs, task: Task, e: RecordedEvent): Promise<void> {
  const rows = docs<TaskDoc>('tasks');
  const owner = task.createdBy;
  const before = await rows.get(viewId(owner, task.id));
  if (before && before._pos! >= e.position) return;
  const live = task.deletedAt === null;
  if (before?.projectId && before.projectId !== task.projectId) await updateStats(docs, before.projectId, e, null, task.id);
  if (task.projectId) await updateStats(docs, task.projectId, e, live ? task : null, task.id);
  const formerAssignee = before?.assigneeId;
  if (formerAssignee && formerAssignee !== owner && formerAssignee !== task.assigneeId) {
    const left = await rows.get(viewId(formerAssignee, task.id));
    if (left) await rows.putIfNewer({ ...left, deletedAt: e.metadata.occurredAt, _pos: e.position, _changedAt: e.metadata.occurredAt });
  }
  if (task.assigneeId && task.assigneeId !== owner) await rows.putIfNewer(taskDoc(task, task.assigneeId, e));
  await rows.putIfNewer(taskDoc(task, owner, e));
}

async function applyReranked(docs: ProjectionDocs, data: DomainEventData<'list.reranked'>, e: RecordedEvent): Promise<void> {
  const rows = docs<TaskDoc>('tasks');
  for (const { id, rank } of data.ranks) {
    const own = await rows.get(viewId(data.ownerId, id));
    if (!own || own._pos! >= e.position) continue;
    const moved = (doc: TaskDoc) => taskDoc({ ...(doc as Task), rank }, doc._viewerId, e);
    if (own.assigneeId && own.assigneeId !== data.ownerId) {
      const theirs = await rows.get(viewId(own.assigneeId, id));
      if (theirs && theirs.deletedAt === null) await rows.putIfNewer(moved(theirs));
    }
    await rows.putIfNewer(moved(own));
  }
}

const TASK_TYPES = ['task.created', 'task.updated', 'task.completed', 'task.assigned', 'task.deleted'];

export const tasksProjection = projection({
  name: TASKS,
  version: 2, // v2: erasure stamps on every document
  collections: {
    tasks: { indexes: [['id'], ['_viewerId', '_sortKey'], ['_viewerId', '_rankKey'], ['_viewerId', '_pos'], ['_viewerId', '_dueMs', '_sortKey']] },
    projects: { indexes: [['ownerId', '_sortKey'], ['ownerId', '_pos']] },
    lists: { indexes: [['projectId', 'position'], ['ownerId', '_pos']] },
    stats: { indexes: [] },
  },
  handles: [...TASK_TYPES, 'task.due_changed', 'list.reranked', 'project.created', 'project.updated', 'project.deleted', 'list.created', 'list.deleted'],
  async apply(e, docs) {
    const at = e.metadata.occurredAt;
    if (TASK_TYPES.includes(e.type)) return applyTask(docs, e.data as Task, e);
    switch (e.type) {
      case 'task.due_changed':
        return applyTask(docs, (e.data as DomainEventData<'task.due_changed'>).data, e);
      case 'list.reranked':
        return applyReranked(docs, e.data as DomainEventData<'list.reranked'>, e);
      case 'list.created':
      case 'list.deleted': {
        const list = e.data as TaskList;
        await docs('lists').putIfNewer({ ...list, _id: list.id, _pos: e.position, _changedAt: at });
        return;
      }
      default: {
        const project = e.data as Project;
        await docs('projects').putIfNewer({ ...project, _id: project.id, _pos: e.position, _changedAt: at, _sortKey: `${project.createdAt}|${project.id}` });
      }
    }
  },
});
