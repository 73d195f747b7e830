/**
 * Projects and their lists over real HTTP: create (with a first list), list with counts and People, archived ones,
 * detail with lists, members and tasks, edits with ETag/If-Match, delete with everything in it, new lists, bad input.
 * Contract: api-spec.md "Projects", addendum.md "Tasks, projects, lists"; docs/api-decisions.md (projects).
 */
import { randomUUID } from 'node:crypto';
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { type Client, signUp, type TestService, useTestService } from '../support/service';
import { teammateOf } from '../support/sharing';

let svc: TestService;
let base: string;
useTestService((started) => ((svc = started), (base = started.base)));

async function newProject(c: Client, body: Record<string, unknown> = { name: 'Launch' }) {
  const res = await c.call('POST', '/projects', body);
  expect(res.status).toBe(201);
  return res.body as { project: Record<string, any>; lists: Array<Record<string, any>> };
}

async function newTask(c: Client, body: Record<string, unknown>) {
  const res = await c.call('POST', '/tasks', { title: 'Task', ...body });
  expect(res.status).toBe(201);
  return res.body.task as Record<string, any>;
}

async function projectsOf(c: Client, query = '') {
  const res = await c.call('GET', `/projects${query}`);
  expect(res.status).toBe(200);
  return res.body.projects as Array<Record<string, any>>;
}

describe('POST /projects', () => {
  it('creates a project with a first list "To do", and an ETag', async () => {
    const c = await signUp(base);
    const res = await c.call('POST', '/projects', { name: 'Website', color: '#3366ff' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['lists', 'project']);
    expect(res.body.project).toMatchObject({
      name: 'Website', color: '#3366ff', archived: false, archivedAt: null, ownerId: c.userId, deletedAt: null, version: 1,
    });
    expect(res.body.lists).toEqual([expect.objectContaining({ projectId: res.body.project.id, name: 'To do', position: 0, deletedAt: null })]);
    expect(res.headers.get('etag')).toBe('"v1"');
    expect((await newProject(c, { name: 'Plain' })).project.color).toBeNull();
  });

  it('refuses bad input with 400 and writes nothing', async () => {
    const c = await signUp(base);
    for (const [body, path] of [
      [{}, 'body.name'], [{ name: ' ' }, 'body.name'], [{ name: 'x'.repeat(201) }, 'body.name'],
      [{ name: 'x', color: 'blue' }, 'body.color'], [{ name: 'x', archived: true }, 'body.archived'],
    ] as Array<[Record<string, unknown>, string]>) {
      expectInvalid(await c.call('POST', '/projects', body), path);
    }
    expect(await projectsOf(c)).toEqual([]);
  });
});

describe('GET /projects', () => {
  it('lists projects oldest first with counts and People (owner, then assignees)', async () => {
    const owner = await signUp(base, { name: 'Olga Owner' });
    const helper = await teammateOf(svc, owner, { name: 'Hal Helper' });
    const a = await newProject(owner, { name: 'A' });
    const b = await newProject(owner, { name: 'B' });
    await newTask(owner, { projectId: a.project.id, assigneeId: helper.userId });
    await newTask(owner, { projectId: a.project.id, assigneeId: helper.userId });
    const done = await newTask(owner, { projectId: a.project.id });
    expect((await owner.call('PATCH', `/tasks/${done.id}`, { status: 'done' })).status).toBe(200);
    await newTask(owner, {});

    const projects = await projectsOf(owner);
    expect(projects.map((p) => p.name)).toEqual(['A', 'B']);
    expect(projects[0]).toMatchObject({ ...a.project, counts: { tasks: 3, open: 2, done: 1 } });
    expect(projects[0].members).toEqual([
      { userId: owner.userId, name: 'Olga Owner', role: 'owner' },
      { userId: helper.userId, name: 'Hal Helper', role: 'assignee' },
    ]);
    expect(projects[1]).toMatchObject({ id: b.project.id, counts: { tasks: 0, open: 0, done: 0 }, members: [{ userId: owner.userId, role: 'owner' }] });
  });

  it('follows tasks leaving a project: counts and People drop them', async () => {
    const owner = await signUp(base);
    const helper = await teammateOf(svc, owner);
    const a = await newProject(owner);
    const task = await newTask(owner, { projectId: a.project.id, assigneeId: helper.userId });
    expect((await owner.call('PATCH', `/tasks/${task.id}`, { projectId: null })).status).toBe(200);
    const [p] = await projectsOf(owner);
    expect(p.counts).toEqual({ tasks: 0, open: 0, done: 0 });
    expect(p.members.map((m: { userId: string }) => m.userId)).toEqual([owner.userId]);
  });

  it('lists archived projects only with archived=1, and pages', async () => {
    const c = await signUp(base);
    const kept = await newProject(c, { name: 'Kept' });
    const old = await newProject(c, { name: 'Old' });
    expect((await c.call('PATCH', `/projects/${old.project.id}`, { archived: true })).status).toBe(200);
    expect((await projectsOf(c)).map((p) => p.id)).toEqual([kept.project.id]);
    expect((await projectsOf(c, '?archived=1')).map((p) => p.id)).toEqual([old.project.id]);
    expect((await projectsOf(c, '?archived=0')).map((p) => p.id)).toEqual([kept.project.id]);

    const third = await newProject(c, { name: 'Third' });
    const first = await c.call('GET', '/projects?limit=1');
    expect(first.body.projects.map((p: { id: string }) => p.id)).toEqual([kept.project.id]);
    const second = await c.call('GET', `/projects?limit=1&pageToken=${first.body.nextPageToken}`);
    expect(second.body.projects.map((p: { id: string }) => p.id)).toEqual([third.project.id]);
    expect(second.body.nextPageToken).toBeNull();
    expectInvalid(await c.call('GET', '/projects?archived=yes'), 'query.archived');
    expectInvalid(await c.call('GET', '/projects?limit=0'), 'query.limit');
  });
});

describe('GET /projects/{id}', () => {
  it('answers the project with its lists in board order, members and tasks list by list', async () => {
    const owner = await signUp(base, { name: 'Olga' });
    const helper = await teammateOf(svc, owner, { name: 'Hal' });
    const { project, lists: [todo] } = await newProject(owner);
    const doing = (await owner.call('POST', `/projects/${project.id}/lists`, { name: 'Doing' })).body.list;
    const d1 = await newTask(owner, { listId: doing.id, assigneeId: helper.userId });
    const t1 = await newTask(owner, { projectId: project.id });
    const t2 = await newTask(owner, { projectId: project.id });
    expect((await owner.call('PATCH', `/tasks/${t2.id}`, { beforeId: t1.id })).status).toBe(200);
    await newTask(owner, {});

    const res = await owner.call('GET', `/projects/${project.id}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"v1"');
    expect(res.body.project).toEqual(project);
    expect(res.body.lists.map((l: { id: string }) => l.id)).toEqual([todo.id, doing.id]);
    expect(res.body.tasks.map((t: { id: string }) => t.id)).toEqual([t2.id, t1.id, d1.id]);
    expect(res.body.members).toEqual([
      { userId: owner.userId, name: 'Olga', role: 'owner' },
      { userId: helper.userId, name: 'Hal', role: 'assignee' },
    ]);
    expect(res.body.counts).toEqual({ tasks: 3, open: 3, done: 0 });
  });

  it('answers 404 for unknown ids, for the assignee of one of its tasks, and 400 for malformed ids', async () => {
    const owner = await signUp(base);
    const helper = await teammateOf(svc, owner);
    const { project } = await newProject(owner);
    await newTask(owner, { projectId: project.id, assigneeId: helper.userId });
    expectNotFound(await owner.call('GET', `/projects/${randomUUID()}`));
    expectNotFound(await helper.call('GET', `/projects/${project.id}`));
    expectInvalid(await owner.call('GET', '/projects/123'), 'path.id');
  });
});

describe('PATCH /projects/{id}', () => {
  it('renames, recolours, archives and restores, each a new version', async () => {
    const c = await signUp(base);
    const { project } = await newProject(c);
    const renamed = await c.call('PATCH', `/projects/${project.id}`, { name: 'Relaunch', color: '#00aa00' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.project).toMatchObject({ name: 'Relaunch', color: '#00aa00', version: 2 });
    expect(renamed.headers.get('etag')).toBe('"v2"');
    const archived = (await c.call('PATCH', `/projects/${project.id}`, { archived: true })).body.project;
    expect(archived.archived).toBe(true);
    expect(Number.isNaN(Date.parse(archived.archivedAt))).toBe(false);
    const restored = (await c.call('PATCH', `/projects/${project.id}`, { archived: false, color: null })).body.project;
    expect(restored).toMatchObject({ archived: false, archivedAt: null, color: null, version: 4 });
    const same = await c.call('PATCH', `/projects/${project.id}`, { name: 'Relaunch' });
    expect(same.body.project).toEqual(restored);
  });

  it('honours If-Match, refuses bad input and unknown ids', async () => {
    const c = await signUp(base);
    const { project } = await newProject(c);
    expectError(await c.call('PATCH', `/projects/${project.id}`, { name: 'x' }, { 'if-match': '"v9"' }), 412, 'version_mismatch');
    expect((await c.call('PATCH', `/projects/${project.id}`, { name: 'y' }, { 'if-match': '"v1"' })).status).toBe(200);
    expectInvalid(await c.call('PATCH', `/projects/${project.id}`, { archived: 'yes' }), 'body.archived');
    expectInvalid(await c.call('PATCH', `/projects/${project.id}`, { name: '' }), 'body.name');
    expectInvalid(await c.call('PATCH', `/projects/${project.id}`, { owner: 'me' }), 'body.owner');
    expectNotFound(await c.call('PATCH', `/projects/${randomUUID()}`, { name: 'x' }));
    expect((await c.call('GET', `/projects/${project.id}`)).body.project).toMatchObject({ name: 'y', version: 2 });
  });
});

describe('DELETE /projects/{id}', () => {
  it('deletes the project, its lists and its tasks (for the assignee too); other tasks stay', async () => {
    const owner = await signUp(base);
    const helper = await teammateOf(svc, owner);
    const { project, lists: [list] } = await newProject(owner);
    const shared = await newTask(owner, { projectId: project.id, assigneeId: helper.userId });
    const inside = await newTask(owner, { projectId: project.id });
    const outside = await newTask(owner, {});
    expectError(await owner.call('DELETE', `/projects/${project.id}`, undefined, { 'if-match': '"v7"' }), 412, 'version_mismatch');

    const res = await owner.call('DELETE', `/projects/${project.id}`);
    expect(res.status).toBe(204);
    expectNotFound(await owner.call('GET', `/projects/${project.id}`));
    for (const t of [shared, inside]) expectNotFound(await owner.call('GET', `/tasks/${t.id}`));
    expectNotFound(await helper.call('GET', `/tasks/${shared.id}`));
    expect((await owner.call('GET', '/tasks')).body.tasks.map((t: { id: string }) => t.id)).toEqual([outside.id]);
    expect(await projectsOf(owner)).toEqual([]);
    expectNotFound(await owner.call('POST', '/tasks', { title: 'x', listId: list.id }));
    expectNotFound(await owner.call('DELETE', `/projects/${project.id}`));
    expectNotFound(await owner.call('POST', `/projects/${project.id}/lists`, {}));
  });
});

describe('POST /projects/{id}/lists', () => {
  it('adds a list at the end, named "New list" unless named', async () => {
    const c = await signUp(base);
    const { project } = await newProject(c);
    const res = await c.call('POST', `/projects/${project.id}/lists`);
    expect(res.status).toBe(201);
    expect(res.body.list).toMatchObject({ projectId: project.id, name: 'New list', position: 1, ownerId: c.userId });
    expect((await c.call('POST', `/projects/${project.id}/lists`, { name: 'Done' })).body.list).toMatchObject({ name: 'Done', position: 2 });
  });

  it('answers 404 for unknown projects, 409 for archived ones, 400 for bad names', async () => {
    const c = await signUp(base);
    const { project } = await newProject(c);
    expectNotFound(await c.call('POST', `/projects/${randomUUID()}/lists`, {}));
    expectInvalid(await c.call('POST', `/projects/${project.id}/lists`, { name: '' }), 'body.name');
    expectInvalid(await c.call('POST', `/projects/${project.id}/lists`, { name: 7 }), 'body.name');
    expect((await c.call('PATCH', `/projects/${project.id}`, { archived: true })).status).toBe(200);
    expectError(await c.call('POST', `/projects/${project.id}/lists`, {}), 409, 'project_archived');
    expect((await c.call('GET', `/projects/${project.id}`)).body.lists).toHaveLength(1);
  });
});
