/**
 * Each action step is idempotent: run twice for the same (automation, trigger event, step) - as after a crash
 * between a step's work and its record - it makes one task, one event and one notification, and answers the same
 * output both times. A webhook call made twice carries the same delivery id and the same bytes. A run is created
 * once, claimed by one worker at a time, and a worker that lost its lease records nothing.
 */
import { runStep, type StepServices } from '../../services/automations/actions';
import { newRun, RunStore } from '../../services/automations/run-store';
import { newId } from '../../services/ids';
import { RECEIVING_ENV, startReceiver, type Receiver } from '../support/receiver';
import { signUp, startTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
let receiver: Receiver;
let owner: Client;

beforeAll(async () => {
  [svc, receiver] = await Promise.all([startTestService(RECEIVING_ENV), startReceiver()]);
  owner = await signUp(svc.base);
});
afterAll(async () => {
  await svc.stop();
  await receiver.close();
});

const trigger = () => ({
  id: newId(), type: 'task.completed', createdAt: new Date(Date.now() + 86_400_000).toISOString(), data: { id: newId(), title: 'Quarterly report' },
});

function run(actions: Array<{ kind: string; config: Record<string, unknown> }>) {
  return newRun({ id: newId(), ownerId: owner.userId, name: 'twice', actions }, trigger(), 1);
}

const notify = () => ({ kind: 'send_notification', config: { title: 'Once' } });
/** Reads once the read models hold everything appended so far. */
const caughtUp = async (path: string) =>
  owner.call('GET', path, undefined, { 'X-Calendar-Min-Position': String(await svc.service.context.events.headPosition()) });
const services = (): StepServices => ({ app: svc.service.context, secretOf: async () => 'whsec_test-secret' });

async function twice(doc: ReturnType<typeof run>, index = 0) {
  const first = await runStep(services(), { run: doc, index });
  const second = await runStep(services(), { run: doc, index });
  expect(first.status).toBe('succeeded');
  expect(second.status).toBe('succeeded');
  const output = (first as Extract<typeof first, { status: 'succeeded' }>).output;
  expect((second as typeof first & { output: unknown }).output).toEqual(output);
  return output;
}

it('create_task makes one task', async () => {
  const doc = run([{ kind: 'create_task', config: { title: 'Follow up: {{data.title}}', dueInDays: 1 } }]);
  const output = await twice(doc);
  const tasks = (await caughtUp('/tasks')).body.tasks as Array<{ id: string; title: string }>;
  expect(tasks.filter((t) => t.title === 'Follow up: Quarterly report').map((t) => t.id)).toEqual([output.taskId]);
});

it('create_event makes one event', async () => {
  const doc = run([{ kind: 'create_event', config: { title: 'Review', startsInMinutes: 30, durationMinutes: 15 } }]);
  const output = await twice(doc);
  const from = new Date(Date.now()).toISOString();
  const to = new Date(Date.now() + 3 * 86_400_000).toISOString();
  const events = (await caughtUp(`/events?from=${from}&to=${to}`)).body.events as Array<{ id: string; title: string }>;
  expect(events.filter((e) => e.title === 'Review').map((e) => e.id)).toEqual([output.eventId]);
});

it('send_notification notifies once', async () => {
  const doc = run([{ kind: 'send_notification', config: { title: 'Only once' } }]);
  await twice(doc);
  const notes = (await caughtUp('/notifications')).body.notifications as Array<{ title: string }>;
  expect(notes.filter((n) => n.title === 'Only once')).toHaveLength(1);
});

it('call_webhook made again sends the same delivery id and bytes', async () => {
  const doc = run([{ kind: 'call_webhook', config: { url: receiver.url('/twice') } }]);
  await twice(doc);
  const [a, b] = receiver.received('/twice');
  expect(b.headers['x-calendar-delivery']).toBe(a.headers['x-calendar-delivery']);
  expect(b.body).toBe(a.body);
});

it('creates a run once and lets only the holder of its current lease record', async () => {
  const runs = new RunStore(svc.service.context.store);
  // Due in an hour: the service's own run worker must not claim it between these steps.
  const doc = { ...run([notify()]), dueMs: Date.now() + 3_600_000 };
  expect(await runs.runs.insertNew(doc)).toBe(true);
  expect(await runs.runs.insertNew({ ...doc, startedAt: 'again' })).toBe(false);

  const a = await runs.claim(doc, 60_000);
  expect(a).not.toBeNull();
  expect(await runs.claim(doc, 60_000)).toBeNull(); // read before A's claim: the compare-and-set fails
  const b = await runs.claim((await runs.runs.get(doc._id))!, 60_000); // A's lease taken over (as once it ran out)
  expect(b!.lease).not.toBe(a!.lease);

  expect(await runs.update(doc._id, a!.lease!, () => ({ status: 'failed' }))).toBeNull();
  const kept = await runs.update(doc._id, b!.lease!, () => ({ status: 'succeeded', lease: null }));
  expect(kept).toMatchObject({ status: 'succeeded', _pos: b!._pos + 1 });
  expect(await runs.runs.get(doc._id)).toMatchObject({ status: 'succeeded', startedAt: doc.startedAt });
});
