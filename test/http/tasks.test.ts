/**
 * Tasks over real HTTP: create, read, list with filters and pages, change (events, assignee rights, ETag/If-Match),
 * move, delete, bad input. Contract: addendum.md "Tasks, projects, lists"; docs/api-decisions.md (tasks).
 */
import { randomUUID } from 'node:crypto';
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { type Client, request, signUp, type TestService, useTestService } from '../support/service';
import { teammateOf } from '../support/sharing';

let svc: TestService;
let base: string;
useTestService((started) => ((svc = started), (base = started.base)));

type Task = Record<string, any>;

async function created(c: Client, body: Record<string, unknown>): Promise<Task> {
  const res = await c.call('POST', '/tasks', { title: 'Task', ...body });
  expect(res.status).toBe(201);
  return res.body.task;
}

async function newProject(c: Client, name = 'Project') {
  const res = await c.call('POST', '/projects', { name });
  expect(res.status).toBe(201);
  return { project: res.body.project, list: res.body.lists[0] };
}

async function listed(c: Client, query = ''): Promise<Task[]> {
  const res = await c.call('GET', `/tasks${query}`);
  expect(res.status).toBe(200);
  expect(res.body.nextPageToken).toBeNull();
  return res.body.tasks;
}

const ids = (tasks: Task[]) => tasks.map((t) => t.id);

describe('POST /tasks and GET /tasks/{id}', () => {
  it('creates with defaults: open, normal priority, no project, owned by the caller', async () => {
    const c = await signUp(base);
    const res = await c.call('POST', '/tasks', { title: 'Buy milk' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['task']);
    expect(res.body.task).toMatchObject({
      title: 'Buy milk', notes: null, projectId: null, listId: null, dueAt: null, estimateMinutes: null, priority: 'normal',
      assigneeId: null, status: 'open', createdBy: c.userId, completedAt: null, deletedAt: null, version: 1,
    });
    expect(res.body.task.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(typeof res.body.task.rank).toBe('string');
    expect(res.headers.get('etag')).toBe('"v1"');
    expect(res.headers.get('x-calendar-position')).toMatch(/^\d+$/);

    const got = await c.call('GET', `/tasks/${res.body.task.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual(res.body);
    expect(got.headers.get('etag')).toBe('"v1"');
  });

  it('keeps every field it was given, due dates in UTC', async () => {
    const c = await signUp(base);
    const other = await teammateOf(svc, c);
    const task = await created(c, {
      title: 'Report', notes: 'Numbers from March', dueAt: '2031-04-01T17:00:00+02:00', estimateMinutes: 45, priority: 'high', assigneeId: other.userId,
    });
    expect(task).toMatchObject({ notes: 'Numbers from March', dueAt: '2031-04-01T15:00:00.000Z', estimateMinutes: 45, priority: 'high', assigneeId: other.userId });
  });

  it('puts a task with a project into the project\'s first list, or into the list it names', async () => {
    const c = await signUp(base);
    const { project, list } = await newProject(c);
    const second = (await c.call('POST', `/projects/${project.id}/lists`, { name: 'Doing' })).body.list;
    expect(await created(c, { projectId: project.id })).toMatchObject({ projectId: project.id, listId: list.id });
    expect(await created(c, { listId: second.id })).toMatchObject({ projectId: project.id, listId: second.id });
  });

  it('answers 404 for unknown projects and lists, 409 for a list of another project, 409 in an archived project', async () => {
    const c = await signUp(base);
    const a = await newProject(c, 'A');
    const b = await newProject(c, 'B');
    expectNotFound(await c.call('POST', '/tasks', { title: 'x', projectId: randomUUID() }));
    expectNotFound(await c.call('POST', '/tasks', { title: 'x', listId: randomUUID() }));
    expectError(await c.call('POST', '/tasks', { title: 'x', projectId: a.project.id, listId: b.list.id }), 409, 'list_not_in_project');
    expect((await c.call('PATCH', `/projects/${a.project.id}`, { archived: true })).status).toBe(200);
    expectError(await c.call('POST', '/tasks', { title: 'x', projectId: a.project.id }), 409, 'project_archived');
    expect(await listed(c)).toEqual([]);
  });

  it('refuses bad input with 400 and details.issues, and writes nothing', async () => {
    const c = await signUp(base);
    const bad: Array<[Record<string, unknown>, string]> = [
      [{}, 'body.title'],
      [{ title: '   ' }, 'body.title'],
      [{ title: 'x'.repeat(501) }, 'body.title'],
      [{ title: 'x', priority: 'urgent' }, 'body.priority'],
      [{ title: 'x', estimateMinutes: -5 }, 'body.estimateMinutes'],
      [{ title: 'x', estimateMinutes: 1.5 }, 'body.estimateMinutes'],
      [{ title: 'x', dueAt: 'tomorrow' }, 'body.dueAt'],
      [{ title: 'x', projectId: 'not-a-uuid' }, 'body.projectId'],
      [{ title: 'x', status: 'done' }, 'body.status'],
      [{ title: 'x', notes: 'n'.repeat(10_001) }, 'body.notes'],
    ];
    for (const [body, path] of bad) expectInvalid(await c.call('POST', '/tasks', body), path);
    expectInvalid(await c.call('POST', '/tasks', '{"title":'));
    expect(await listed(c)).toEqual([]);
  });

  it('answers 404 for unknown ids and 400 for malformed ones', async () => {
    const c = await signUp(base);
    expectNotFound(await c.call('GET', `/tasks/${randomUUID()}`));
    expectInvalid(await c.call('GET', '/tasks/not-a-uuid'), 'path.id');
  });

  it('creates once for a repeated Idempotency-Key', async () => {
    const c = await signUp(base);
    const key = randomUUID();
    const first = await c.call('POST', '/tasks', { title: 'Once' }, { 'idempotency-key': key });
    const again = await c.call('POST', '/tasks', { title: 'Once' }, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(ids(await listed(c))).toEqual([first.body.task.id]);
  });
});

describe('GET /tasks', () => {
  it('filters by status, project, list, no project, due range and assignee', async () => {
    const c = await signUp(base);
    const helper = await teammateOf(svc, c);
    const { project, list } = await newProject(c);
    const inbox = await created(c, { title: 'inbox', dueAt: '2031-03-01T09:00:00Z' });
    const planned = await created(c, { title: 'planned', projectId: project.id, dueAt: '2031-03-05T09:00:00Z', assigneeId: helper.userId });
    const done = await created(c, { title: 'done', projectId: project.id });
    expect((await c.call('PATCH', `/tasks/${done.id}`, { status: 'done' })).status).toBe(200);

    expect(ids(await listed(c))).toEqual([inbox.id, planned.id, done.id]);
    expect(ids(await listed(c, '?status=done'))).toEqual([done.id]);
    expect(ids(await listed(c, '?status=open'))).toEqual([inbox.id, planned.id]);
    expect(ids(await listed(c, `?projectId=${project.id}`))).toEqual([planned.id, done.id]);
    expect(ids(await listed(c, `?listId=${list.id}&status=open`))).toEqual([planned.id]);
    expect(ids(await listed(c, '?projectId=none'))).toEqual([inbox.id]);
    expect(ids(await listed(c, `?dueAfter=${encodeURIComponent('2031-03-01T09:00:00Z')}&dueBefore=${encodeURIComponent('2031-03-05T09:00:00Z')}`))).toEqual([inbox.id]);
    expect(ids(await listed(c, `?dueAfter=${encodeURIComponent('2031-03-02T00:00:00Z')}`))).toEqual([planned.id]);
    expect(ids(await listed(c, `?assignee=${helper.userId}`))).toEqual([planned.id]);
    expect(ids(await listed(c, '?assignee=me'))).toEqual([]);
  });

  it('pages with limit and nextPageToken, each task once', async () => {
    const c = await signUp(base);
    const made = [];
    for (let i = 0; i < 5; i++) made.push((await created(c, { title: `t${i}` })).id);
    const seen: string[] = [];
    let token: string | null = null;
    for (let guard = 0; guard < 5; guard++) {
      const res = await c.call('GET', `/tasks?limit=2${token ? `&pageToken=${token}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.tasks.length).toBeLessThanOrEqual(2);
      seen.push(...ids(res.body.tasks));
      token = res.body.nextPageToken;
      if (!token) break;
    }
    expect(seen).toEqual(made);
  });

  it('refuses bad filters and page tokens with 400', async () => {
    const c = await signUp(base);
    for (const [query, path] of [
      ['?status=later', 'query.status'], ['?limit=0', 'query.limit'], ['?limit=501', 'query.limit'], ['?projectId=abc', 'query.projectId'],
      ['?dueBefore=soon', 'query.dueBefore'], ['?assignee=you', 'query.assignee'], ['?pageToken=garbage', 'query.pageToken'],
    ]) {
      expectInvalid(await c.call('GET', `/tasks${query}`), path);
    }
  });
});

describe('PATCH /tasks/{id}', () => {
  it('changes fields and answers the new version with its ETag', async () => {
    const c = await signUp(base);
    const task = await created(c, { title: 'Draft' });
    const res = await c.call('PATCH', `/tasks/${task.id}`, { title: 'Final', notes: 'ok', priority: 'low', estimateMinutes: 30 });
    expect(res.status).toBe(200);
    expect(res.body.task).toMatchObject({ id: task.id, title: 'Final', notes: 'ok', priority: 'low', estimateMinutes: 30, version: 2 });
    expect(res.headers.get('etag')).toBe('"v2"');
    expect((await c.call('GET', `/tasks/${task.id}`)).body.task).toEqual(res.body.task);
  });

  it('marks done and open again, setting and clearing completedAt', async () => {
    const c = await signUp(base);
    const task = await created(c, {});
    const done = (await c.call('PATCH', `/tasks/${task.id}`, { status: 'done' })).body.task;
    expect(done.status).toBe('done');
    expect(Number.isNaN(Date.parse(done.completedAt))).toBe(false);
    const reopened = (await c.call('PATCH', `/tasks/${task.id}`, { status: 'open' })).body.task;
    expect(reopened).toMatchObject({ status: 'open', completedAt: null, version: 3 });
  });

  it('answers 200 with the unchanged task (same version) when nothing changes', async () => {
    const c = await signUp(base);
    const task = await created(c, { title: 'Same' });
    const res = await c.call('PATCH', `/tasks/${task.id}`, { title: 'Same' });
    expect(res.status).toBe(200);
    expect(res.body.task).toEqual(task);
    expect(res.headers.get('etag')).toBe('"v1"');
  });

  it('honours If-Match: 412 version_mismatch for a stale ETag, 200 for the current one', async () => {
    const c = await signUp(base);
    const task = await created(c, {});
    expect((await c.call('PATCH', `/tasks/${task.id}`, { title: 'v2' }, { 'if-match': '"v1"' })).status).toBe(200);
    expectError(await c.call('PATCH', `/tasks/${task.id}`, { title: 'v3' }, { 'if-match': '"v1"' }), 412, 'version_mismatch');
    expectError(await c.call('DELETE', `/tasks/${task.id}`, undefined, { 'if-match': '"v1"' }), 412, 'version_mismatch');
    expect((await c.call('GET', `/tasks/${task.id}`)).body.task.title).toBe('v2');
    expect((await c.call('DELETE', `/tasks/${task.id}`, undefined, { 'if-match': '"v2"' })).status).toBe(204);
  });

  it('refuses bad input with 400 and changes nothing', async () => {
    const c = await signUp(base);
    const task = await created(c, { title: 'Keep' });
    const other = await created(c, {});
    for (const [body, path] of [
      [{ status: 'finished' }, 'body.status'], [{ title: '' }, 'body.title'], [{ owner: 'me' }, 'body.owner'],
      [{ beforeId: other.id, afterId: other.id }, 'body.afterId'], [{ dueAt: 42 }, 'body.dueAt'],
    ] as Array<[Record<string, unknown>, string]>) {
      expectInvalid(await c.call('PATCH', `/tasks/${task.id}`, body), path);
    }
    expectNotFound(await c.call('PATCH', `/tasks/${task.id}`, { assigneeId: randomUUID() }));
    for (const [body, path] of [[{ afterId: randomUUID() }, 'body.afterId'], [{ beforeId: task.id }, 'body.beforeId']] as Array<[Record<string, unknown>, string]>) {
      const res = await c.call('PATCH', `/tasks/${task.id}`, body);
      expectError(res, 409, 'unknown_id');
      expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    expect((await c.call('GET', `/tasks/${task.id}`)).body.task).toEqual(task);
  });

  it('answers 404 for unknown tasks and for projects or lists that do not exist', async () => {
    const c = await signUp(base);
    const task = await created(c, {});
    expectNotFound(await c.call('PATCH', `/tasks/${randomUUID()}`, { title: 'x' }));
    expectNotFound(await c.call('PATCH', `/tasks/${task.id}`, { projectId: randomUUID() }));
    expectNotFound(await c.call('PATCH', `/tasks/${task.id}`, { listId: randomUUID() }));
  });

  it('moves between projects and lists; the task lands at the end of its new list', async () => {
    const c = await signUp(base);
    const a = await newProject(c, 'A');
    const b = await newProject(c, 'B');
    const there = await created(c, { projectId: b.project.id });
    const task = await created(c, { projectId: a.project.id });
    const moved = (await c.call('PATCH', `/tasks/${task.id}`, { projectId: b.project.id })).body.task;
    expect(moved).toMatchObject({ projectId: b.project.id, listId: b.list.id });
    expect(ids(await listed(c, `?listId=${b.list.id}`))).toEqual([there.id, task.id]);
    const out = (await c.call('PATCH', `/tasks/${task.id}`, { projectId: null })).body.task;
    expect(out).toMatchObject({ projectId: null, listId: null });
  });

  it('places a task before or after another; GET ?listId= answers the list order', async () => {
    const c = await signUp(base);
    const { list } = await newProject(c);
    const [t1, t2, t3] = [await created(c, { listId: list.id }), await created(c, { listId: list.id }), await created(c, { listId: list.id })];
    expect((await c.call('PATCH', `/tasks/${t3.id}`, { beforeId: t1.id })).status).toBe(200);
    expect(ids(await listed(c, `?listId=${list.id}`))).toEqual([t3.id, t1.id, t2.id]);
    expect((await c.call('PATCH', `/tasks/${t3.id}`, { afterId: t2.id })).status).toBe(200);
    expect(ids(await listed(c, `?listId=${list.id}`))).toEqual([t1.id, t2.id, t3.id]);
    expect((await c.call('PATCH', `/tasks/${t1.id}`, { afterId: t2.id })).status).toBe(200);
    expect(ids(await listed(c, `?listId=${list.id}`))).toEqual([t2.id, t1.id, t3.id]);
  });

  it('keeps the order when one gap is split until its ranks run out (the list is spread again)', async () => {
    const c = await signUp(base);
    const { list } = await newProject(c);
    const [first, x, y, last] = [
      await created(c, { listId: list.id }), await created(c, { listId: list.id }), await created(c, { listId: list.id }), await created(c, { listId: list.id }),
    ];
    // x and y take turns squeezing in right before `last`: each move halves the same gap.
    const longest: number[] = [];
    for (let i = 0; i < 160; i++) {
      const mover = i % 2 === 0 ? x : y;
      const res = await c.call('PATCH', `/tasks/${mover.id}`, { beforeId: last.id });
      expect(res.status).toBe(200);
      longest.push(res.body.task.rank.length);
    }
    const order = await listed(c, `?listId=${list.id}`);
    expect(ids(order)).toEqual([first.id, x.id, y.id, last.id]);
    const ranks = order.map((t) => t.rank);
    expect([...ranks].sort()).toEqual(ranks);
    // The ranks grew while the gap was split, then came back to their short form once the list was spread.
    expect(Math.max(...longest)).toBeGreaterThan(12);
    expect(longest.slice(longest.indexOf(Math.max(...longest)) + 1).some((n) => n === 6)).toBe(true);
  }, 120_000); // 160 moves one after another, each answered once projected: on MongoDB-wire under a loaded CI machine, more than 30 s
});

describe('assignees', () => {
  it('the assignee sees the task (GET by id, in GET /tasks and with assignee=me) and may mark it done or open', async () => {
    const owner = await signUp(base);
    const helper = await teammateOf(svc, owner);
    const { project } = await newProject(owner);
    const task = await created(owner, { title: 'Review', projectId: project.id, assigneeId: helper.userId });
    expect((await helper.call('GET', `/tasks/${task.id}`)).body.task).toEqual(task);
    expect(ids(await listed(helper))).toEqual([task.id]);
    expect(ids(await listed(helper, '?assignee=me'))).toEqual([task.id]);
    expect(ids(await listed(helper, `?projectId=${project.id}`))).toEqual([task.id]);

    const done = await helper.call('PATCH', `/tasks/${task.id}`, { status: 'done' }, { 'if-match': '"v1"' });
    expect(done.status).toBe(200);
    expect(done.body.task).toMatchObject({ status: 'done', version: 2, createdBy: owner.userId });
    expect((await owner.call('GET', `/tasks/${task.id}`)).body.task.status).toBe('done');
    expect((await helper.call('PATCH', `/tasks/${task.id}`, { status: 'open' })).body.task.status).toBe('open');
  });

  it('the assignee may change nothing else and may not delete (403 forbidden); nobody else sees the task', async () => {
    const owner = await signUp(base);
    const helper = await teammateOf(svc, owner);
    const stranger = await signUp(base);
    const task = await created(owner, { assigneeId: helper.userId });
    expectError(await helper.call('PATCH', `/tasks/${task.id}`, { title: 'Mine' }), 403, 'forbidden');
    expectError(await helper.call('PATCH', `/tasks/${task.id}`, { status: 'done', assigneeId: null }), 403, 'forbidden');
    expectError(await helper.call('DELETE', `/tasks/${task.id}`), 403, 'forbidden');
    expectNotFound(await stranger.call('GET', `/tasks/${task.id}`));
    expectNotFound(await stranger.call('PATCH', `/tasks/${task.id}`, { status: 'done' }));
    expect(await listed(stranger)).toEqual([]);
    expect((await owner.call('GET', `/tasks/${task.id}`)).body.task).toEqual(task);
  });

  it('an assignee who is replaced loses the task; the new one gets it', async () => {
    const owner = await signUp(base);
    const first = await teammateOf(svc, owner);
    const second = await teammateOf(svc, owner);
    const task = await created(owner, { assigneeId: first.userId });
    const res = await owner.call('PATCH', `/tasks/${task.id}`, { assigneeId: second.userId });
    expect(res.body.task.assigneeId).toBe(second.userId);
    expectNotFound(await first.call('GET', `/tasks/${task.id}`));
    expect(await listed(first)).toEqual([]);
    expect(ids(await listed(second))).toEqual([task.id]);
    expect((await owner.call('PATCH', `/tasks/${task.id}`, { assigneeId: null })).status).toBe(200);
    expectNotFound(await second.call('GET', `/tasks/${task.id}`));
  });

  it('an assignee must be a user of the caller\'s environment (a test key cannot assign live users)', async () => {
    const owner = await signUp(base);
    const helper = await teammateOf(svc, owner);
    const key = await owner.call('POST', '/api-keys', { name: 'test', scopes: ['tasks:write'], environment: 'test' });
    expect(key.status).toBe(201);
    const res = await request(base, 'POST', '/tasks', { title: 'x', assigneeId: helper.userId }, { authorization: `Bearer ${key.body.key}` });
    expectNotFound(res);
    expectNotFound(await owner.call('POST', '/tasks', { title: 'x', assigneeId: '00000000-0000-4000-8000-000000000001' }));
  });
});

describe('DELETE /tasks/{id}', () => {
  it('deletes (204): gone for the owner and the assignee, and a second delete is 404', async () => {
    const owner = await signUp(base);
    const helper = await teammateOf(svc, owner);
    const task = await created(owner, { assigneeId: helper.userId });
    const res = await owner.call('DELETE', `/tasks/${task.id}`);
    expect(res.status).toBe(204);
    expect(res.headers.get('x-calendar-position')).toMatch(/^\d+$/);
    expectNotFound(await owner.call('GET', `/tasks/${task.id}`));
    expectNotFound(await helper.call('GET', `/tasks/${task.id}`));
    expect(await listed(owner)).toEqual([]);
    expectNotFound(await owner.call('DELETE', `/tasks/${task.id}`));
    expectNotFound(await owner.call('PATCH', `/tasks/${task.id}`, { title: 'back' }));
  });
});
