import type { ListTasksQuery, Project, Task, TaskList } from '../../contracts/tasks';
import { TASK_LIMITS } from '../../contracts/tasks';
import { publicView, type ReadModels } from '../../projections/read-models';
import { TASKS, viewId, type StatsDoc, type TaskDoc } from '../../projections/tasks.projection';
import type { Doc, Filter } from '../../services/readstore/read-store.port';
import { userById } from '../profile/users.queries';
import { pageOf } from '../shared/paging';

type ProjectDoc = Doc & Project;
type ListDoc = Doc & TaskList;

/** The task as `viewerId` sees it (owner or assignee); null when absent, deleted or not theirs. */
export async function visibleTask(models: ReadModels, viewerId: string, taskId: string): Promise<Task | null> {
  const doc = await (await models.docs(TASKS))<TaskDoc>('tasks').get(viewId(viewerId, taskId));
  return doc && doc.deletedAt === null ? publicView<Task>(doc) : null;
}

export async function taskPage(models: ReadModels, viewerId: string, query: ListTasksQuery) {
  const filter: Filter = { _viewerId: viewerId, deletedAt: null };
  if (query.status) filter.status = query.status;
  if (query.projectId) filter.projectId = query.projectId === 'none' ? null : query.projectId;
  if (query.listId) filter.listId = query.listId;
  if (query.assignee) filter.assigneeId = query.assignee === 'me' ? viewerId : query.assignee;
  if (query.dueAfter || query.dueBefore) {
    filter._dueMs = {
      ...(query.dueAfter ? { $gte: Date.parse(query.dueAfter) } : {}),
      ...(query.dueBefore ? { $lt: Date.parse(query.dueBefore) } : {}),
    };
  }
  const inListOrder = query.listId !== undefined || query.projectId === 'none';
  const page = await pageOf((await models.docs(TASKS))<TaskDoc>('tasks'), filter, inListOrder ? '_rankKey' : '_sortKey', query);
  return { tasks: page.items.map((d) => publicView<Task>(d)), nextPageToken: page.nextPageToken };
}

/** Counts and People of projects from their stats; member names as the profiles say now. */
async function summaries(models: ReadModels, ownerId: string, projectIds: string[]) {
  const stats = (await models.docs(TASKS))<StatsDoc>('stats');
  const entries = await Promise.all(projectIds.map(async (id) => Object.values((await stats.get(id))?.tasks ?? {})));
  const assignees = entries.map((tasks) => [...new Set(tasks.map((t) => t.assigneeId).filter((id): id is string => !!id && id !== ownerId))]);
  const names = new Map<string, string>();
  await Promise.all([...new Set([ownerId, ...assignees.flat()])].map(async (id) => {
    const user = await userById(models, id);
    if (user) names.set(id, user.name);
  }));
  return projectIds.map((_, i) => {
    const done = entries[i].filter((t) => t.done).length;
    const people = assignees[i]
      .filter((id) => names.has(id))
      .map((userId) => ({ userId, name: names.get(userId)!, role: 'assignee' as const }))
      .sort((a, b) => a.name.localeCompare(b.name) || a.userId.localeCompare(b.userId));
    return {
      counts: { tasks: entries[i].length, open: entries[i].length - done, done },
      members: [{ userId: ownerId, name: names.get(ownerId) ?? '', role: 'owner' as const }, ...people],
    };
  });
}

export async function projectPage(models: ReadModels, ownerId: string, archived: boolean, query: { limit?: number; pageToken?: string }) {
  const projects = (await models.docs(TASKS))<ProjectDoc>('projects');
  const page = await pageOf(projects, { ownerId, deletedAt: null, archived }, '_sortKey', query);
  const extra = await summaries(models, ownerId, page.items.map((p) => p._id));
  return {
    projects: page.items.map((doc, i) => ({ ...publicView<Project>(doc), ...extra[i] })),
    nextPageToken: page.nextPageToken,
  };
}

export async function ownProject(models: ReadModels, ownerId: string, id: string): Promise<Project | null> {
  const doc = await (await models.docs(TASKS))<ProjectDoc>('projects').get(id);
  return doc && doc.ownerId === ownerId && doc.deletedAt === null ? publicView<Project>(doc) : null;
}

/** A project with its lists (board order), tasks (list by list, in order), counts and People. */
export async function projectDetail(models: ReadModels, ownerId: string, id: string) {
  const project = await ownProject(models, ownerId, id);
  if (!project) return null;
  const docs = await models.docs(TASKS);
  const [lists, tasks, [extra]] = await Promise.all([
    docs<ListDoc>('lists').find({ projectId: id, deletedAt: null }, { sort: [['position', 1]], limit: TASK_LIMITS.listsPerProject }),
    docs<TaskDoc>('tasks').find({ _viewerId: ownerId, projectId: id, deletedAt: null }, { sort: [['_rankKey', 1]], limit: TASK_LIMITS.tasksPerProject }),
    summaries(models, ownerId, [id]),
  ]);
  const column = new Map(lists.map((l, i) => [l._id, i]));
  const inBoardOrder = [...tasks].sort((a, b) => (column.get(a.listId!) ?? -1) - (column.get(b.listId!) ?? -1));
  return {
    project,
    ...extra,
    lists: lists.map((l) => publicView<TaskList>(l)),
    tasks: inBoardOrder.map((t) => publicView<Task>(t)),
  };
}
