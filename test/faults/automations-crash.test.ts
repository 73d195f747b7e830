/**
 * The automations runner killed mid-chain (SIGKILL of the whole service, a child process on the built dist) and
 * started again on the same data: every run finishes, and every step is done exactly once. A webhook call that was
 * in flight when the process died is made again with the same X-Calendar-Delivery (receivers dedupe on it). A
 * runner stopped gracefully hands its runs back instead of leaving them leased.
 */
import { killed, restartableService, useFaultSuite } from '../support/service-child';
import { until } from '../support/receiver';
import { untilSettled } from '../support/settled';

jest.setTimeout(600_000); // the waits below fail when runs stop moving (see untilSettled), not when a machine is slow

/** Short bounds, so a dead worker's lease (the longest of them + 5 s) runs out soon. */
const ENV = {
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_TIMEOUT_MS: '1000', MIN_POSITION_WAIT_MS: '1000', WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50,50',
};
const TRIGGERS = 30;

const suite = useFaultSuite();

const service = (env: Record<string, string> = {}) => restartableService(suite, 'automations-kill', { ...ENV, ...env });

type Call = Awaited<ReturnType<typeof service>>['call'];

async function automate(call: Call, actions: unknown[]): Promise<string> {
  const res = await call('POST', '/automations', { name: 'crash', enabled: true, trigger: { type: 'task.completed' }, actions });
  expect(res.status).toBe(201);
  return res.body.automation.id;
}

async function completeTask(call: Call, title: string): Promise<string> {
  const created = await call('POST', '/tasks', { title });
  expect(created.status).toBe(201);
  expect((await call('PATCH', `/tasks/${created.body.task.id}`, { status: 'done' })).status).toBe(200);
  return created.body.task.id;
}

async function allRuns(call: Call, automationId: string) {
  const res = await call('GET', `/automations/${automationId}/runs?limit=500`);
  expect(res.status).toBe(200);
  return res.body.runs as Array<{ status: string; steps: Array<{ status: string; attempts: unknown[] }>; triggerEvent: { data: { title: string } } }>;
}

/** Until `count` runs exist and none is running; fails once their steps stopped moving for STALL_MS. */
async function untilFinished(call: Call, automationId: string, count: number) {
  await untilSettled(`${count} finished runs`, async () => {
    const runs = await allRuns(call, automationId);
    const progress = runs.map((r) => [r.status, ...r.steps.map((s) => s.status)].join(' '));
    return { done: runs.length === count && runs.every((r) => r.status !== 'running'), progress };
  });
  return allRuns(call, automationId);
}

let renames = 0;
/**
 * Titles of the owner's tasks or notifications, read after everything appended so far is in the read models: a
 * write answers once its projections hold it, and with it every event before it in the log.
 */
async function titles(call: Call, what: 'tasks' | 'notifications'): Promise<string[]> {
  const write = await call('PATCH', '/me', { name: `K ${++renames}` });
  expect(write.status).toBe(200);
  const read = await call('GET', `/${what}?limit=500`);
  return (read.body[what] as Array<{ title: string }>).map((x) => x.title);
}

const count = (items: string[], item: string) => items.filter((x) => x === item).length;

it('resumes a run killed while its webhook call was in flight at that call: no step before it runs again, none after it is lost', async () => {
  const svc = await service();
  const hook = '/crash-in-flight';
  let answer = false;
  suite.receiver.on(hook, () => (answer ? 200 : () => undefined)); // the first call hangs until the process dies
  const id = await automate(svc.call, [
    { kind: 'send_notification', config: { title: 'Before the call' } },
    { kind: 'call_webhook', config: { url: suite.receiver.url(hook) } },
    { kind: 'create_task', config: { title: 'After the call' } },
  ]);
  await completeTask(svc.call, 'Trigger');
  await until(() => suite.receiver.received(hook).length === 1, 30_000, 'the call in flight');
  await killed(svc.child);
  answer = true;

  await svc.start();
  const [run] = await untilFinished(svc.call, id, 1);
  expect(run.status).toBe('succeeded');
  expect(run.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded', 'succeeded']);
  expect(run.steps[1].attempts).toHaveLength(1); // the interrupted attempt was never recorded
  expect(count(await titles(svc.call, 'notifications'), 'Before the call')).toBe(1);
  expect(count(await titles(svc.call, 'tasks'), 'After the call')).toBe(1);
  const calls = suite.receiver.received(hook);
  expect(calls).toHaveLength(2);
  expect(calls[1].headers['x-calendar-delivery']).toBe(calls[0].headers['x-calendar-delivery']);
  expect(calls[1].body).toBe(calls[0].body);
});

it(`kills the service while ${TRIGGERS} chains run: after the restart each trigger made one notification, one task and one call`, async () => {
  const svc = await service();
  const hook = '/crash-burst';
  const slow = (res: import('node:http').ServerResponse) => void setTimeout(() => res.writeHead(200).end('ok'), 300);
  suite.receiver.on(hook, () => slow);
  const id = await automate(svc.call, [
    { kind: 'send_notification', config: { title: 'N {{data.title}}' } },
    { kind: 'create_task', config: { title: 'T {{data.title}}' } },
    { kind: 'call_webhook', config: { url: suite.receiver.url(hook) } },
  ]);
  const triggers = Array.from({ length: TRIGGERS }, (_, i) => `job ${i}`);
  await Promise.all(triggers.map((title) => completeTask(svc.call, title)));
  await until(() => suite.receiver.received(hook).length >= 1, 30_000, 'chains under way');
  // Chains are mid-way when the process dies. (Checked before the kill: after the restart their leases may already
  // have run out, on a slow start, and the new process finished them.)
  expect((await allRuns(svc.call, id)).filter((r) => r.status === 'running').length).toBeGreaterThan(0);
  await killed(svc.child);

  await svc.start();
  const runs = await untilFinished(svc.call, id, TRIGGERS);
  expect(runs.filter((r) => r.status === 'succeeded')).toHaveLength(TRIGGERS);
  const notes = await titles(svc.call, 'notifications');
  const tasks = await titles(svc.call, 'tasks');
  for (const title of triggers) {
    expect({ title, notifications: count(notes, `N ${title}`), tasks: count(tasks, `T ${title}`) }).toEqual({ title, notifications: 1, tasks: 1 });
  }
  expect(notes).toHaveLength(TRIGGERS);
  expect(tasks).toHaveLength(2 * TRIGGERS);
  const deliveries = new Set(suite.receiver.received(hook).map((r) => r.headers['x-calendar-delivery']));
  expect(deliveries.size).toBe(TRIGGERS);
});

it('a runner stopped with SIGTERM hands its runs back between steps: the next process carries on without waiting for a lease', async () => {
  // A lease far longer than the wait below: only a run handed back can finish within it.
  const svc = await service({ WEBHOOK_TIMEOUT_MS: '60000' });
  const hook = '/graceful';
  const slow = (res: import('node:http').ServerResponse) => void setTimeout(() => res.writeHead(200).end('ok'), 500);
  suite.receiver.on(hook, () => slow);
  const id = await automate(svc.call, [
    { kind: 'call_webhook', config: { url: suite.receiver.url(hook) } },
    { kind: 'send_notification', config: { title: 'After a graceful stop' } },
  ]);
  await completeTask(svc.call, 'Trigger');
  await until(() => suite.receiver.received(hook).length === 1, 30_000, 'the call in flight');
  const exited = new Promise((resolve) => svc.child.once('exit', resolve));
  svc.child.kill('SIGTERM');
  await exited;

  await svc.start();
  const [run] = await untilFinished(svc.call, id, 1);
  expect(run.steps.map((s) => s.status)).toEqual(['succeeded', 'succeeded']);
  expect(suite.receiver.received(hook)).toHaveLength(1);
  expect(count(await titles(svc.call, 'notifications'), 'After a graceful stop')).toBe(1);
});
