/**
 * A user's planning board: one stream per owner (`tasks-<userId>`) holding their projects, lists and tasks, so that
 * moves inside a list, a project's deletion and the limits are decided inside one consistency boundary. An assignee
 * acts on the owner's stream: they may see the task and change its status, nothing else.
 */
import type { DomainEvent } from '../../contracts/domain-events';
import { FIRST_LIST_NAME, TASK_LIMITS as LIMITS, type Project, type Task, type TaskList } from '../../contracts/tasks';
import type { Decider } from '../../services/commands/decider';
import { ApiError, conflict, notFound, versionMismatch } from '../../services/errors';
import { rankBetween, spread } from './rank';


export interface TasksState {
  projects: Map<string, Project>;
  lists: Map<string, TaskList>;
  tasks: Map<string, Task>;
  /** Ids of deleted tasks, projects and lists: an id is never used twice. */
  gone: Set<string>;
  /** Highest rank handed out per scope (a list id, or '' for tasks without a project): never below a live task's. */
  topRank: Map<string, string>;
  tasksPerProject: Map<string, number>;
}

export type TaskFields = Pick<Task, 'title' | 'notes' | 'dueAt' | 'estimateMinutes' | 'priority' | 'assigneeId'>;
export type TaskChanges = Partial<TaskFields & Pick<Task, 'status'>>;
/** Where the body asks a task to go: undefined keeps, null takes it out of any project. */
export interface Place {
  projectId?: string | null;
  listId?: string | null;
}
export type Anchor = { beforeId: string } | { afterId: string };
export type ProjectChanges = Partial<Pick<Project, 'name' | 'color' | 'archived'>>;

interface Common {
  actorId: string;
  /** Whose stream this is. */
  ownerId: string;
  now: string;
}
/** Whether the assignee a command names shares a Space (an organization) with the owner: the route looks it up. */
interface Assigning {
  assigneeSharesASpace?: boolean;
}
export type TasksCommand = Common & (
  | ({ type: 'CreateTask'; taskId: string; fields: TaskFields; place: Place } & Assigning)
  | ({ type: 'UpdateTask'; taskId: string; changes: TaskChanges; place: Place; anchor?: Anchor; expectedVersions?: number[] } & Assigning)
  | { type: 'DeleteTask'; taskId: string; expectedVersions?: number[] }
  | { type: 'CreateProject'; projectId: string; listId: string; name: string; color: string | null }
  | { type: 'UpdateProject'; projectId: string; changes: ProjectChanges; expectedVersions?: number[] }
  | { type: 'DeleteProject'; projectId: string; expectedVersions?: number[] }
  | { type: 'CreateList'; projectId: string; listId: string; name: string }
);

export type TasksEvent = Extract<DomainEvent, { type: `task.${string}` | `project.${string}` | `list.${string}` }>;

const forbidden = () =>
  new ApiError(403, 'forbidden', 'Only the task\'s owner may do this; an assignee may change its status only');
const limitReached = (what: string) => conflict('limit_reached', `At most ${what}`);

function checkVersion(version: number, allowed: number[] | undefined): void {
  if (allowed !== undefined && !allowed.includes(version)) throw versionMismatch();
}

function requireOwner(command: Common): void {
  if (command.actorId !== command.ownerId) throw notFound('Project');
}

function requireProject(state: TasksState, command: Common & { projectId: string }): Project {
  requireOwner(command);
  const project = state.projects.get(command.projectId);
  if (!project) throw notFound('Project');
  return project;
}

function requireUnarchived(state: TasksState, projectId: string): void {
  if (state.projects.get(projectId)!.archived) {
    throw conflict('project_archived', 'The project is archived: restore it first (PATCH archived=false)');
  }
}

/** The owner sees every task of their stream; an assignee only theirs. */
function visibleTask(state: TasksState, command: Common & { taskId: string }): Task {
  const task = state.tasks.get(command.taskId);
  if (!task || (command.actorId !== command.ownerId && command.actorId !== task.assigneeId)) throw notFound('Task');
  return task;
}

/**
 * Who may be given a task: its owner, someone who shares a Space (an organization) with the owner, or one of the
 * People of the task's project (the assignee of another of its tasks). Anyone else is nobody the owner can reach:
 * 404, the answer an unknown id gets, so that it tells nothing about who exists.
 */
function checkAssignee(state: TasksState, command: Common & Assigning, task: Pick<Task, 'id' | 'assigneeId' | 'projectId'>): void {
  const { assigneeId, projectId } = task;
  if (assigneeId === null || assigneeId === command.ownerId || command.assigneeSharesASpace) return;
  if (projectId !== null) {
    for (const other of state.tasks.values()) {
      if (other.projectId === projectId && other.id !== task.id && other.assigneeId === assigneeId) return;
    }
  }
  throw notFound('Assignee (assigneeId)');
}

const scopeOf = (task: { listId: string | null }) => task.listId ?? '';

function firstList(state: TasksState, projectId: string): string | null {
  let first: TaskList | null = null;
  for (const list of state.lists.values()) {
    if (list.projectId === projectId && (!first || list.position < first.position)) first = list;
  }
  return first?.id ?? null;
}

function resolvePlace(state: TasksState, place: Place, current?: Task): Pick<Task, 'projectId' | 'listId'> {
  const { projectId, listId } = place;
  if (listId) {
    const list = state.lists.get(listId);
    if (!list) throw notFound('List');
    if (projectId !== undefined && projectId !== list.projectId) {
      throw conflict('list_not_in_project', 'listId is a list of another project than projectId');
    }
    return { projectId: list.projectId, listId };
  }
  if (projectId) {
    if (!state.projects.has(projectId)) throw notFound('Project');
    if (current?.projectId === projectId && listId === undefined) return { projectId, listId: current.listId };
    return { projectId, listId: firstList(state, projectId) };
  }
  if (projectId === null || listId === null || !current) return { projectId: null, listId: null };
  return { projectId: current.projectId, listId: current.listId };
}

/** The tasks of a scope in order, leaving one out. */
function ordered(state: TasksState, scope: string, except: string): Task[] {
  const out: Task[] = [];
  for (const t of state.tasks.values()) if (scopeOf(t) === scope && t.id !== except) out.push(t);
  return out.sort((a, b) => (a.rank < b.rank ? -1 : a.rank > b.rank ? 1 : a.id < b.id ? -1 : 1));
}

/**
 * The rank for a task going to the end of a scope or next to an anchor in it; when no short rank fits there, the
 * whole scope is spread again (the `list.reranked` event, which leaves out the placed task itself).
 */
function placeIn(state: TasksState, command: Common, taskId: string, scope: string, anchor?: Anchor) {
  let rank: string | null;
  let others: Task[] | null = null;
  let index: number;
  if (!anchor) {
    rank = rankBetween(state.topRank.get(scope) ?? null, null);
    index = Number.MAX_SAFE_INTEGER;
  } else {
    others = ordered(state, scope, taskId);
    const [field, id] = 'beforeId' in anchor ? ['beforeId', anchor.beforeId] : ['afterId', anchor.afterId];
    const at = others.findIndex((t) => t.id === id);
    // A well-formed id that names no other task of this list: a conflict with the list as it is now.
    if (at < 0) throw conflict('unknown_id', `${field} is not another task of the same list`, { issues: [{ path: `body.${field}`, message: 'must be another task of the same list' }] });
    index = field === 'beforeId' ? at : at + 1;
    rank = rankBetween(others[index - 1]?.rank ?? null, others[index]?.rank ?? null);
  }
  if (rank !== null) return { rank, reranked: null };
  others ??= ordered(state, scope, taskId);
  const ranks = spread(others.length + 1);
  const at = Math.min(index, others.length);
  const rest = [...ranks.slice(0, at), ...ranks.slice(at + 1)];
  const reranked: TasksEvent = {
    type: 'list.reranked',
    data: { ownerId: command.ownerId, listId: scope || null, ranks: others.map((t, i) => ({ id: t.id, rank: rest[i] })) },
  };
  return { rank: ranks[at], reranked };
}

/** The events one task change emits, in the documented order; each carries the task as it is afterwards. */
function changeEvents(before: Task, after: Task): TasksEvent[] {
  const events: TasksEvent[] = [];
  const other = (['title', 'notes', 'estimateMinutes', 'priority', 'projectId', 'listId', 'rank'] as const).some((k) => before[k] !== after[k])
    || (before.status === 'done' && after.status === 'open')
    || (before.assigneeId !== null && after.assigneeId === null);
  if (other) events.push({ type: 'task.updated', data: after });
  if (before.dueAt !== after.dueAt) events.push({ type: 'task.due_changed', data: { data: after, previous: { dueAt: before.dueAt } } });
  if (after.assigneeId !== null && before.assigneeId !== after.assigneeId) events.push({ type: 'task.assigned', data: after });
  if (before.status === 'open' && after.status === 'done') events.push({ type: 'task.completed', data: after });
  return events;
}

function checkNewPlace(state: TasksState, projectId: string | null): void {
  if (projectId === null) return;
  requireUnarchived(state, projectId);
  if ((state.tasksPerProject.get(projectId) ?? 0) >= LIMITS.tasksPerProject) throw limitReached(`${LIMITS.tasksPerProject} tasks per project`);
}

function checkNewId(state: TasksState, id: string): void {
  if (state.gone.has(id) || state.tasks.has(id) || state.projects.has(id) || state.lists.has(id)) {
    throw conflict('duplicate_id', 'This id is taken');
  }
}

function decideTask(command: Extract<TasksCommand, { type: 'CreateTask' | 'UpdateTask' | 'DeleteTask' }>, state: TasksState): TasksEvent[] {
  switch (command.type) {
    case 'CreateTask': {
      requireOwner(command);
      checkNewId(state, command.taskId);
      if (state.tasks.size >= LIMITS.liveTasks) throw limitReached(`${LIMITS.liveTasks} tasks`);
      const place = resolvePlace(state, command.place);
      checkNewPlace(state, place.projectId);
      const { rank, reranked } = placeIn(state, command, command.taskId, scopeOf(place));
      const { fields, now } = command;
      const task: Task = {
        id: command.taskId, title: fields.title, notes: fields.notes, ...place, dueAt: fields.dueAt,
        estimateMinutes: fields.estimateMinutes, priority: fields.priority, assigneeId: fields.assigneeId, status: 'open',
        createdBy: command.ownerId, createdAt: now, updatedAt: now, completedAt: null, deletedAt: null, rank, version: 1,
      };
      checkAssignee(state, command, task);
      const events: TasksEvent[] = reranked ? [reranked] : [];
      events.push({ type: 'task.created', data: task });
      if (task.assigneeId) events.push({ type: 'task.assigned', data: task });
      return events;
    }
    case 'UpdateTask': {
      const current = visibleTask(state, command);
      checkVersion(current.version, command.expectedVersions);
      const ownerOnly = Object.keys(command.changes).some((k) => k !== 'status')
        || command.place.projectId !== undefined || command.place.listId !== undefined || command.anchor !== undefined;
      if (ownerOnly && command.actorId !== command.ownerId) throw forbidden();
      const place = resolvePlace(state, command.place, current);
      if (place.projectId !== current.projectId) checkNewPlace(state, place.projectId);
      const next: Task = { ...current, ...command.changes, ...place };
      if (next.assigneeId !== current.assigneeId) checkAssignee(state, command, next);
      if (current.status !== next.status) next.completedAt = next.status === 'done' ? command.now : null;
      const events: TasksEvent[] = [];
      if (scopeOf(next) !== scopeOf(current) || command.anchor) {
        const placed = placeIn(state, command, current.id, scopeOf(next), command.anchor);
        next.rank = placed.rank;
        if (placed.reranked) events.push(placed.reranked);
      }
      next.updatedAt = command.now;
      next.version = current.version + 1;
      const changes = changeEvents(current, next);
      return changes.length ? [...events, ...changes] : [];
    }
    case 'DeleteTask': {
      const current = visibleTask(state, command);
      if (command.actorId !== command.ownerId) throw forbidden();
      checkVersion(current.version, command.expectedVersions);
      return [{ type: 'task.deleted', data: deletedTask(current, command.now) }];
    }
  }
}

const deletedTask = (task: Task, now: string): Task => ({ ...task, updatedAt: now, deletedAt: now, version: task.version + 1 });

function decideProject(command: Exclude<TasksCommand, { type: 'CreateTask' | 'UpdateTask' | 'DeleteTask' }>, state: TasksState): TasksEvent[] {
  switch (command.type) {
    case 'CreateProject': {
      requireOwner(command);
      checkNewId(state, command.projectId);
      checkNewId(state, command.listId);
      if (state.projects.size >= LIMITS.projects) throw limitReached(`${LIMITS.projects} projects`);
      const { now } = command;
      const project: Project = {
        id: command.projectId, name: command.name, color: command.color, archived: false, archivedAt: null,
        ownerId: command.ownerId, createdAt: now, updatedAt: now, deletedAt: null, version: 1,
      };
      const list: TaskList = {
        id: command.listId, projectId: project.id, name: FIRST_LIST_NAME, position: 0, ownerId: command.ownerId,
        createdAt: now, updatedAt: now, deletedAt: null,
      };
      return [{ type: 'project.created', data: project }, { type: 'list.created', data: list }];
    }
    case 'UpdateProject': {
      const current = requireProject(state, command);
      checkVersion(current.version, command.expectedVersions);
      const next: Project = { ...current, ...command.changes };
      if (next.archived !== current.archived) next.archivedAt = next.archived ? command.now : null;
      if (next.name === current.name && next.color === current.color && next.archived === current.archived) return [];
      return [{ type: 'project.updated', data: { ...next, updatedAt: command.now, version: current.version + 1 } }];
    }
    case 'DeleteProject': {
      const current = requireProject(state, command);
      checkVersion(current.version, command.expectedVersions);
      const { now } = command;
      const events: TasksEvent[] = [];
      for (const task of state.tasks.values()) {
        if (task.projectId === current.id) events.push({ type: 'task.deleted', data: deletedTask(task, now) });
      }
      for (const list of state.lists.values()) {
        if (list.projectId === current.id) events.push({ type: 'list.deleted', data: { ...list, updatedAt: now, deletedAt: now } });
      }
      events.push({ type: 'project.deleted', data: { ...current, updatedAt: now, deletedAt: now, version: current.version + 1 } });
      return events;
    }
    case 'CreateList': {
      requireProject(state, command);
      requireUnarchived(state, command.projectId);
      checkNewId(state, command.listId);
      const lists = [...state.lists.values()].filter((l) => l.projectId === command.projectId);
      if (lists.length >= LIMITS.listsPerProject) throw limitReached(`${LIMITS.listsPerProject} lists per project`);
      const list: TaskList = {
        id: command.listId, projectId: command.projectId, name: command.name,
        position: Math.max(-1, ...lists.map((l) => l.position)) + 1, ownerId: command.ownerId,
        createdAt: command.now, updatedAt: command.now, deletedAt: null,
      };
      return [{ type: 'list.created', data: list }];
    }
  }
}

function countIn(state: TasksState, projectId: string | null, delta: number): void {
  if (projectId) state.tasksPerProject.set(projectId, (state.tasksPerProject.get(projectId) ?? 0) + delta);
}

function putTask(state: TasksState, task: Task): void {
  const previous = state.tasks.get(task.id);
  countIn(state, previous?.projectId ?? null, -1);
  countIn(state, task.projectId, 1);
  state.tasks.set(task.id, task);
  const scope = scopeOf(task);
  const top = state.topRank.get(scope);
  if (top === undefined || task.rank > top) state.topRank.set(scope, task.rank);
}

export const tasksDecider: Decider<TasksCommand, TasksEvent, TasksState> = {
  initialState: () => ({
    projects: new Map(), lists: new Map(), tasks: new Map(), gone: new Set(), topRank: new Map(), tasksPerProject: new Map(),
  }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateTask':
      case 'UpdateTask':
      case 'DeleteTask':
        return decideTask(command, state);
      default:
        return decideProject(command, state);
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'task.created':
      case 'task.updated':
      case 'task.completed':
      case 'task.assigned':
        putTask(state, event.data);
        break;
      case 'task.due_changed':
        putTask(state, event.data.data);
        break;
      case 'task.deleted': {
        const previous = state.tasks.get(event.data.id);
        countIn(state, previous?.projectId ?? null, -1);
        state.tasks.delete(event.data.id);
        state.gone.add(event.data.id);
        break;
      }
      case 'list.reranked': {
        const scope = event.data.listId ?? '';
        state.topRank.delete(scope);
        for (const { id, rank } of event.data.ranks) {
          const task = state.tasks.get(id);
          if (task) putTask(state, { ...task, rank });
        }
        break;
      }
      case 'project.created':
      case 'project.updated':
        state.projects.set(event.data.id, event.data);
        break;
      case 'project.deleted':
        state.projects.delete(event.data.id);
        state.tasksPerProject.delete(event.data.id);
        state.gone.add(event.data.id);
        break;
      case 'list.created':
        state.lists.set(event.data.id, event.data);
        break;
      case 'list.deleted':
        state.lists.delete(event.data.id);
        state.gone.add(event.data.id);
        break;
    }
    return state;
  },
};

export const tasksStream = (ownerId: string) => `tasks-${ownerId}`;
