/**
 * The automations runner end to end, driven by real domain events (log -> relay -> bus -> runner -> command
 * handlers and a real receiver): a completed task notifies its owner and calls a webhook signed with the
 * automation's secret; filters; tasks and events made as the owner; a failing step stops the chain and is recorded;
 * automations act only on their owner's events and data, only after being switched on, and never on what
 * automations did. Contract: api-spec.md "Automations", addendum.md "Focus, routines, automations, assistant".
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
const route = () => `/automation-${paths++}`;

async function automate(c: Client, body: Record<string, unknown>) {
  const res = await c.call('POST', '/automations', { name: 'test', enabled: true, ...body });
  expect(res.status).toBe(201);
  return { id: res.body.automation.id as string, secret: res.body.secret as string };
}

async function runsOf(c: Client, automationId: string) {
  const res = await c.call('GET', `/automations/${automationId}/runs`);
  expect(res.status).toBe(200);
  return res.body.runs as Array<Record<string, any>>;
}

/** Waits until the automation has `count` runs, none of them still running; answers them, newest first. */
async function finishedRuns(c: Client, automationId: string, count = 1) {
  let runs: Array<Record<string, any>> = [];
  await until(async () => {
    runs = await runsOf(c, automationId);
    return runs.length >= count && runs.every((r) => r.status !== 'running');
  }, WAIT_MS, `${count} finished runs`);
  return runs;
}

async function task(c: Client, body: Record<string, unknown>) {
  const res = await c.call('POST', '/tasks', body);
  expect(res.status).toBe(201);
  return res.body.task as { id: string; title: string };
}

const complete = async (c: Client, taskId: string) => expect((await c.call('PATCH', `/tasks/${taskId}`, { status: 'done' })).status).toBe(200);
/** Reads once the read models hold everything appended so far (what the runner wrote included). */
const caughtUp = async (c: Client, path: string) =>
  c.call('GET', path, undefined, { 'X-Calendar-Min-Position': String(await svc.service.context.events.headPosition()) });
const notifications = async (c: Client) => (await caughtUp(c, '/notifications')).body.notifications as Array<Record<string, any>>;
const tasks = async (c: Client) => (await caughtUp(c, '/tasks')).body.tasks as Array<Record<string, any>>;

it('a completed task notifies its owner and calls a webhook signed with the automation\'s secret; the run records each step', async () => {
  const owner = await signUp(svc.base);
  const path = route();
  const { id, secret } = await automate(owner, {
    trigger: { type: 'task.completed' },
    actions: [
      { kind: 'send_notification', config: { title: 'Done: {{data.title}}', body: 'Status {{data.status}}' } },
      { kind: 'call_webhook', config: { url: receiver.url(path) } },
    ],
  });
  const t = await task(owner, { title: 'Write the report' });
  await complete(owner, t.id);

  await until(() => receiver.received(path).length >= 1, WAIT_MS, 'the webhook call');
  const [call] = receiver.received(path);
  expect(verifyWebhookSignature({
    secret, timestamp: call.headers['x-calendar-timestamp'], signature: call.headers['x-calendar-signature'], body: call.body,
  })).toBe(true);
  expect(call.headers['x-calendar-event']).toBe('task.completed');
  expect(call.json).toMatchObject({ type: 'task.completed', data: { id: t.id, title: 'Write the report', status: 'done' }, automation: { id, name: 'test', step: 1 } });

  const [run] = await finishedRuns(owner, id);
  expect(run).toMatchObject({
    automationId: id, status: 'succeeded', triggerEvent: { id: call.json.id, type: 'task.completed', data: { id: t.id } },
    steps: [
      { index: 0, kind: 'send_notification', status: 'succeeded', error: null, output: { notificationId: expect.any(String) } },
      { index: 1, kind: 'call_webhook', status: 'succeeded', error: null, output: { deliveryId: call.headers['x-calendar-delivery'], status: 200 } },
    ],
  });
  expect(run.steps[1].attempts).toEqual([expect.objectContaining({ status: 200, error: null })]);
  expect(typeof run.finishedAt).toBe('string');

  const [note] = await notifications(owner);
  expect(note).toMatchObject({
    id: run.steps[0].output.notificationId, kind: 'message', title: 'Done: Write the report', body: 'Status done',
    source: { type: 'automation', id },
  });
  const [summary] = (await owner.call('GET', '/automations')).body.automations;
  expect(summary).toMatchObject({ id, runCount: 1, lastRunStatus: 'succeeded', lastRunAt: run.startedAt });
});

it('creates tasks and events as the owner, timed from the trigger', async () => {
  const owner = await signUp(svc.base);
  const { id } = await automate(owner, {
    trigger: { type: 'task.completed' },
    actions: [
      { kind: 'create_task', config: { title: 'Follow up on {{data.title}}', dueInDays: 2 } },
      { kind: 'create_event', config: { title: 'Review {{data.title}}', startsInMinutes: 60, durationMinutes: 30 } },
    ],
  });
  const t = await task(owner, { title: 'Launch' });
  await complete(owner, t.id);
  const [run] = await finishedRuns(owner, id);
  expect(run.status).toBe('succeeded');
  const triggeredAt = Date.parse(run.triggerEvent.createdAt);

  const made = (await tasks(owner)).find((x) => x.id === run.steps[0].output.taskId);
  expect(made).toMatchObject({ title: 'Follow up on Launch', createdBy: owner.userId, status: 'open', dueAt: new Date(triggeredAt + 2 * 86_400_000).toISOString() });
  const event = await caughtUp(owner, `/events/${run.steps[1].output.eventId}`);
  expect(event.status).toBe(200);
  expect(event.body.event).toMatchObject({
    title: 'Review Launch', createdBy: owner.userId, startsAt: new Date(triggeredAt + 3_600_000).toISOString(),
    endsAt: new Date(triggeredAt + 5_400_000).toISOString(),
  });
});

it('runs only when every filter matches the payload', async () => {
  const owner = await signUp(svc.base);
  const project = (await owner.call('POST', '/projects', { name: 'Launch' })).body.project.id as string;
  const { id } = await automate(owner, {
    trigger: { type: 'task.completed', filters: { 'data.projectId': project, 'data.priority': 'high' } },
    actions: [{ kind: 'send_notification', config: { title: 'High priority {{data.title}} done' } }],
  });
  const outside = await task(owner, { title: 'Outside', priority: 'high' });
  const low = await task(owner, { title: 'Low', projectId: project, priority: 'low' });
  const inside = await task(owner, { title: 'Inside', projectId: project, priority: 'high' });
  for (const t of [outside, low, inside]) await complete(owner, t.id); // one stream: the runner sees them in order

  const runs = await finishedRuns(owner, id);
  await sleep(300);
  expect((await runsOf(owner, id)).map((r) => r.triggerEvent.data.id)).toEqual([inside.id]);
  expect(runs[0].status).toBe('succeeded');
  expect((await notifications(owner)).map((n) => n.title)).toEqual(['High priority Inside done']);
});

it('a failing step stops the chain: retried like a webhook, recorded, and the later steps never run', async () => {
  const owner = await signUp(svc.base);
  const path = route();
  receiver.on(path, () => 500);
  const { id } = await automate(owner, {
    trigger: { type: 'task.completed' },
    actions: [
      { kind: 'send_notification', config: { title: 'First' } },
      { kind: 'call_webhook', config: { url: receiver.url(path) } },
      { kind: 'create_task', config: { title: 'Never' } },
    ],
  });
  const t = await task(owner, { title: 'Trigger' });
  await complete(owner, t.id);

  const [run] = await finishedRuns(owner, id);
  expect(run.status).toBe('failed');
  expect(run.steps.map((s: { status: string }) => s.status)).toEqual(['succeeded', 'failed', 'skipped']);
  expect(run.steps[1].error).toEqual({ code: 'webhook_failed', message: expect.stringMatching(/6 attempts/) });
  expect(run.steps[1].attempts).toHaveLength(6); // the first and five retries (WEBHOOK_RETRY_DELAYS_MS)
  const calls = receiver.received(path);
  expect(calls).toHaveLength(6);
  expect(new Set(calls.map((c) => c.headers['x-calendar-delivery'])).size).toBe(1);
  expect(run.steps[2]).toMatchObject({ status: 'skipped', output: null, finishedAt: null });
  expect((await tasks(owner)).map((x) => x.title)).toEqual(['Trigger']);
  expect((await owner.call('GET', '/automations')).body.automations[0]).toMatchObject({ runCount: 1, lastRunStatus: 'failed' });
});

it('a refusal of the domain fails its step with the domain\'s code: an event that would overlap a busy one', async () => {
  const owner = await signUp(svc.base);
  const now = Date.now();
  const busy = await owner.call('POST', '/events', {
    title: 'Busy all day', startsAt: new Date(now - 3_600_000).toISOString(), endsAt: new Date(now + 86_400_000).toISOString(),
  });
  expect(busy.status).toBe(201);
  const { id } = await automate(owner, {
    trigger: { type: 'task.completed' },
    actions: [
      { kind: 'create_event', config: { title: 'Clashes', startsInMinutes: 60, durationMinutes: 30 } },
      { kind: 'send_notification', config: { title: 'Never sent' } },
    ],
  });
  await complete(owner, (await task(owner, { title: 'Go' })).id);
  const [run] = await finishedRuns(owner, id);
  expect(run).toMatchObject({ status: 'failed', steps: [{ status: 'failed', error: { code: 'time_conflict' } }, { status: 'skipped' }] });
  expect(await notifications(owner)).toEqual([]);
});

describe('isolation', () => {
  it('another user\'s events never trigger my automation, and my actions touch only my data', async () => {
    const me = await signUp(svc.base);
    const stranger = await signUp(svc.base);
    const mine = await automate(me, {
      trigger: { type: 'task.completed' },
      actions: [{ kind: 'create_task', config: { title: 'Mine: {{data.title}}' } }, { kind: 'send_notification', config: { title: 'Mine' } }],
    });
    const theirs = await automate(stranger, { trigger: { type: 'task.completed' }, actions: [{ kind: 'send_notification', config: { title: 'Theirs' } }] });
    await complete(stranger, (await task(stranger, { title: 'Stranger work' })).id);
    await finishedRuns(stranger, theirs.id); // the runner has handled the stranger's event
    expect(await runsOf(me, mine.id)).toEqual([]);

    await complete(me, (await task(me, { title: 'My work' })).id);
    await finishedRuns(me, mine.id);
    expect((await tasks(me)).map((t) => t.title).sort()).toEqual(['Mine: My work', 'My work']);
    expect((await tasks(stranger)).map((t) => t.title)).toEqual(['Stranger work']);
    expect((await notifications(stranger)).map((n) => n.title)).toEqual(['Theirs']);
    expect((await notifications(me)).map((n) => n.title)).toEqual(['Mine']);
    expect((await runsOf(stranger, theirs.id))).toHaveLength(1);
  });

  it('a task someone else completes for me triggers my automation (I am its audience), not theirs', async () => {
    const owner = await signUp(svc.base);
    const helper = await teammateOf(svc, owner);
    const ownerAuto = await automate(owner, { trigger: { type: 'task.completed' }, actions: [{ kind: 'create_task', config: { title: 'Thank {{data.assigneeId}}' } }] });
    const helperAuto = await automate(helper, { trigger: { type: 'task.completed' }, actions: [{ kind: 'create_task', config: { title: 'Helper copy' } }] });
    const t = await task(owner, { title: 'Shared', assigneeId: helper.userId });
    await complete(helper, t.id);
    const [run] = await finishedRuns(owner, ownerAuto.id);
    expect(run.status).toBe('succeeded');
    expect(await runsOf(helper, helperAuto.id)).toEqual([]);
    expect((await tasks(owner)).map((x) => x.title).sort()).toEqual(['Shared', `Thank ${helper.userId}`]);
    expect((await tasks(helper)).map((x) => x.title)).toEqual(['Shared']); // only the task assigned to them
  });
});

it('acts only on events after it was switched on, and what automations do never triggers automations', async () => {
  const owner = await signUp(svc.base);
  const before = await task(owner, { title: 'Before' });
  const { id } = await automate(owner, {
    trigger: { type: 'task.created' },
    actions: [{ kind: 'create_task', config: { title: 'Made by the automation' } }],
  });
  await complete(owner, before.id); // not a task.created
  expect((await owner.call('PATCH', `/automations/${id}`, { isActive: false })).status).toBe(200);
  await task(owner, { title: 'While off' });
  expect((await owner.call('PATCH', `/automations/${id}`, { isActive: true })).status).toBe(200);
  const after = await task(owner, { title: 'After' });

  const runs = await finishedRuns(owner, id);
  await sleep(500); // the task the run made must not start another run
  expect((await runsOf(owner, id)).map((r) => r.triggerEvent.data.id)).toEqual([after.id]);
  expect(runs[0].status).toBe('succeeded');
  expect((await tasks(owner)).map((t) => t.title).sort()).toEqual(['After', 'Before', 'Made by the automation', 'While off']);
});

it('deleting an automation takes its runs along; it runs no more', async () => {
  const owner = await signUp(svc.base);
  const keep = await automate(owner, { trigger: { type: 'task.completed' }, actions: [{ kind: 'send_notification', config: { title: 'kept' } }] });
  const gone = await automate(owner, { trigger: { type: 'task.completed' }, actions: [{ kind: 'send_notification', config: { title: 'gone' } }] });
  await complete(owner, (await task(owner, { title: 'one' })).id);
  await finishedRuns(owner, gone.id);
  expect((await owner.call('DELETE', `/automations/${gone.id}`)).status).toBe(204);
  await complete(owner, (await task(owner, { title: 'two' })).id);
  await finishedRuns(owner, keep.id, 2);
  expect((await notifications(owner)).map((n) => n.title).sort()).toEqual(['gone', 'kept', 'kept']);
});
