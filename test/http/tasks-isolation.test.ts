/**
 * Tenant isolation of tasks, projects and lists over real HTTP: user B can neither see nor touch anything of user
 * A's, and gets 404 (never 403) for A's ids. Contract: addendum.md "Errors" (404 for what the caller may not see).
 */
import { expectNotFound } from '../support/api-expect';
import { signUp, startTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
let a: Client;
let b: Client;
let aProject: Record<string, any>;
let aList: Record<string, any>;
let aTask: Record<string, any>;
let aInboxTask: Record<string, any>;

async function snapshotOfA() {
  const [task, inbox, project, tasks, projects, sync] = await Promise.all([
    a.call('GET', `/tasks/${aTask.id}`),
    a.call('GET', `/tasks/${aInboxTask.id}`),
    a.call('GET', `/projects/${aProject.id}`),
    a.call('GET', '/tasks'),
    a.call('GET', '/projects'),
    a.call('GET', `/sync?since=${encodeURIComponent('2000-01-01T00:00:00Z')}`),
  ]);
  return {
    task: [task.status, task.body, task.headers.get('etag')],
    inbox: [inbox.status, inbox.body],
    project: [project.status, project.body, project.headers.get('etag')],
    tasks: tasks.body,
    projects: projects.body,
    rows: [sync.body.changes.tasks, sync.body.changes.projects, sync.body.changes.lists],
  };
}

let before: Awaited<ReturnType<typeof snapshotOfA>>;

beforeAll(async () => {
  svc = await startTestService();
  [a, b] = await Promise.all([signUp(svc.base), signUp(svc.base)]);
  const created = await a.call('POST', '/projects', { name: 'A secret project' });
  aProject = created.body.project;
  aList = created.body.lists[0];
  aTask = (await a.call('POST', '/tasks', { title: 'A secret', projectId: aProject.id, dueAt: '2033-01-10T10:00:00Z' })).body.task;
  aInboxTask = (await a.call('POST', '/tasks', { title: 'A inbox' })).body.task;
  expect(aTask?.id && aInboxTask?.id).toBeTruthy();
  before = await snapshotOfA();
});

afterAll(() => svc.stop());

describe("B and A's tasks and projects", () => {
  it("B gets 404 for GET, PATCH and DELETE on A's tasks, whatever If-Match says", async () => {
    for (const t of [aTask, aInboxTask]) {
      for (const headers of [{}, { 'if-match': '"v1"' }, { 'if-match': '"v99"' }, { 'if-match': 'garbage' }] as Array<Record<string, string>>) {
        expectNotFound(await b.call('GET', `/tasks/${t.id}`, undefined, headers));
        expectNotFound(await b.call('PATCH', `/tasks/${t.id}`, { status: 'done' }, headers));
        expectNotFound(await b.call('DELETE', `/tasks/${t.id}`, undefined, headers));
      }
    }
  });

  it("B gets 404 for every project route on A's project", async () => {
    expectNotFound(await b.call('GET', `/projects/${aProject.id}`));
    expectNotFound(await b.call('PATCH', `/projects/${aProject.id}`, { name: 'pwned' }));
    expectNotFound(await b.call('PATCH', `/projects/${aProject.id}`, { archived: true }, { 'if-match': '"v1"' }));
    expectNotFound(await b.call('DELETE', `/projects/${aProject.id}`));
    expectNotFound(await b.call('POST', `/projects/${aProject.id}/lists`, { name: 'planted' }));
  });

  it("B cannot put tasks into A's project or list (404), nor move their own there", async () => {
    expectNotFound(await b.call('POST', '/tasks', { title: 'planted', projectId: aProject.id }));
    expectNotFound(await b.call('POST', '/tasks', { title: 'planted', listId: aList.id }));
    const own = (await b.call('POST', '/tasks', { title: 'mine' })).body.task;
    expectNotFound(await b.call('PATCH', `/tasks/${own.id}`, { projectId: aProject.id }));
    expectNotFound(await b.call('PATCH', `/tasks/${own.id}`, { listId: aList.id }));
    // An anchor must be a task of the mover's own list: A's task is refused exactly like an unknown id.
    const anchored = await b.call('PATCH', `/tasks/${own.id}`, { afterId: aInboxTask.id });
    const unknown = await b.call('PATCH', `/tasks/${own.id}`, { afterId: '00000000-0000-4000-8000-000000000000' });
    expect([anchored.status, anchored.body]).toEqual([unknown.status, unknown.body]);
  });
});

describe("B's reads never show A's data", () => {
  it("GET /tasks (also filtered by A's project and list) and GET /projects hold none of A's", async () => {
    for (const query of ['', `?projectId=${aProject.id}`, `?listId=${aList.id}`, '?projectId=none', `?assignee=${a.userId}`]) {
      const res = await b.call('GET', `/tasks${query}`);
      expect(res.status).toBe(200);
      for (const t of res.body.tasks) expect(t.createdBy).toBe(b.userId);
    }
    for (const query of ['', '?archived=1']) {
      const res = await b.call('GET', `/projects${query}`);
      expect(res.status).toBe(200);
      expect(res.body.projects).toEqual([]);
    }
  });

  it("/sync and /me/bootstrap hold none of A's tasks, projects or lists", async () => {
    const aIds = new Set([aProject.id, aList.id, aTask.id, aInboxTask.id]);
    const page = await b.call('GET', `/sync?since=${encodeURIComponent('2000-01-01T00:00:00Z')}`);
    expect(page.status).toBe(200);
    for (const r of [...page.body.changes.tasks, ...page.body.changes.projects, ...page.body.changes.lists]) expect(aIds.has(r.id)).toBe(false);
    const boot = await b.call('GET', '/me/bootstrap');
    expect(boot.status).toBe(200);
    for (const r of [...boot.body.projects, ...boot.body.lists]) expect(aIds.has(r.id)).toBe(false);
  });
});

describe("after B's attempts", () => {
  it("nothing of A's changed", async () => {
    await b.call('PATCH', `/tasks/${aTask.id}`, { title: 'pwned' });
    await b.call('DELETE', `/tasks/${aInboxTask.id}`);
    await b.call('DELETE', `/projects/${aProject.id}`);
    await b.call('POST', '/tasks', { title: 'planted', listId: aList.id });
    expect(await snapshotOfA()).toEqual(before);
  });
});
