/**
 * task.* webhooks end to end (log -> relay -> bus -> dispatcher -> a real receiver): the owner's webhooks get
 * created, updated, due_changed (with `previous`), completed and deleted; task.assigned goes to the assignee's
 * webhooks and not the owner's. Contract: api-spec.md section 6, addendum.md "Webhook management".
 */
import { verifyWebhookSignature } from '../../contracts/webhook-signature';
import { DELIVERY_WAIT_MS as WAIT_MS, sleep, until, useServiceAndReceiver, type Receiver } from '../support/receiver';
import { signUp, type Client, type TestService } from '../support/service';
import { teammateOf } from '../support/sharing';

jest.setTimeout(90_000);

let svc: TestService;
let receiver: Receiver;
useServiceAndReceiver((started, r) => ([svc, receiver] = [started, r]));

let paths = 0;
async function hook(c: Client, events: string[]) {
  const route = `/task-hook-${paths++}`;
  const res = await c.call('POST', '/webhooks', { name: route, url: receiver.url(route), events });
  expect(res.status).toBe(201);
  return { route, secret: res.body.secret as string };
}

const TASK_FIELDS = [
  'assigneeId', 'completedAt', 'createdAt', 'createdBy', 'deletedAt', 'dueAt', 'estimateMinutes', 'id', 'listId', 'notes',
  'priority', 'projectId', 'rank', 'status', 'title', 'updatedAt', 'version',
];

it('delivers every task.* type to the owner, and task.assigned only to the assignee', async () => {
  const owner = await signUp(svc.base);
  const helper = await teammateOf(svc, owner);
  const ownerHook = await hook(owner, ['*']);
  const helperHook = await hook(helper, ['*']);

  const created = await owner.call('POST', '/tasks', { title: 'Ship it', dueAt: '2031-06-01T09:00:00Z' });
  expect(created.status).toBe(201);
  const id = created.body.task.id;
  const step = async (c: Client, method: string, body?: unknown) => expect((await c.call(method, `/tasks/${id}`, body)).status).toBeLessThan(300);
  await step(owner, 'PATCH', { dueAt: '2031-06-03T09:00:00Z' });
  await step(owner, 'PATCH', { assigneeId: helper.userId });
  await step(helper, 'PATCH', { status: 'done' });
  await step(owner, 'PATCH', { title: 'Shipped' });
  await step(owner, 'DELETE');

  const expected = ['task.created', 'task.due_changed', 'task.completed', 'task.updated', 'task.deleted'];
  await until(() => receiver.received(ownerHook.route).length >= expected.length, WAIT_MS, 'owner deliveries');
  await until(() => receiver.received(helperHook.route).length >= 1, WAIT_MS, 'assignee delivery');
  await sleep(300); // nothing else may arrive

  const ownerGot = receiver.received(ownerHook.route);
  expect(ownerGot.map((r) => r.json.type).sort()).toEqual([...expected].sort());
  for (const r of ownerGot) {
    expect(r.headers['x-calendar-event']).toBe(r.json.type);
    expect(verifyWebhookSignature({ secret: ownerHook.secret, timestamp: r.headers['x-calendar-timestamp'], signature: r.headers['x-calendar-signature'], body: r.body })).toBe(true);
    expect(Object.keys(r.json.data).sort()).toEqual(TASK_FIELDS);
    expect(r.json.data).toMatchObject({ id, createdBy: owner.userId });
  }
  const of = (type: string) => ownerGot.find((r) => r.json.type === type)!.json;
  expect(of('task.created').data).toMatchObject({ title: 'Ship it', status: 'open', version: 1 });
  expect(of('task.due_changed')).toMatchObject({ data: { dueAt: '2031-06-03T09:00:00.000Z' }, previous: { dueAt: '2031-06-01T09:00:00.000Z' } });
  expect(of('task.completed').data).toMatchObject({ status: 'done', assigneeId: helper.userId });
  expect(of('task.updated').data.title).toBe('Shipped');
  expect(typeof of('task.deleted').data.deletedAt).toBe('string');

  const helperGot = receiver.received(helperHook.route);
  expect(helperGot.map((r) => r.json.type)).toEqual(['task.assigned']);
  expect(helperGot[0].json.data).toMatchObject({ id, assigneeId: helper.userId, createdBy: owner.userId });
});

it('a task created with an assignee reaches the assignee as task.assigned; a type filter is honoured', async () => {
  const owner = await signUp(svc.base);
  const helper = await teammateOf(svc, owner);
  const stranger = await signUp(svc.base);
  const ownerHook = await hook(owner, ['task.created']);
  const helperHook = await hook(helper, ['task.assigned']);
  const strangerHook = await hook(stranger, ['*']);
  const res = await owner.call('POST', '/tasks', { title: 'Review', assigneeId: helper.userId });
  expect(res.status).toBe(201);
  await until(() => receiver.received(helperHook.route).length >= 1 && receiver.received(ownerHook.route).length >= 1, WAIT_MS, 'deliveries');
  await sleep(300);
  expect(receiver.received(ownerHook.route).map((r) => r.json.type)).toEqual(['task.created']);
  expect(receiver.received(helperHook.route).map((r) => r.json.type)).toEqual(['task.assigned']);
  expect(receiver.received(helperHook.route)[0].json.data.id).toBe(res.body.task.id);
  expect(receiver.received(strangerHook.route)).toEqual([]);
});
