/**
 * The CLI's `state --as-of <instant> <what>`, run as the built program on the stores a test service wrote through
 * its API and then left (stopped): a user's events, tasks and routines, one item, and an aggregate's stream, each as
 * it was before and after a change, in the readable form and as JSON; another user's reads stay theirs; bad input is
 * exit 2 (exit 1 without a log) with one line on stderr.
 */
import { randomUUID } from 'node:crypto';
import { runCli, storesEnv, type CliRun } from '../support/cli';
import { type Client, instantBetweenWrites, ok, signUp, startTestService } from '../support/service';

// Each test runs the built CLI several times, a process start each: seconds apiece on a loaded machine.
jest.setTimeout(120_000);

const FROM = '2031-08-01T00:00:00Z';
const TO = '2031-08-08T00:00:00Z';

let env: Record<string, string> = {};
let ada: Client;
let bob: Client;
const at: Record<'beforeAll' | 'draft' | 'final' | 'taskRenamed' | 'routineMade', string> = {} as never;
let eventId = '';
let spaceId = '';
let taskId = '';

beforeAll(async () => {
  const svc = await startTestService();
  try {
    [ada, bob] = await Promise.all([signUp(svc.base), signUp(svc.base)]);
    at.beforeAll = await instantBetweenWrites();
    const event = (await ok(ada, 'POST', '/events', { title: 'Draft', startsAt: '2031-08-04T09:00:00Z', endsAt: '2031-08-04T10:00:00Z' })).event;
    [eventId, spaceId] = [event.id, event.spaceId];
    const task = (await ok(ada, 'POST', '/tasks', { title: 'Write report' })).task;
    taskId = task.id;
    await ok(bob, 'POST', '/events', { title: 'Bob only', startsAt: '2031-08-05T09:00:00Z', endsAt: '2031-08-05T10:00:00Z' });
    at.draft = await instantBetweenWrites();
    await ok(ada, 'PATCH', `/events/${event.id}`, { title: 'Final' });
    at.final = await instantBetweenWrites();
    await ok(ada, 'PATCH', `/tasks/${task.id}`, { title: 'Send report' });
    at.taskRenamed = await instantBetweenWrites();
    await ok(ada, 'POST', '/routines', { name: 'Mornings', days: [1, 2, 3], periods: [{ name: 'Early', startMinute: 420, endMinute: 480, items: [] }] });
    at.routineMade = await instantBetweenWrites();
    const head = await svc.service.ports.events.headPosition();
    expect(await svc.service.context.watermarks.waitFor(svc.service.context.projectionNames, head, 10_000)).toBe(true);
    env = storesEnv(svc.service.context.config);
  } finally {
    await svc.stop();
  }
}, 60_000);

const state = (args: string[]) => runCli(['state', ...args], env);

async function json(args: string[]) {
  const res = await state([...args, '--json']);
  expect({ code: res.code, stderr: res.stderr }).toEqual({ code: 0, stderr: '' });
  return JSON.parse(res.stdout);
}

const eventTitles = async (user: Client, asOf: string) =>
  (await json(['--as-of', asOf, 'events', '--user', user.userId, '--from', FROM, '--to', TO])).events.map((e: { title: string }) => e.title);

/** A usage failure: its exit code and exactly one line on stderr, matching `message`. */
function refused(res: CliRun, code: number, message: RegExp): void {
  expect({ code: res.code, stdout: res.stdout }).toEqual({ code, stdout: '' });
  expect(res.stderr.trimEnd().split('\n')).toHaveLength(1);
  expect(res.stderr).toMatch(message);
}

describe('state --as-of', () => {
  it('gives a user\'s events before and after a rename, in the API\'s shape, and never another user\'s', async () => {
    expect(await eventTitles(ada, at.beforeAll)).toEqual([]);
    expect(await eventTitles(ada, at.draft)).toEqual(['Draft']);
    expect(await eventTitles(ada, at.final)).toEqual(['Final']);
    expect(await eventTitles(bob, at.final)).toEqual(['Bob only']);

    const page = await json(['--as-of', at.draft, 'events', '--user', ada.userId, '--from', FROM, '--to', TO]);
    expect(page).toMatchObject({ what: 'events', userId: ada.userId, asOf: at.draft, nextPageToken: null });
    expect(page.events[0]).toMatchObject({ id: eventId, spaceId, title: 'Draft', startsAt: '2031-08-04T09:00:00.000Z' });

    const readable = await state(['--as-of', at.draft, 'events', '--user', ada.userId, '--from', FROM, '--to', TO]);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toContain(`events of user ${ada.userId} as of ${at.draft}: 1`);
    expect(readable.stdout).toMatch(/STARTS\s+ENDS\s+TITLE\s+ID/);
    expect(readable.stdout).toMatch(new RegExp(`Draft\\s+${eventId}`));
  });

  it('gives tasks and routines before and after a change', async () => {
    const tasks = async (asOf: string) => (await json(['--as-of', asOf, 'tasks', '--user', ada.userId])).tasks.map((t: { title: string }) => t.title);
    expect(await tasks(at.beforeAll)).toEqual([]);
    expect(await tasks(at.final)).toEqual(['Write report']);
    expect(await tasks(at.taskRenamed)).toEqual(['Send report']);
    expect((await json(['--as-of', at.taskRenamed, 'tasks', '--user', bob.userId])).tasks).toEqual([]);

    const routines = async (asOf: string) => (await json(['--as-of', asOf, 'routines', '--user', ada.userId])).routines.map((r: { name: string }) => r.name);
    expect(await routines(at.taskRenamed)).toEqual([]);
    expect(await routines(at.routineMade)).toEqual(['Mornings']);
  });

  it('gives one item and an aggregate\'s stream as they were, and says when an item did not exist yet', async () => {
    expect((await json(['--as-of', at.draft, 'event', eventId])).state).toMatchObject({ id: eventId, title: 'Draft' });
    expect((await json(['--as-of', at.final, 'event', eventId])).state).toMatchObject({ id: eventId, title: 'Final' });
    expect((await json(['--as-of', at.final, 'task', taskId])).state).toMatchObject({ title: 'Write report' });
    expect(await json(['--as-of', at.beforeAll, 'event', eventId])).toMatchObject({ what: 'events', id: eventId, state: null });

    const before = await json(['--as-of', at.draft, 'stream', `space-${spaceId}`]);
    const after = await json(['--as-of', at.final, 'stream', `space-${spaceId}`]);
    expect(before.state.events[eventId].title).toBe('Draft');
    expect(after.state.events[eventId].title).toBe('Final');
    expect(after.position).toBeGreaterThan(before.position);

    const readable = await state(['--as-of', at.beforeAll, 'event', eventId]);
    expect(readable.stdout).toMatch(new RegExp(`^event ${eventId} as of ${at.beforeAll} \\(last event at position \\d+\\)\ndid not exist then\n$`));
    const stream = await state(['--as-of', at.draft, 'stream', `space-${spaceId}`]);
    expect(stream.stdout).toContain(`stream space-${spaceId} as of ${at.draft} (last event at position ${before.position})`);
    expect(stream.stdout).toContain('"title": "Draft"');
  });

  it('refuses bad input with exit code 2 and one line on stderr', async () => {
    const user = ['--user', ada.userId];
    refused(await state(['tasks', ...user]), 2, /required option '--as-of <instant>' not specified/);
    refused(await state(['--as-of', 'yesterday', 'tasks', ...user]), 2, /--as-of.*Expected an ISO 8601 instant/);
    const future = new Date(Date.now() + 86_400_000).toISOString();
    refused(await state(['--as-of', future, 'tasks', ...user]), 2, /asOf must not be in the future/);
    refused(await state(['--as-of', at.final, 'tasks', '--user', 'ada']), 2, /--user <id>.*Expected a user id/);
    refused(await state(['--as-of', at.final, 'tasks']), 2, /required option '--user <id>' not specified/);
    refused(await state(['--as-of', at.final, 'events', ...user, '--from', TO, '--to', FROM]), 2, /^error: --to: /);
    refused(await state(['--as-of', at.final, 'tasks', ...user, '--limit', '0']), 2, /^error: --limit: /);
    refused(await state(['--as-of', at.final, 'stream', `bogus-${randomUUID()}`]), 2, /No aggregate has streams named like bogus-/);
    refused(await state(['--as-of', at.final, 'calendars']), 2, /unknown command 'calendars'/);
    refused(await runCli(['state', '--as-of', at.final, 'task', taskId], { DATA_DIR: '/nonexistent-calendar-data' }), 1, /no event log at/);
  });
});
