/** Tasks, projects and their lists (board columns): resources, bodies, queries, domain event data and operations. */
import { z } from 'zod';
import { AsOf, DateTime, ErrorEnvelope, IdParams, NonBlankText, Uuid } from './common';
import { op } from './operation';
import { NextPageToken, PageQuery } from './paging';
import { Color } from './spaces';
import { TaskDueChangedPrevious } from './webhook-payloads';

/** Bounds of one owner's board (409 `limit_reached` beyond them); completed tasks count until deleted. */
export const TASK_LIMITS = { liveTasks: 10_000, tasksPerProject: 500, projects: 200, listsPerProject: 50 } as const;
export const FIRST_LIST_NAME = 'To do';
export const DEFAULT_LIST_NAME = 'New list';

export const TaskPriority = z.enum(['low', 'normal', 'high']);
export const TaskStatus = z.enum(['open', 'done']);

const OWNER = '5b0c6d7e-1f2a-4b3c-8d4e-5f6a7b8c9d0e';
const ASSIGNEE = '8e7d6c5b-4a39-4281-9f0e-1d2c3b4a5f6e';
const PROJECT = '2f1e0d9c-8b7a-4695-a4b3-c2d1e0f9a8b7';
const LIST = '7a6b5c4d-3e2f-4a1b-8c9d-0e1f2a3b4c5d';
const TASK = 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f';

const taskExample = {
  id: TASK, title: 'Draft the Q3 roadmap', notes: 'Start from the June survey results', projectId: PROJECT, listId: LIST,
  dueAt: '2031-07-04T15:00:00.000Z', estimateMinutes: 90, priority: 'high', assigneeId: ASSIGNEE, status: 'open',
  createdBy: OWNER, createdAt: '2031-06-28T09:12:00.000Z', updatedAt: '2031-06-29T10:40:00.000Z', completedAt: null,
  deletedAt: null, rank: 'V00000', version: 3,
};

export const Task = z
  .object({
    id: Uuid,
    title: z.string(),
    notes: z.string().nullable(),
    projectId: Uuid.nullable().describe('null: the task belongs to no project (the owner\'s inbox)'),
    listId: Uuid.nullable().describe('The project list (board column) holding the task; null exactly when projectId is null'),
    dueAt: DateTime.nullable(),
    estimateMinutes: z.number().int().nullable(),
    priority: TaskPriority,
    assigneeId: Uuid.nullable().describe('A user who sees the task and may mark it done or open again'),
    status: TaskStatus,
    createdBy: Uuid.describe('The owner: the task lives with their projects'),
    createdAt: DateTime,
    updatedAt: DateTime,
    completedAt: DateTime.nullable(),
    deletedAt: DateTime.nullable().describe('Set once deleted (sync rows); for an assignee also once unassigned'),
    rank: z.string().describe('Order inside the list (or among tasks without a project): compare as plain strings'),
    version: z.number().int().describe('Increases with every change; the ETag is derived from it'),
  })
  .meta({ id: 'Task', description: 'A task; webhooks deliver it as the `data` of task.* types.', examples: [taskExample] });
export type Task = z.infer<typeof Task>;

const projectExample = {
  id: PROJECT, name: 'Website relaunch', color: '#3366ff', archived: false, archivedAt: null, ownerId: OWNER,
  createdAt: '2031-06-01T08:00:00.000Z', updatedAt: '2031-06-01T08:00:00.000Z', deletedAt: null, version: 1,
};

export const Project = z
  .object({
    id: Uuid,
    name: z.string(),
    color: z.string().nullable(),
    archived: z.boolean(),
    archivedAt: DateTime.nullable(),
    ownerId: Uuid,
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: DateTime.nullable(),
    version: z.number().int().describe('Increases with every change; the ETag is derived from it'),
  })
  .meta({ id: 'Project', examples: [projectExample] });
export type Project = z.infer<typeof Project>;

const listExample = {
  id: LIST, projectId: PROJECT, name: 'To do', position: 0, ownerId: OWNER,
  createdAt: '2031-06-01T08:00:00.000Z', updatedAt: '2031-06-01T08:00:00.000Z', deletedAt: null,
};

export const TaskList = z
  .object({
    id: Uuid,
    projectId: Uuid,
    name: z.string(),
    position: z.number().int().describe('Board order: lists sort by it, left to right'),
    ownerId: Uuid,
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: DateTime.nullable(),
  })
  .meta({ id: 'TaskList', description: 'A list of a project (a board column).', examples: [listExample] });
export type TaskList = z.infer<typeof TaskList>;

const membersExample = [
  { userId: OWNER, name: 'Sam Lee', role: 'owner' },
  { userId: ASSIGNEE, name: 'Rosa Diaz', role: 'assignee' },
];
const countsExample = { tasks: 12, open: 9, done: 3 };

export const ProjectMember = z
  .object({ userId: Uuid, name: z.string(), role: z.enum(['owner', 'assignee']) })
  .meta({ id: 'ProjectMember', description: 'One of the project\'s People: its owner, or someone a task is assigned to',
    examples: [membersExample[1]] });

export const ProjectCounts = z
  .object({ tasks: z.number().int(), open: z.number().int(), done: z.number().int() })
  .meta({ id: 'ProjectCounts', description: 'Tasks of the project, open and done', examples: [countsExample] });

// ---- bodies and queries ----

const Title = NonBlankText(500);
const Notes = z.string().max(10_000).nullable();
const Estimate = z.number().int().min(0).max(10_080).nullable().describe('Minutes, at most a week');
const ProjectName = NonBlankText(200);

/** Who a task may be given to (write-api/tasks/tasks.decider.ts). */
const ASSIGNEE_RULE = 'Someone who shares something with the owner: a Space (an organization) or the task\'s project '
  + '(one of its People, the assignee of another of its tasks); or the owner. Anyone else: 404, as for an unknown id';

export const CreateTaskBody = z
  .object({
    title: Title,
    notes: Notes.optional(),
    projectId: Uuid.nullable().optional().describe('Without listId: the project\'s first list'),
    listId: Uuid.nullable().optional().describe('A list of the project (projectId may then be left out)'),
    dueAt: DateTime.nullable().optional(),
    estimateMinutes: Estimate.optional(),
    priority: TaskPriority.optional().describe('Default `normal`'),
    assigneeId: Uuid.nullable().optional().describe(`${ASSIGNEE_RULE}; emits task.assigned`),
  })
  .meta({
    id: 'CreateTaskBody',
    description: 'The task goes to the end of its list.',
    examples: [{ title: 'Draft the Q3 roadmap', projectId: PROJECT, dueAt: '2031-07-04T15:00:00Z', estimateMinutes: 90, priority: 'high', assigneeId: ASSIGNEE }],
  });
export type CreateTaskBody = z.infer<typeof CreateTaskBody>;

export const UpdateTaskBody = z
  .object({
    title: Title,
    notes: Notes,
    projectId: Uuid.nullable().describe('Moves the task to that project\'s first list (null: out of any project)'),
    listId: Uuid.nullable(),
    dueAt: DateTime.nullable(),
    estimateMinutes: Estimate,
    priority: TaskPriority,
    assigneeId: Uuid.nullable().describe(`${ASSIGNEE_RULE}. Only the owner reassigns`),
    status: TaskStatus,
    beforeId: Uuid.describe('Place the task right before this task of its (new) list'),
    afterId: Uuid.describe('Place the task right after this task of its (new) list'),
  })
  .partial()
  .refine((b) => !(b.beforeId && b.afterId), { path: ['afterId'], message: 'give beforeId or afterId, not both' })
  .meta({
    not: { required: ['beforeId', 'afterId'] },
    id: 'UpdateTaskBody',
    description: 'Any subset. The owner may change everything; the assignee only `status`.',
    examples: [{ status: 'done' }, { dueAt: '2031-07-08T15:00:00Z', listId: LIST, afterId: TASK }],
  });
export type UpdateTaskBody = z.infer<typeof UpdateTaskBody>;

export const ListTasksQuery = PageQuery.extend({
  status: TaskStatus.optional(),
  projectId: z.union([Uuid, z.literal('none')]).optional().describe('`none`: tasks without a project, in their order'),
  listId: Uuid.optional().describe('Tasks of one list, in list order'),
  assignee: z.union([z.literal('me'), Uuid]).optional().describe('`me`: tasks assigned to the caller'),
  dueAfter: DateTime.optional().describe('dueAt at or after this instant'),
  dueBefore: DateTime.optional().describe('dueAt before this instant'),
  asOf: AsOf.optional(),
});
export type ListTasksQuery = z.infer<typeof ListTasksQuery>;

export const CreateProjectBody = z
  .object({ name: ProjectName, color: Color.nullable().optional() })
  .meta({ id: 'CreateProjectBody', examples: [{ name: 'Website relaunch', color: '#3366ff' }] });
export type CreateProjectBody = z.infer<typeof CreateProjectBody>;

export const UpdateProjectBody = z
  .object({ name: ProjectName, color: Color.nullable(), archived: z.boolean() })
  .partial()
  .meta({ id: 'UpdateProjectBody', description: 'Rename, recolour, archive (true) or restore (false).',
    examples: [{ name: 'Website relaunch (phase 2)' }, { archived: true }] });
export type UpdateProjectBody = z.infer<typeof UpdateProjectBody>;

export const CreateListBody = z
  .object({ name: ProjectName.optional().describe('Default "New list"') })
  .meta({ id: 'CreateListBody', examples: [{ name: 'In review' }] });

export const ListProjectsQuery = PageQuery.extend({
  archived: z.enum(['0', '1', 'true', 'false']).optional().describe('`1` lists archived projects instead'),
});
export type ListProjectsQuery = z.infer<typeof ListProjectsQuery>;

// ---- responses ----

export const TaskResponse = z.object({ task: Task }).meta({ id: 'TaskResponse', examples: [{ task: taskExample }] });
export const TaskPage = z
  .object({ tasks: z.array(Task), nextPageToken: NextPageToken })
  .meta({ id: 'TaskPage', description: 'Oldest first; in list order when filtered by listId or projectId=none.',
    examples: [{ tasks: [taskExample], nextPageToken: null }] });

const summaryExample = { ...projectExample, counts: countsExample, members: membersExample };

export const ProjectSummary = Project.extend({ counts: ProjectCounts, members: z.array(ProjectMember) })
  .meta({ id: 'ProjectSummary', description: 'A project with its task counts and People.', examples: [summaryExample] });
export const ProjectListResponse = z
  .object({ projects: z.array(ProjectSummary), nextPageToken: NextPageToken })
  .meta({ id: 'ProjectPage', description: 'Oldest first.', examples: [{ projects: [summaryExample], nextPageToken: null }] });
export const ProjectResponse = z.object({ project: Project })
  .meta({ id: 'ProjectResponse', examples: [{ project: projectExample }] });
export const ProjectCreated = z
  .object({ project: Project, lists: z.array(TaskList).describe('The first list, "To do"') })
  .meta({ id: 'ProjectCreated', examples: [{ project: projectExample, lists: [listExample] }] });
export const ProjectDetail = z
  .object({
    project: Project,
    counts: ProjectCounts,
    lists: z.array(TaskList),
    members: z.array(ProjectMember),
    tasks: z.array(Task).describe('Every task of the project, list by list, in list order'),
  })
  .meta({
    id: 'ProjectDetail',
    examples: [{ project: projectExample, counts: countsExample, lists: [listExample], members: membersExample, tasks: [taskExample] }],
  });
export const ListResponse = z.object({ list: TaskList }).meta({ id: 'TaskListResponse', examples: [{ list: listExample }] });

// ---- domain event data beyond the resources ----

export const TaskDueChanged = z.object({ data: Task, previous: TaskDueChangedPrevious });
export const ListReranked = z.object({
  ownerId: Uuid,
  listId: Uuid.nullable().describe('null: the owner\'s tasks without a project'),
  ranks: z.array(z.object({ id: Uuid, rank: z.string() })),
});

// ---- operations ----

const notFound = (what: string) => ({ description: `${what} not found (also for other people's)`, schema: ErrorEnvelope });
const stale = { description: '`If-Match` carried a stale ETag (`version_mismatch`)', schema: ErrorEnvelope };
const { liveTasks, tasksPerProject, projects, listsPerProject } = TASK_LIMITS;
const conflicts = {
  description: '`project_archived`, `list_not_in_project` (`listId` is a list of another project than `projectId`), '
    + `or \`limit_reached\` (per owner at most ${liveTasks} live tasks, ${projects} projects; `
    + `per project ${tasksPerProject} tasks, ${listsPerProject} lists)`,
  schema: ErrorEnvelope,
};
const forbidden = { description: '`forbidden`: the assignee may only change `status`', schema: ErrorEnvelope };

export const taskOperations = [
  op({
    method: 'get', path: '/tasks', tag: 'Tasks', summary: 'Tasks the caller owns or is assigned to', query: ListTasksQuery,
    responses: { 200: { description: 'One page of tasks', schema: TaskPage } },
  }),
  op({
    method: 'post', path: '/tasks', etag: true, tag: 'Tasks', summary: 'Create a task', body: CreateTaskBody,
    description: 'Emits task.created, and task.assigned when it has an assignee.',
    responses: { 201: { description: 'Created, with an ETag', schema: TaskResponse }, 404: notFound('Project, list or assignee'), 409: conflicts },
  }),
  op({
    method: 'get', path: '/tasks/{id}', etag: true, tag: 'Tasks', summary: 'Get a task', params: IdParams,
    responses: { 200: { description: 'The task, with an ETag', schema: TaskResponse }, 404: notFound('Task') },
  }),
  op({
    method: 'patch', path: '/tasks/{id}', etag: true, tag: 'Tasks', summary: 'Change, complete, reassign or move a task', params: IdParams,
    body: UpdateTaskBody,
    description: 'One change emits, in this order: task.updated (other fields, moves, reopening, unassigning), '
      + 'task.due_changed, task.assigned, task.completed, each carrying the task as it is after the change.',
    responses: {
      200: { description: 'Updated', schema: TaskResponse }, 403: forbidden, 404: notFound('Task, project, list or assignee'),
      409: conflicts, 412: stale,
    },
  }),
  op({
    method: 'delete', path: '/tasks/{id}', etag: true, tag: 'Tasks', summary: 'Delete a task (emits task.deleted)', params: IdParams,
    responses: { 204: { description: 'Deleted' }, 403: forbidden, 404: notFound('Task'), 412: stale },
  }),
];

export const projectOperations = [
  op({
    method: 'get', path: '/projects', tag: 'Projects', summary: 'Projects with counts and People', query: ListProjectsQuery,
    responses: { 200: { description: 'One page of projects', schema: ProjectListResponse } },
  }),
  op({
    method: 'post', path: '/projects', etag: true, tag: 'Projects', summary: 'Create a project (it gets a first list)', body: CreateProjectBody,
    responses: { 201: { description: 'Created, with an ETag', schema: ProjectCreated }, 409: conflicts },
  }),
  op({
    method: 'get', path: '/projects/{id}', etag: true, tag: 'Projects', summary: 'A project with its lists, members and tasks', params: IdParams,
    responses: { 200: { description: 'The project, with an ETag', schema: ProjectDetail }, 404: notFound('Project') },
  }),
  op({
    method: 'patch', path: '/projects/{id}', etag: true, tag: 'Projects', summary: 'Rename, recolour, archive or restore', params: IdParams,
    body: UpdateProjectBody,
    responses: { 200: { description: 'Updated', schema: ProjectResponse }, 404: notFound('Project'), 412: stale },
  }),
  op({
    method: 'delete', path: '/projects/{id}', etag: true, tag: 'Projects', summary: 'Delete a project and everything in it', params: IdParams,
    description: 'Each of its tasks emits task.deleted.',
    responses: { 204: { description: 'Deleted' }, 404: notFound('Project'), 412: stale },
  }),
  op({
    method: 'post', path: '/projects/{id}/lists', tag: 'Projects', summary: 'Add a list (board column) at the end', params: IdParams,
    body: CreateListBody, bodyOptional: true,
    responses: { 201: { description: 'Created', schema: ListResponse }, 404: notFound('Project'), 409: conflicts },
  }),
];
