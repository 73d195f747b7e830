/**
 * The CLI's `users erase <id>`, run as the built program on the stores a test service wrote through its API and
 * then left (stopped): it asks first (no answer, or "no", erases nothing), then destroys the key and the read models
 * drop the user's rows before it returns; the export shows the user's events without their data; the service,
 * started again, answers without them, while another user keeps everything. Unknown and malformed ids fail.
 */
import { randomUUID } from 'node:crypto';
import { ReadModels } from '../../projections/read-models';
import { Watermarks } from '../../projections/watermarks';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { openReadStore } from '../../services/composition';
import { loadConfig } from '../../services/config';
import { ndjson, runCli, storesEnv, type CliRun } from '../support/cli';
import { type Client, ok, request, signUp, startTestService, type TestService } from '../support/service';

const SECRET = `Ada's dentist appointment ${randomUUID()}`;
const START = '2031-06-02T09:00:00Z';
const END = '2031-06-02T10:00:00Z';

let dataDir = '';
let env: Record<string, string> = {};
let ada: Client;
let bob: Client;
let cai: Client;
const ids = { adaEvent: '', adaTask: '', adaRoutine: '', bobEvent: '' };

async function settled(svc: TestService): Promise<void> {
  const head = await svc.service.ports.events.headPosition();
  expect(await svc.service.context.watermarks.waitFor(svc.service.context.projectionNames, head, 10_000)).toBe(true);
}

beforeAll(async () => {
  const svc = await startTestService();
  try {
    dataDir = svc.dataDir;
    [ada, bob, cai] = await Promise.all([signUp(svc.base, { name: 'Ada Lovelace' }), signUp(svc.base), signUp(svc.base)]);
    ids.adaEvent = (await ok(ada, 'POST', '/events', { title: SECRET, startsAt: START, endsAt: END, attendees: [{ email: bob.email }] })).event.id;
    ids.adaTask = (await ok(ada, 'POST', '/tasks', { title: SECRET, notes: 'private notes' })).task.id;
    ids.adaRoutine = (await ok(ada, 'POST', '/routines', { name: SECRET, days: [1], periods: [{ name: 'Early', startMinute: 420, endMinute: 480, items: [] }] })).routine.id;
    ids.bobEvent = (await ok(bob, 'POST', '/events', { title: 'Bob keeps this', startsAt: START, endsAt: END })).event.id;
    await ok(cai, 'POST', '/tasks', { title: 'Cai was here' });
    expect((await ok(bob, 'GET', '/inbox')).items.map((i: { event: { id: string } }) => i.event.id)).toContain(ids.adaEvent);
    await settled(svc);
    env = storesEnv(svc.service.context.config);
  } finally {
    await svc.stop();
  }
}, 60_000);

const erase = (args: string[], input?: string) => runCli(['users', 'erase', ...args], env, input);

async function exported(): Promise<RecordedEvent[]> {
  const res = await runCli(['events', 'export'], env);
  expect(res.code).toBe(0);
  return ndjson(res.stdout);
}

/** An item's document in a projection's active storage, read straight from the read-model store. */
async function readModelDoc(projection: string, collection: string, id: string) {
  const store = await openReadStore(loadConfig({ ...process.env, ...env }));
  try {
    return await (await new ReadModels(store, new Watermarks(store, false)).docs(projection))(collection).get(id);
  } finally {
    await store.close();
  }
}

function failed(res: CliRun, code: number, message: RegExp): void {
  expect({ code: res.code, stdout: res.stdout }).toEqual({ code, stdout: '' });
  expect(res.stderr.trimEnd().split('\n').pop()).toMatch(message);
}

describe('users erase', () => {
  it('refuses malformed and unknown ids, and erases nothing unless confirmed', async () => {
    failed(await erase(['ada', '--yes']), 2, /argument 'id'.*Expected a user id/);
    failed(await erase([randomUUID(), '--yes']), 1, /no user .* in the read store/);
    failed(await erase([]), 2, /missing required argument 'id'/);

    const unanswered = await erase([ada.userId]);
    expect(unanswered.stderr).toMatch(/^Erase user .*Type "yes" to erase: \nerror: not confirmed: user .* was not erased\n$/);
    expect(unanswered.code).toBe(1);
    failed(await erase([ada.userId], 'no\n'), 1, /not confirmed/);
    expect(JSON.stringify(await exported())).toContain(SECRET);
    expect(await readModelDoc('schedule', 'events', ids.adaEvent)).toMatchObject({ title: SECRET });
  });

  it('destroys the key and drops the read-model rows; the export keeps the events without the data; the other users keep theirs', async () => {
    const res = await erase([ada.userId], 'yes\n');
    expect(res.code).toBe(0);
    const [done, applied] = res.stdout.trimEnd().split('\n');
    expect(done).toMatch(new RegExp(`^erased user ${ada.userId} at \\S+: key destroyed, .*user.erased at log position \\d+$`));
    expect(applied).toBe('read models: every projection applied it and dropped the rows');

    // The read models dropped Ada's rows before the command returned; Bob's stay.
    expect(await readModelDoc('schedule', 'events', ids.adaEvent)).toBeNull();
    expect(await readModelDoc('routines', 'routines', ids.adaRoutine)).toBeNull();
    expect(await readModelDoc('accounts', 'users', ada.userId)).toBeNull();
    expect(await readModelDoc('schedule', 'events', ids.bobEvent)).toMatchObject({ title: 'Bob keeps this' });

    // Every event is still in the log; Ada's read as redacted, without her data; the others' are whole.
    const log = await exported();
    expect(JSON.stringify(log)).not.toContain(SECRET);
    expect(JSON.stringify(log)).not.toContain(ada.email);
    const adas = log.filter((e) => e.metadata.userId === ada.userId);
    expect(adas.length).toBeGreaterThan(3);
    for (const e of adas) expect(e).toMatchObject({ data: null, redacted: 'erased' });
    expect(log.find((e) => e.type === 'user.erased')).toMatchObject({ data: { userId: ada.userId } });
    expect(log.find((e) => e.type === 'event.created' && e.metadata.userId === bob.userId)).toMatchObject({ data: { title: 'Bob keeps this' } });
    expect(log.find((e) => e.type === 'task.created' && e.metadata.userId === cai.userId)).toMatchObject({ data: { title: 'Cai was here' } });

    // Erasing again finishes nothing new and says the same; --json does not ask.
    const again = await erase([ada.userId, '--json']);
    expect(again.code).toBe(0);
    expect(JSON.parse(again.stdout)).toMatchObject({ userId: ada.userId, erasedAt: done.split(' ')[4].replace(/:$/, ''), applied: true });

    // The service, started again on the same stores, answers without Ada's rows; Bob and Cai keep theirs.
    const svc = await startTestService({ DATA_DIR: dataDir });
    try {
      const base = svc.base;
      const as = (c: Client) => (method: string, path: string) => request(base, method, path, undefined, { authorization: `Bearer ${c.token}` });
      expect((await as(ada)('GET', '/tasks')).status).toBe(401);
      expect((await request(base, 'POST', '/auth/login', { email: ada.email, password: 'correct horse' })).status).toBe(401);
      expect((await as(bob)('GET', `/events/${ids.adaEvent}`)).status).toBe(404);
      expect((await as(bob)('GET', '/inbox')).body.items).toEqual([]);
      expect((await as(bob)('GET', `/events/${ids.bobEvent}`)).body.event.title).toBe('Bob keeps this');
      expect((await as(cai)('GET', '/tasks')).body.tasks.map((t: { title: string }) => t.title)).toEqual(['Cai was here']);
    } finally {
      await svc.stop();
    }
  });

  it('asks the running service with --service: the same erasure, answered once its projections applied it', async () => {
    const ADMIN_TOKEN = 'cli-users-admin-token';
    const svc = await startTestService({ ADMIN_TOKEN });
    try {
      const dan = await signUp(svc.base);
      await ok(dan, 'POST', '/tasks', { title: SECRET });
      const adminEnv = { ADMIN_TOKEN, ADMIN_URL: svc.base.replace('/api/v1', '') };
      failed(await runCli(['users', 'erase', dan.userId, '--service', '--yes'], { ...adminEnv, ADMIN_TOKEN: 'a-wrong-admin-token-here' }), 1, /refused ADMIN_TOKEN/);
      failed(await runCli(['users', 'erase', randomUUID(), '--service', '--yes'], adminEnv), 1, /User not found/);

      const res = await runCli(['users', 'erase', dan.userId, '--service', '--json'], adminEnv);
      expect(res.code).toBe(0);
      expect(JSON.parse(res.stdout)).toMatchObject({ userId: dan.userId, erasedAt: expect.any(String), position: expect.any(Number), applied: true });
      expect((await dan.call('GET', '/tasks')).status).toBe(401);
      expect(await svc.service.context.readModels.docs('tasks').then((docs) => docs('tasks').find({ _viewerId: dan.userId, createdBy: dan.userId }))).toEqual([]);
    } finally {
      await svc.stop();
    }
  });
});
