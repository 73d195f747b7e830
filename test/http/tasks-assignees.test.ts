/**
 * Who a task may be given to, over HTTP: an assignee must share something with the owner (a Space or
 * organization, or the task's project). A stranger's id is 404 not_found, word for word the answer an unknown id
 * gets, and nothing is written: the task never reaches the stranger's GET /tasks.
 */
import { randomUUID } from 'node:crypto';
import { expectError, expectNotFound } from '../support/api-expect';
import { shareASpace } from '../support/sharing';
import { signUp, useTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
useTestService((s) => (svc = s));

const head = () => svc.service.context.events.headPosition();
const tasksOf = async (c: Client) => {
  const res = await c.call('GET', '/tasks');
  expect(res.status).toBe(200);
  return res.body.tasks as Array<{ id: string; title: string; assigneeId: string | null }>;
};

describe('assigning a task', () => {
  it('to a stranger: 404 like an unknown id, nothing written, nothing in their list', async () => {
    const [owner, stranger] = [await signUp(svc.base), await signUp(svc.base)];
    const before = await head();
    const refused = await owner.call('POST', '/tasks', { title: 'Do my chores', assigneeId: stranger.userId });
    const unknown = await owner.call('POST', '/tasks', { title: 'Do my chores', assigneeId: randomUUID() });
    expectNotFound(refused);
    expect(refused.body).toEqual(unknown.body);
    expect(await head()).toBe(before);
    expect(await tasksOf(stranger)).toEqual([]);
    expect(await tasksOf(owner)).toEqual([]);
  });

  it('a task of one\'s own cannot be handed to a stranger later either', async () => {
    const [owner, stranger] = [await signUp(svc.base), await signUp(svc.base)];
    const task = (await owner.call('POST', '/tasks', { title: 'Mine' })).body.task;
    const before = await head();
    expectNotFound(await owner.call('PATCH', `/tasks/${task.id}`, { assigneeId: stranger.userId, title: 'Yours now' }));
    expect(await head()).toBe(before);
    expect(await tasksOf(stranger)).toEqual([]);
    expect((await owner.call('GET', `/tasks/${task.id}`)).body.task).toMatchObject({ title: 'Mine', assigneeId: null, version: 1 });
  });

  it('to oneself, always', async () => {
    const owner = await signUp(svc.base);
    const res = await owner.call('POST', '/tasks', { title: 'Note to self', assigneeId: owner.userId });
    expect(res.status).toBe(201);
    expect(res.body.task.assigneeId).toBe(owner.userId);
  });

  it('three people: the one sharing a Space with the owner gets it, the third does not', async () => {
    const [owner, colleague, outsider] = [await signUp(svc.base), await signUp(svc.base), await signUp(svc.base)];
    await shareASpace(owner, colleague);
    const project = (await owner.call('POST', '/projects', { name: 'Launch' })).body.project;
    const given = await owner.call('POST', '/tasks', { title: 'Write the notes', projectId: project.id, assigneeId: colleague.userId });
    expect(given.status).toBe(201);
    expect((await tasksOf(colleague)).map((t) => t.id)).toEqual([given.body.task.id]);

    const before = await head();
    expectNotFound(await owner.call('POST', '/tasks', { title: 'Also you', projectId: project.id, assigneeId: outsider.userId }));
    expectNotFound(await owner.call('PATCH', `/tasks/${given.body.task.id}`, { assigneeId: outsider.userId }));
    expect(await head()).toBe(before);
    expect(await tasksOf(outsider)).toEqual([]);
    expect((await tasksOf(colleague))[0]).toMatchObject({ assigneeId: colleague.userId });

    // The colleague, an assignee, may not hand it on at all (only its status is theirs to change).
    expectError(await colleague.call('PATCH', `/tasks/${given.body.task.id}`, { assigneeId: outsider.userId }), 403, 'forbidden');
    expect((await owner.call('GET', `/tasks/${given.body.task.id}`)).body.task.assigneeId).toBe(colleague.userId);
  });

  it('the outsider cannot push a task onto the owner either', async () => {
    const [owner, outsider] = [await signUp(svc.base), await signUp(svc.base)];
    expectNotFound(await outsider.call('POST', '/tasks', { title: 'Spam', assigneeId: owner.userId }));
    expect(await tasksOf(owner)).toEqual([]);
  });
});
