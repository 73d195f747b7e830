import { TASK_LIMITS, type Project, type Task } from '../../contracts/tasks';
import { tasksDecider, type TasksCommand, type TasksEvent } from '../../write-api/tasks/tasks.decider';
import { given } from '../support/given';

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const OWNER = uuid(1);
const ASSIGNEE = uuid(2);
const STRANGER = uuid(3);
const P1 = uuid(10);
const P2 = uuid(11);
const L1 = uuid(20);
const L2 = uuid(21);
const L3 = uuid(22);
const NOW = '2031-05-01T10:00:00.000Z';
const LATER = '2031-05-02T10:00:00.000Z';

const project = (id: string, o: Partial<Project> = {}): TasksEvent => ({
  type: 'project.created',
  data: { id, name: 'Project', color: null, archived: false, archivedAt: null, ownerId: OWNER, createdAt: NOW, updatedAt: NOW, deletedAt: null, version: 1, ...o },
});
const list = (id: string, projectId: string, position: number): TasksEvent => ({
  type: 'list.created',
  data: { id, projectId, name: `List ${position}`, position, ownerId: OWNER, createdAt: NOW, updatedAt: NOW, deletedAt: null },
});
const taskData = (id: string, o: Partial<Task> = {}): Task => ({
  id, title: 'Task', notes: null, projectId: null, listId: null, dueAt: null, estimateMinutes: null, priority: 'normal',
  assigneeId: null, status: 'open', createdBy: OWNER, createdAt: NOW, updatedAt: NOW, completedAt: null, deletedAt: null,
  rank: 'V00000', version: 1, ...o,
});
const task = (id: string, o: Partial<Task> = {}): TasksEvent => ({ type: 'task.created', data: taskData(id, o) });

/** P1 with lists L2 (position 1, created first) and L1 (position 0); P2 archived with L3. */
const board: TasksEvent[] = [
  project(P1), list(L2, P1, 1), list(L1, P1, 0),
  project(P2, { archived: true, archivedAt: NOW }), list(L3, P2, 0),
];

const fields = { title: 'New', notes: null, dueAt: null, estimateMinutes: null, priority: 'normal' as const, assigneeId: null };
// Assignees share a Space with the owner unless a test says otherwise ('who may be assigned').
const create = (o: Partial<Extract<TasksCommand, { type: 'CreateTask' }>> = {}): TasksCommand => ({
  type: 'CreateTask', actorId: OWNER, ownerId: OWNER, now: LATER, taskId: uuid(100), fields, place: {}, assigneeSharesASpace: true, ...o,
});
const update = (taskId: string, o: Partial<Extract<TasksCommand, { type: 'UpdateTask' }>> = {}): TasksCommand => ({
  type: 'UpdateTask', actorId: OWNER, ownerId: OWNER, now: LATER, taskId, changes: {}, place: {}, assigneeSharesASpace: true, ...o,
});
const remove = (taskId: string, o: Partial<Extract<TasksCommand, { type: 'DeleteTask' }>> = {}): TasksCommand => ({
  type: 'DeleteTask', actorId: OWNER, ownerId: OWNER, now: LATER, taskId, ...o,
});
const T1 = uuid(30);
const T2 = uuid(31);
const T3 = uuid(32);

describe('tasks decider: who may be assigned', () => {
  const alone = { assigneeSharesASpace: false };
  const inP1 = [...board, task(T1, { projectId: P1, listId: L1, assigneeId: ASSIGNEE }), task(T2, { projectId: P1, listId: L1 })];

  it('someone who shares a Space with the owner, and the owner themselves', () => {
    given(tasksDecider, board).when(create({ fields: { ...fields, assigneeId: STRANGER } })).then([{ type: 'task.created' }, { type: 'task.assigned' }]);
    given(tasksDecider, board).when(create({ ...alone, fields: { ...fields, assigneeId: OWNER } })).then([{ type: 'task.created' }, { type: 'task.assigned' }]);
  });

  it('one of the People of the task\'s project (the assignee of another of its tasks)', () => {
    given(tasksDecider, inP1).when(create({ ...alone, place: { projectId: P1 }, fields: { ...fields, assigneeId: ASSIGNEE } }))
      .then([{ type: 'task.created' }, { type: 'task.assigned' }]);
    given(tasksDecider, inP1).when(update(T2, { ...alone, changes: { assigneeId: ASSIGNEE } })).then([{ type: 'task.assigned' }]);
    // A list names its project too.
    given(tasksDecider, inP1).when(create({ ...alone, place: { listId: L2 }, fields: { ...fields, assigneeId: ASSIGNEE } }))
      .then([{ type: 'task.created' }, { type: 'task.assigned' }]);
  });

  it('nobody else: 404 as for an unknown id, outside the project, or on the only task that made them one of its People', () => {
    given(tasksDecider, inP1).when(create({ ...alone, fields: { ...fields, assigneeId: STRANGER } })).thenThrows('not_found');
    given(tasksDecider, inP1).when(create({ ...alone, fields: { ...fields, assigneeId: ASSIGNEE } })).thenThrows('not_found');
    given(tasksDecider, inP1).when(update(T2, { ...alone, changes: { assigneeId: STRANGER } })).thenThrows('not_found');
    const onlyT1 = [...board, task(T1, { projectId: P1, listId: L1, assigneeId: ASSIGNEE })];
    given(tasksDecider, onlyT1).when(update(T1, { ...alone, changes: { assigneeId: null } })).then([{ type: 'task.updated' }]);
    given(tasksDecider, [...onlyT1, { type: 'task.updated', data: taskData(T1, { projectId: P1, listId: L1, version: 2 }) }])
      .when(update(T1, { ...alone, changes: { assigneeId: ASSIGNEE } })).thenThrows('not_found');
  });

  it('keeps a task\'s assignee through other changes and moves, whatever they share', () => {
    given(tasksDecider, inP1).when(update(T1, { ...alone, changes: { title: 'Renamed' }, place: { projectId: null } }))
      .then([{ type: 'task.updated', data: { assigneeId: ASSIGNEE, projectId: null } as never }]);
  });
});

describe('tasks decider: creating tasks', () => {
  it('creates an open task without a project at version 1, owned by the stream owner', () => {
    given(tasksDecider, []).when(create()).then([
      { type: 'task.created', data: { id: uuid(100), projectId: null, listId: null, status: 'open', version: 1, createdBy: OWNER, completedAt: null } as never },
    ]);
  });

  it('also emits task.assigned when the task has an assignee', () => {
    const [created, assigned] = given(tasksDecider, []).when(create({ fields: { ...fields, assigneeId: ASSIGNEE } }))
      .then([{ type: 'task.created' }, { type: 'task.assigned', data: { assigneeId: ASSIGNEE } as never }]);
    expect(assigned.data).toEqual(created.data);
  });

  it('puts a task given only a project into its first list, and derives the project from a list', () => {
    given(tasksDecider, board).when(create({ place: { projectId: P1 } })).then([{ type: 'task.created', data: { projectId: P1, listId: L1 } as never }]);
    given(tasksDecider, board).when(create({ place: { listId: L2 } })).then([{ type: 'task.created', data: { projectId: P1, listId: L2 } as never }]);
    given(tasksDecider, board).when(create({ place: { projectId: P1, listId: L2 } })).then([{ type: 'task.created', data: { listId: L2 } as never }]);
  });

  it('appends to the end of its list', () => {
    const [created] = given(tasksDecider, [...board, task(T1, { projectId: P1, listId: L1, rank: 'a00000' }), task(T2, { rank: 'z00000' })])
      .when(create({ place: { listId: L1 } })).then([{ type: 'task.created' }]);
    expect((created.data as Task).rank > 'a00000').toBe(true);
  });

  it('refuses a list of another project (400), unknown or deleted projects and lists (404), an archived project (409)', () => {
    given(tasksDecider, board).when(create({ place: { projectId: P1, listId: L3 } })).thenThrows('list_not_in_project');
    given(tasksDecider, board).when(create({ place: { projectId: uuid(99) } })).thenThrows('not_found');
    given(tasksDecider, board).when(create({ place: { listId: uuid(99) } })).thenThrows('not_found');
    const deleted: TasksEvent = { type: 'project.deleted', data: { ...(project(P1).data as Project), deletedAt: NOW } };
    given(tasksDecider, [...board, deleted]).when(create({ place: { projectId: P1 } })).thenThrows('not_found');
    given(tasksDecider, board).when(create({ place: { projectId: P2 } })).thenThrows('project_archived');
    given(tasksDecider, board).when(create({ place: { listId: L3 } })).thenThrows('project_archived');
  });

  it('refuses someone else acting on the owner\'s board, and an id used before', () => {
    given(tasksDecider, board).when(create({ actorId: STRANGER })).thenThrows('not_found');
    given(tasksDecider, [task(uuid(100))]).when(create()).thenThrows('duplicate_id');
    const gone: TasksEvent = { type: 'task.deleted', data: taskData(uuid(100), { deletedAt: NOW }) };
    given(tasksDecider, [task(uuid(100)), gone]).when(create()).thenThrows('duplicate_id');
  });

  it('refuses a task beyond the per-project limit, and takes one again once a task left', () => {
    const full = Array.from({ length: TASK_LIMITS.tasksPerProject }, (_, i) => task(uuid(1000 + i), { projectId: P1, listId: L1 }));
    given(tasksDecider, [...board, ...full]).when(create({ place: { projectId: P1 } })).thenThrows('limit_reached');
    const movedOut: TasksEvent = { type: 'task.updated', data: taskData(uuid(1000), { version: 2 }) };
    given(tasksDecider, [...board, ...full, movedOut]).when(create({ place: { projectId: P1 } })).then([{ type: 'task.created' }]);
  });

  it('refuses a task beyond the per-owner limit', () => {
    const full = Array.from({ length: TASK_LIMITS.liveTasks }, (_, i) => task(uuid(10_000 + i)));
    given(tasksDecider, full).when(create()).thenThrows('limit_reached');
  });
});

describe('tasks decider: changing tasks', () => {
  const open = [...board, task(T1, { projectId: P1, listId: L1 })];

  it('emits task.updated for details, with the next version', () => {
    given(tasksDecider, open).when(update(T1, { changes: { title: 'Renamed', priority: 'high' } })).then([
      { type: 'task.updated', data: { title: 'Renamed', priority: 'high', version: 2, updatedAt: LATER } as never },
    ]);
  });

  it('emits task.completed when marked done, and task.updated when opened again', () => {
    given(tasksDecider, open).when(update(T1, { changes: { status: 'done' } })).then([
      { type: 'task.completed', data: { status: 'done', completedAt: LATER } as never },
    ]);
    const done: TasksEvent = { type: 'task.completed', data: taskData(T1, { projectId: P1, listId: L1, status: 'done', completedAt: NOW, version: 2 }) };
    given(tasksDecider, [...open, done]).when(update(T1, { changes: { status: 'open' } })).then([
      { type: 'task.updated', data: { status: 'open', completedAt: null, version: 3 } as never },
    ]);
    given(tasksDecider, [...open, done]).when(update(T1, { changes: { status: 'done' } })).then([]);
  });

  it('emits task.due_changed with the previous due date when it is set, moved or cleared', () => {
    given(tasksDecider, open).when(update(T1, { changes: { dueAt: LATER } })).then([
      { type: 'task.due_changed', data: { data: { dueAt: LATER, version: 2 }, previous: { dueAt: null } } as never },
    ]);
    const due = [...board, task(T1, { dueAt: NOW })];
    given(tasksDecider, due).when(update(T1, { changes: { dueAt: LATER } })).then([
      { type: 'task.due_changed', data: { data: { dueAt: LATER }, previous: { dueAt: NOW } } as never },
    ]);
    given(tasksDecider, due).when(update(T1, { changes: { dueAt: null } })).then([
      { type: 'task.due_changed', data: { data: { dueAt: null }, previous: { dueAt: NOW } } as never },
    ]);
  });

  it('emits task.assigned for a new assignee and task.updated when the assignee is removed', () => {
    given(tasksDecider, open).when(update(T1, { changes: { assigneeId: ASSIGNEE } })).then([
      { type: 'task.assigned', data: { assigneeId: ASSIGNEE } as never },
    ]);
    const assigned = [...board, task(T1, { assigneeId: ASSIGNEE })];
    given(tasksDecider, assigned).when(update(T1, { changes: { assigneeId: STRANGER } })).then([{ type: 'task.assigned', data: { assigneeId: STRANGER } as never }]);
    given(tasksDecider, assigned).when(update(T1, { changes: { assigneeId: null } })).then([{ type: 'task.updated', data: { assigneeId: null } as never }]);
  });

  it('emits every applicable event of one change in order, each with the same final task', () => {
    const events = given(tasksDecider, open)
      .when(update(T1, { changes: { title: 'All at once', dueAt: LATER, assigneeId: ASSIGNEE, status: 'done' } }))
      .then([{ type: 'task.updated' }, { type: 'task.due_changed' }, { type: 'task.assigned' }, { type: 'task.completed' }]);
    const final = events[0].data as Task;
    expect(final).toMatchObject({ title: 'All at once', dueAt: LATER, assigneeId: ASSIGNEE, status: 'done', version: 2 });
    expect(events.map((e) => (e.type === 'task.due_changed' ? e.data.data : e.data))).toEqual([final, final, final, final]);
  });

  it('decides nothing for a change that changes nothing', () => {
    given(tasksDecider, open).when(update(T1, { changes: { title: 'Task', priority: 'normal' }, place: { projectId: P1 } })).then([]);
  });

  it('lets the assignee change the status, and nothing else (403)', () => {
    const assigned = [...board, task(T1, { assigneeId: ASSIGNEE })];
    given(tasksDecider, assigned).when(update(T1, { actorId: ASSIGNEE, changes: { status: 'done' } })).then([{ type: 'task.completed' }]);
    given(tasksDecider, assigned).when(update(T1, { actorId: ASSIGNEE, changes: { status: 'done', title: 'Mine now' } })).thenThrows('forbidden');
    given(tasksDecider, assigned).when(update(T1, { actorId: ASSIGNEE, place: { projectId: P1 } })).thenThrows('forbidden');
    given(tasksDecider, assigned).when(update(T1, { actorId: ASSIGNEE, changes: { assigneeId: null } })).thenThrows('forbidden');
  });

  it('answers not_found to anyone else, and for deleted or unknown tasks', () => {
    given(tasksDecider, open).when(update(T1, { actorId: STRANGER, changes: { status: 'done' } })).thenThrows('not_found');
    given(tasksDecider, open).when(update(uuid(99), { changes: { title: 'x' } })).thenThrows('not_found');
    const deleted: TasksEvent = { type: 'task.deleted', data: taskData(T1, { deletedAt: NOW }) };
    given(tasksDecider, [...open, deleted]).when(update(T1, { changes: { title: 'x' } })).thenThrows('not_found');
  });

  it('honours If-Match versions', () => {
    given(tasksDecider, open).when(update(T1, { changes: { title: 'x' }, expectedVersions: [2] })).thenThrows('version_mismatch');
    given(tasksDecider, open).when(update(T1, { changes: { title: 'x' }, expectedVersions: [] })).thenThrows('version_mismatch');
    given(tasksDecider, open).when(update(T1, { changes: { title: 'x' }, expectedVersions: [1] })).then([{ type: 'task.updated' }]);
  });
});

describe('tasks decider: moving tasks', () => {
  const ranked = [
    ...board,
    task(T1, { projectId: P1, listId: L1, rank: 'a00000' }),
    task(T2, { projectId: P1, listId: L1, rank: 'b00000' }),
    task(T3, { projectId: P1, listId: L1, rank: 'c00000' }),
  ];

  it('moves to another project\'s first list (or out of any project) at the end', () => {
    const other = project(uuid(12));
    const column = list(uuid(23), uuid(12), 0);
    given(tasksDecider, [...ranked, other, column]).when(update(T1, { place: { projectId: uuid(12) } })).then([
      { type: 'task.updated', data: { projectId: uuid(12), listId: uuid(23) } as never },
    ]);
    const [out] = given(tasksDecider, [...ranked, task(uuid(40), { rank: 'x00000' })]).when(update(T1, { place: { projectId: null } }))
      .then([{ type: 'task.updated', data: { projectId: null, listId: null } as never }]);
    expect((out.data as Task).rank > 'x00000').toBe(true);
    given(tasksDecider, ranked).when(update(T1, { place: { listId: null } })).then([{ type: 'task.updated', data: { projectId: null, listId: null } as never }]);
  });

  it('moves to another list of the same project, and keeps the list when only the same project is named', () => {
    given(tasksDecider, ranked).when(update(T1, { place: { listId: L2 } })).then([{ type: 'task.updated', data: { listId: L2 } as never }]);
    given(tasksDecider, ranked).when(update(T1, { place: { projectId: P1 } })).then([]);
  });

  it('refuses a move into an archived or full project', () => {
    given(tasksDecider, ranked).when(update(T1, { place: { projectId: P2 } })).thenThrows('project_archived');
    const full = Array.from({ length: TASK_LIMITS.tasksPerProject }, (_, i) => task(uuid(1000 + i), { projectId: uuid(12), listId: uuid(23) }));
    given(tasksDecider, [...ranked, project(uuid(12)), list(uuid(23), uuid(12), 0), ...full])
      .when(update(T1, { place: { projectId: uuid(12) } })).thenThrows('limit_reached');
  });

  it('places a task right before or after another one of its list', () => {
    const [before] = given(tasksDecider, ranked).when(update(T3, { anchor: { beforeId: T2 } })).then([{ type: 'task.updated' }]);
    const rank = (before.data as Task).rank;
    expect(rank > 'a00000' && rank < 'b00000').toBe(true);
    const [after] = given(tasksDecider, ranked).when(update(T1, { anchor: { afterId: T3 } })).then([{ type: 'task.updated' }]);
    expect((after.data as Task).rank > 'c00000').toBe(true);
    const [first] = given(tasksDecider, ranked).when(update(T3, { anchor: { beforeId: T1 } })).then([{ type: 'task.updated' }]);
    expect((first.data as Task).rank < 'a00000').toBe(true);
  });

  it('places a task next to a task of the list it moves to', () => {
    const target = [...ranked, task(uuid(41), { projectId: P1, listId: L2, rank: 'm00000' }), task(uuid(42), { projectId: P1, listId: L2, rank: 'n00000' })];
    const [moved] = given(tasksDecider, target).when(update(T1, { place: { listId: L2 }, anchor: { afterId: uuid(41) } })).then([{ type: 'task.updated' }]);
    expect(moved.data).toMatchObject({ listId: L2 });
    expect((moved.data as Task).rank > 'm00000' && (moved.data as Task).rank < 'n00000').toBe(true);
  });

  it('refuses an anchor that is not another task of the target list', () => {
    given(tasksDecider, ranked).when(update(T1, { anchor: { beforeId: T1 } })).thenThrows('unknown_id');
    given(tasksDecider, ranked).when(update(T1, { anchor: { afterId: uuid(99) } })).thenThrows('unknown_id');
    given(tasksDecider, ranked).when(update(T1, { place: { listId: L2 }, anchor: { afterId: T2 } })).thenThrows('unknown_id');
  });

  it('spreads the whole list again when no short rank fits, and the moved task lands where asked', () => {
    const tight = [
      ...board,
      task(T1, { projectId: P1, listId: L1, rank: 'V00000' }),
      task(T2, { projectId: P1, listId: L1, rank: `V00000${'0'.repeat(17)}1` }),
      task(T3, { projectId: P1, listId: L1, rank: 'W00000' }),
    ];
    const [reranked, moved] = given(tasksDecider, tight).when(update(T3, { anchor: { beforeId: T2 } }))
      .then([{ type: 'list.reranked', data: { ownerId: OWNER, listId: L1 } as never }, { type: 'task.updated' }]);
    const ranks = (reranked.data as { ranks: Array<{ id: string; rank: string }> }).ranks;
    expect(ranks.map((r) => r.id)).toEqual([T1, T2]);
    const t3 = (moved.data as Task).rank;
    expect(ranks[0].rank < t3 && t3 < ranks[1].rank).toBe(true);
    // After the spread the list takes ordinary moves again, in the new order.
    given(tasksDecider, [...tight, reranked, moved]).when(update(T1, { anchor: { afterId: T3 } })).then([{ type: 'task.updated' }]);
  });
});

describe('tasks decider: deleting tasks', () => {
  const assigned = [...board, task(T1, { assigneeId: ASSIGNEE })];

  it('lets the owner delete: task.deleted with deletedAt and the next version', () => {
    given(tasksDecider, assigned).when(remove(T1)).then([{ type: 'task.deleted', data: { id: T1, deletedAt: LATER, version: 2 } as never }]);
    given(tasksDecider, assigned).when(remove(T1, { expectedVersions: [1] })).then([{ type: 'task.deleted' }]);
  });

  it('refuses the assignee (403), anyone else and deleted tasks (404), and a stale version (412)', () => {
    given(tasksDecider, assigned).when(remove(T1, { actorId: ASSIGNEE })).thenThrows('forbidden');
    given(tasksDecider, assigned).when(remove(T1, { actorId: STRANGER })).thenThrows('not_found');
    const deleted: TasksEvent = { type: 'task.deleted', data: taskData(T1, { deletedAt: NOW }) };
    given(tasksDecider, [...assigned, deleted]).when(remove(T1)).thenThrows('not_found');
    given(tasksDecider, assigned).when(remove(T1, { expectedVersions: [7] })).thenThrows('version_mismatch');
  });
});

describe('tasks decider: projects and lists', () => {
  const base = { actorId: OWNER, ownerId: OWNER, now: LATER };
  const createProject: TasksCommand = { ...base, type: 'CreateProject', projectId: uuid(50), listId: uuid(51), name: 'Launch', color: '#112233' };

  it('creates a project with a first list "To do"', () => {
    given(tasksDecider, []).when(createProject).then([
      { type: 'project.created', data: { id: uuid(50), name: 'Launch', color: '#112233', archived: false, ownerId: OWNER, version: 1 } as never },
      { type: 'list.created', data: { id: uuid(51), projectId: uuid(50), name: 'To do', position: 0 } as never },
    ]);
  });

  it('refuses someone else, a used id and the project limit', () => {
    given(tasksDecider, []).when({ ...createProject, actorId: STRANGER }).thenThrows('not_found');
    given(tasksDecider, [project(uuid(50))]).when(createProject).thenThrows('duplicate_id');
    const many = Array.from({ length: TASK_LIMITS.projects }, (_, i) => project(uuid(5000 + i)));
    given(tasksDecider, many).when(createProject).thenThrows('limit_reached');
  });

  const updateProject = (changes: object, o: object = {}): TasksCommand => ({ ...base, type: 'UpdateProject', projectId: P1, changes, ...o });

  it('renames, recolours, archives and restores', () => {
    given(tasksDecider, board).when(updateProject({ name: 'Renamed', color: '#abcdef' })).then([
      { type: 'project.updated', data: { name: 'Renamed', color: '#abcdef', version: 2, updatedAt: LATER } as never },
    ]);
    given(tasksDecider, board).when(updateProject({ archived: true })).then([{ type: 'project.updated', data: { archived: true, archivedAt: LATER } as never }]);
    given(tasksDecider, board).when(updateProject({ archived: false }, { projectId: P2 })).then([
      { type: 'project.updated', data: { archived: false, archivedAt: null } as never },
    ]);
    given(tasksDecider, board).when(updateProject({ name: 'Project' })).then([]);
  });

  it('refuses unknown projects, someone else\'s and stale versions', () => {
    given(tasksDecider, board).when(updateProject({ name: 'x' }, { projectId: uuid(99) })).thenThrows('not_found');
    given(tasksDecider, board).when(updateProject({ name: 'x' }, { actorId: STRANGER })).thenThrows('not_found');
    given(tasksDecider, board).when(updateProject({ name: 'x' }, { expectedVersions: [5] })).thenThrows('version_mismatch');
  });

  it('deletes a project with every task (task.deleted each) and list, leaving other projects alone', () => {
    const full = [
      ...board,
      task(T1, { projectId: P1, listId: L1 }), task(T2, { projectId: P1, listId: L2, assigneeId: ASSIGNEE }),
      task(T3, { projectId: P2, listId: L3 }), task(uuid(33)),
    ];
    const events = given(tasksDecider, full).when({ ...base, type: 'DeleteProject', projectId: P1 }).then([
      { type: 'task.deleted', data: { id: T1, deletedAt: LATER } as never },
      { type: 'task.deleted', data: { id: T2, deletedAt: LATER } as never },
      { type: 'list.deleted', data: { id: L2, deletedAt: LATER } as never },
      { type: 'list.deleted', data: { id: L1, deletedAt: LATER } as never },
      { type: 'project.deleted', data: { id: P1, deletedAt: LATER, version: 2 } as never },
    ]);
    const after = [...full, ...events];
    given(tasksDecider, after).when(update(T1, { changes: { title: 'x' } })).thenThrows('not_found');
    given(tasksDecider, after).when(update(T3, { changes: { title: 'x' } })).then([{ type: 'task.updated' }]);
    given(tasksDecider, after).when(create({ place: { listId: L1 } })).thenThrows('not_found');
    given(tasksDecider, full).when({ ...base, type: 'DeleteProject', projectId: P1, expectedVersions: [9] }).thenThrows('version_mismatch');
    given(tasksDecider, full).when({ ...base, type: 'DeleteProject', projectId: P1, actorId: STRANGER }).thenThrows('not_found');
  });

  const createList = (o: object = {}): TasksCommand => ({ ...base, type: 'CreateList', projectId: P1, listId: uuid(60), name: 'New list', ...o });

  it('adds a list after the last one', () => {
    given(tasksDecider, board).when(createList()).then([{ type: 'list.created', data: { id: uuid(60), projectId: P1, name: 'New list', position: 2 } as never }]);
  });

  it('refuses a list in an archived, unknown or someone else\'s project, and beyond the limit', () => {
    given(tasksDecider, board).when(createList({ projectId: P2 })).thenThrows('project_archived');
    given(tasksDecider, board).when(createList({ projectId: uuid(99) })).thenThrows('not_found');
    given(tasksDecider, board).when(createList({ actorId: STRANGER })).thenThrows('not_found');
    const many = Array.from({ length: TASK_LIMITS.listsPerProject - 2 }, (_, i) => list(uuid(700 + i), P1, i + 2));
    given(tasksDecider, [...board, ...many]).when(createList()).thenThrows('limit_reached');
  });
});
