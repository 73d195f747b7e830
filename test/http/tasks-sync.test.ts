/**
 * Tasks, projects and lists in /me/bootstrap and /sync: rows in their latest state, removed ones with `deletedAt`,
 * an assignee's rows (and the `deletedAt` row once they are unassigned), nothing of anyone else's.
 * Contract: api-spec.md "Profile" (/sync) and section 3; addendum.md "Sync".
 */
import { type Client, signUp, type TestService, useTestService } from '../support/service';
import { teammateOf } from '../support/sharing';

let svc: TestService;
let base: string;
useTestService((started) => ((svc = started), (base = started.base)));

type Row = Record<string, any>;

async function bootstrap(c: Client) {
  const res = await c.call('GET', '/me/bootstrap');
  expect(res.status).toBe(200);
  return res.body;
}

async function sync(c: Client, since: string) {
  const res = await c.call('GET', `/sync?since=${encodeURIComponent(since)}`);
  expect(res.status).toBe(200);
  expect(res.body.hasMore).toBe(false);
  return res.body as { changes: { tasks: Row[]; projects: Row[]; lists: Row[]; events: Row[] }; cursor: string };
}

const byId = (rows: Row[]) => new Map(rows.map((r) => [r.id as string, r]));

async function call(c: Client, method: string, path: string, body?: unknown) {
  const res = await c.call(method, path, body);
  expect(res.status).toBeLessThan(300);
  return res.body;
}

describe('tasks, projects and lists in sync', () => {
  it('bootstrap lists live projects and lists; sync returns each change once, removed rows with deletedAt', async () => {
    const c = await signUp(base);
    const boot = await bootstrap(c);
    const { project, lists: [first] } = await call(c, 'POST', '/projects', { name: 'Sync me' });
    const second = (await call(c, 'POST', `/projects/${project.id}/lists`, { name: 'Later' })).list;
    const kept = (await call(c, 'POST', '/tasks', { title: 'kept', projectId: project.id })).task;
    const inbox = (await call(c, 'POST', '/tasks', { title: 'draft' })).task;
    await call(c, 'PATCH', `/tasks/${inbox.id}`, { title: 'final' });
    const doomed = (await call(c, 'POST', '/tasks', { title: 'doomed' })).task;
    await call(c, 'DELETE', `/tasks/${doomed.id}`);

    const page = await sync(c, boot.cursor);
    const tasks = byId(page.changes.tasks);
    expect([...tasks.keys()].sort()).toEqual([kept.id, inbox.id, doomed.id].sort());
    expect(tasks.get(kept.id)).toEqual(kept);
    expect(tasks.get(inbox.id)).toMatchObject({ title: 'final', version: 2, deletedAt: null });
    expect(Number.isNaN(Date.parse(tasks.get(doomed.id)!.deletedAt))).toBe(false);
    expect(page.changes.projects).toEqual([project]);
    expect(page.changes.lists.map((l) => l.id).sort()).toEqual([first.id, second.id].sort());

    const again = await bootstrap(c);
    expect(again.projects).toEqual([project]);
    expect(again.lists.map((l: Row) => l.id).sort()).toEqual([first.id, second.id].sort());

    await call(c, 'DELETE', `/projects/${project.id}`);
    const gone = await sync(c, page.cursor);
    expect(gone.changes.projects.map((p) => [p.id, typeof p.deletedAt])).toEqual([[project.id, 'string']]);
    expect(gone.changes.lists.map((l) => typeof l.deletedAt)).toEqual(['string', 'string']);
    expect(gone.changes.tasks.map((t) => [t.id, typeof t.deletedAt])).toEqual([[kept.id, 'string']]);
    const after = await bootstrap(c);
    expect(after.projects).toEqual([]);
    expect(after.lists).toEqual([]);
    expect((await sync(c, gone.cursor)).changes.tasks).toEqual([]);
  });

  it('an assignee syncs the tasks assigned to them and gets a deletedAt row once unassigned; strangers get nothing', async () => {
    const owner = await signUp(base);
    const helper = await teammateOf(svc, owner);
    const stranger = await signUp(base);
    const [helperBoot, strangerBoot, ownerBoot] = await Promise.all([bootstrap(helper), bootstrap(stranger), bootstrap(owner)]);
    const { project } = await call(owner, 'POST', '/projects', { name: 'Private' });
    const task = (await call(owner, 'POST', '/tasks', { title: 'Help me', projectId: project.id, assigneeId: helper.userId })).task;

    const assigned = await sync(helper, helperBoot.cursor);
    expect(assigned.changes.tasks).toEqual([task]);
    expect(assigned.changes.projects).toEqual([]);
    expect(assigned.changes.lists).toEqual([]);

    await call(owner, 'PATCH', `/tasks/${task.id}`, { assigneeId: null });
    const dropped = await sync(helper, assigned.cursor);
    expect(dropped.changes.tasks).toHaveLength(1);
    expect(dropped.changes.tasks[0]).toMatchObject({ id: task.id, title: 'Help me' });
    expect(typeof dropped.changes.tasks[0].deletedAt).toBe('string');

    const ownRows = await sync(owner, ownerBoot.cursor);
    expect(ownRows.changes.tasks).toEqual([expect.objectContaining({ id: task.id, assigneeId: null, deletedAt: null })]);

    const nothing = await sync(stranger, strangerBoot.cursor);
    expect([...nothing.changes.tasks, ...nothing.changes.projects, ...nothing.changes.lists]).toEqual([]);
  });
});
