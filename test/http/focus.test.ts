/**
 * Focus sessions over real HTTP: api-spec.md section 3's machine (start, pause, resume, stop, and the refused
 * moves), GET /focus with tasks:read, concurrent starts, validation and two-user isolation.
 */
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { type Client, signUp } from '../support/service';
import { usePlanningService } from '../support/planning';

const api = usePlanningService();

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function started(c: Client, body?: Record<string, unknown>) {
  const res = await c.call('POST', '/focus', body);
  expect(res.status).toBe(201);
  return res.body.session as Record<string, any>;
}

const act = (c: Client, id: string, action: string, headers?: Record<string, string>) =>
  c.call('PATCH', `/focus/${id}`, { action }, headers);

async function current(c: Client) {
  const res = await c.call('GET', '/focus');
  expect(res.status).toBe(200);
  return res.body.session as Record<string, any> | null;
}

describe('POST /focus', () => {
  it('starts a running session without a body', async () => {
    const c = await signUp(api.base);
    const res = await c.call('POST', '/focus');
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['session']);
    expect(res.body.session).toMatchObject({
      userId: c.userId, status: 'running', taskId: null, eventId: null, goalId: null, label: null, plannedMinutes: null,
      pausedAt: null, stoppedAt: null, pausedSeconds: 0, version: 1,
    });
    expect(res.body.session.elapsedMinutes).toBe(0);
    expect(res.headers.get('etag')).toBe('"v1"');
    expect(res.headers.get('x-calendar-position')).toMatch(/^\d+$/);
  });

  it('keeps taskId, eventId, minutes and label, and takes the goal of its event', async () => {
    const c = await signUp(api.base);
    const goal = (await c.call('POST', '/goals', { name: 'Thesis', weeklyMinutes: 300 })).body.goal;
    const event = (await c.call('POST', '/events', {
      title: 'Thesis block', kind: 'focus', startsAt: '2031-05-05T08:00:00Z', endsAt: '2031-05-05T10:00:00Z', goalId: goal.id,
    })).body.event;
    const taskId = '7b0c5a9e-3f1d-4e2a-9b8c-6d5e4f3a2b1c';
    const session = await started(c, { taskId, eventId: event.id, minutes: 50, label: 'Chapter 2' });
    expect(session).toMatchObject({ taskId, eventId: event.id, goalId: goal.id, plannedMinutes: 50, label: 'Chapter 2' });
  });

  it('an explicit goalId wins over the event\'s goal', async () => {
    const c = await signUp(api.base);
    const [g1, g2] = await Promise.all(['One', 'Two'].map(async (name) => (await c.call('POST', '/goals', { name, weeklyMinutes: 60 })).body.goal));
    const event = (await c.call('POST', '/events', {
      title: 'Block', startsAt: '2031-05-06T08:00:00Z', endsAt: '2031-05-06T09:00:00Z', goalId: g1.id,
    })).body.event;
    expect((await started(c, { eventId: event.id, goalId: g2.id })).goalId).toBe(g2.id);
  });

  it('409 focus_already_running while one is running, and while one is paused', async () => {
    const c = await signUp(api.base);
    const s = await started(c);
    const again = await c.call('POST', '/focus', { label: 'Second' });
    expectError(again, 409, 'focus_already_running');
    expect(again.body.error.details).toEqual({ sessionId: s.id });
    expect((await act(c, s.id, 'pause')).status).toBe(200);
    expectError(await c.call('POST', '/focus'), 409, 'focus_already_running');
    expect((await current(c))!.id).toBe(s.id);
  });

  it('starts again once the session stopped', async () => {
    const c = await signUp(api.base);
    const s = await started(c);
    expect((await act(c, s.id, 'stop')).status).toBe(200);
    const next = await started(c, { label: 'Next' });
    expect(next.id).not.toBe(s.id);
  });

  it('of 12 concurrent starts exactly one is 201, the others 409 focus_already_running', async () => {
    const c = await signUp(api.base);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => c.call('POST', '/focus', { label: `Try ${i}` })));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(11).fill(409)]);
    for (const r of answers.filter((a) => a.status === 409)) expect(r.body.error.code).toBe('focus_already_running');
    const winner = answers.find((r) => r.status === 201)!.body.session;
    expect((await current(c))!.id).toBe(winner.id);
  });

  it('a retry with the same Idempotency-Key answers the first start again', async () => {
    const c = await signUp(api.base);
    const first = await c.call('POST', '/focus', { label: 'Once' }, { 'Idempotency-Key': 'focus-once' });
    const retry = await c.call('POST', '/focus', { label: 'Once' }, { 'Idempotency-Key': 'focus-once' });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body.session.id).toBe(first.body.session.id);
  });

  it.each([
    [{ minutes: 0 }, 'body.minutes'],
    [{ minutes: 1441 }, 'body.minutes'],
    [{ minutes: 2.5 }, 'body.minutes'],
    [{ taskId: 'task-1' }, 'body.taskId'],
    [{ eventId: 42 }, 'body.eventId'],
    [{ label: 'x'.repeat(201) }, 'body.label'],
    [{ label: '   ' }, 'body.label'],
    [{ project: 'Other' }, 'body.project'],
  ])('400 for %j, and nothing is written', async (body, path) => {
    const c = await signUp(api.base);
    const before = await api.head();
    expectInvalid(await c.call('POST', '/focus', body), path);
    expect(await api.head()).toBe(before);
    expect(await current(c)).toBeNull();
  });
});

describe('PATCH /focus/{id}', () => {
  it('pause, resume and stop move the session, each with a new version', async () => {
    const c = await signUp(api.base);
    const s = await started(c);
    const paused = await act(c, s.id, 'pause');
    expect(paused.status).toBe(200);
    expect(paused.body.session).toMatchObject({ id: s.id, status: 'paused', version: 2 });
    expect(typeof paused.body.session.pausedAt).toBe('string');
    expect(paused.headers.get('etag')).toBe('"v2"');
    const resumed = await act(c, s.id, 'resume');
    expect(resumed.body.session).toMatchObject({ status: 'running', pausedAt: null, version: 3 });
    const stopped = await act(c, s.id, 'stop');
    expect(stopped.body.session).toMatchObject({ status: 'stopped', pausedAt: null, version: 4 });
    expect(typeof stopped.body.session.stoppedAt).toBe('string');
    expect(stopped.body.session.elapsedMinutes).toBe(0);
  });

  it('stops a paused session', async () => {
    const c = await signUp(api.base);
    const s = await started(c);
    await act(c, s.id, 'pause');
    const stopped = await act(c, s.id, 'stop');
    expect(stopped.status).toBe(200);
    expect(stopped.body.session.status).toBe('stopped');
  });

  it('refuses moves the state does not allow, each with its own 409 code', async () => {
    const c = await signUp(api.base);
    const s = await started(c);
    expectError(await act(c, s.id, 'resume'), 409, 'focus_not_paused');
    await act(c, s.id, 'pause');
    expectError(await act(c, s.id, 'pause'), 409, 'focus_not_running');
    await act(c, s.id, 'stop');
    for (const action of ['pause', 'resume', 'stop']) expectError(await act(c, s.id, action), 409, 'focus_already_stopped');
  });

  it('paused time does not count: a paused session stands still, and the pause is added to pausedSeconds', async () => {
    const c = await signUp(api.base);
    const s = await started(c);
    const paused = (await act(c, s.id, 'pause')).body.session;
    await pause(1100);
    const later = await current(c);
    expect(later!.elapsedSeconds).toBe(paused.elapsedSeconds);
    const resumed = (await act(c, s.id, 'resume')).body.session;
    expect(resumed.pausedSeconds).toBeGreaterThanOrEqual(1);
    const stopped = (await act(c, s.id, 'stop')).body.session;
    const wall = (Date.parse(stopped.stoppedAt) - Date.parse(stopped.startedAt)) / 1000;
    expect(stopped.elapsedSeconds).toBeLessThanOrEqual(Math.floor(wall) - 1);
  });

  it('honours If-Match: a stale ETag is 412 and changes nothing', async () => {
    const c = await signUp(api.base);
    const s = await started(c);
    expectError(await act(c, s.id, 'pause', { 'If-Match': '"v7"' }), 412, 'version_mismatch');
    expect((await current(c))!.status).toBe('running');
    expect((await act(c, s.id, 'pause', { 'If-Match': '"v1"' })).status).toBe(200);
  });

  it('404 for an unknown id; 400 for a bad action or id, writing nothing', async () => {
    const c = await signUp(api.base);
    const s = await started(c);
    expectNotFound(await act(c, '00000000-0000-4000-8000-000000000099', 'pause'));
    const before = await api.head();
    expectInvalid(await act(c, s.id, 'finish'), 'body.action');
    expectInvalid(await c.call('PATCH', `/focus/${s.id}`, {}), 'body.action');
    expectInvalid(await act(c, 'not-a-uuid', 'stop'), 'path.id');
    expect(await api.head()).toBe(before);
    expect((await current(c))!.status).toBe('running');
  });
});

describe('GET /focus', () => {
  it('is {session: null} when nothing runs, then the running or paused session', async () => {
    const c = await signUp(api.base);
    expect(await current(c)).toBeNull();
    const s = await started(c, { label: 'Now' });
    expect(await current(c)).toMatchObject({ id: s.id, status: 'running', label: 'Now' });
    await act(c, s.id, 'pause');
    expect(await current(c)).toMatchObject({ id: s.id, status: 'paused' });
    await act(c, s.id, 'stop');
    expect(await current(c)).toBeNull();
  });

  it('answers an API key with tasks:read', async () => {
    const c = await signUp(api.base);
    const s = await started(c);
    const key = (await c.call('POST', '/api-keys', { name: 'Focus widget', scopes: ['tasks:read'] })).body.key as string;
    const res = await fetch(`${api.base}/focus`, { headers: { authorization: `Bearer ${key}` } });
    expect(res.status).toBe(200);
    expect(((await res.json()) as any).session.id).toBe(s.id);
  });
});

describe('two people', () => {
  let a: Client;
  let b: Client;
  let session: Record<string, any>;

  beforeAll(async () => {
    [a, b] = await Promise.all([signUp(api.base), signUp(api.base)]);
    session = await started(a, { label: 'A private' });
  });

  it('B does not see A\'s session and cannot move it (404)', async () => {
    expect(await current(b)).toBeNull();
    for (const action of ['pause', 'resume', 'stop']) expectNotFound(await act(b, session.id, action));
    expect(await current(a)).toMatchObject({ id: session.id, status: 'running', version: 1 });
  });

  it('B starts a session of their own while A\'s runs', async () => {
    const mine = await started(b);
    expect(mine.userId).toBe(b.userId);
    expect((await current(a))!.id).toBe(session.id);
  });

  it('B cannot link A\'s event or goal (404), and nothing is written', async () => {
    const c = await signUp(api.base);
    const goal = (await a.call('POST', '/goals', { name: 'A goal', weeklyMinutes: 60 })).body.goal;
    const event = (await a.call('POST', '/events', { title: 'A event', startsAt: '2031-06-01T08:00:00Z', endsAt: '2031-06-01T09:00:00Z' })).body.event;
    const before = await api.head();
    expectNotFound(await c.call('POST', '/focus', { eventId: event.id }));
    expectNotFound(await c.call('POST', '/focus', { goalId: goal.id }));
    expect(await api.head()).toBe(before);
    expect(await current(c)).toBeNull();
  });
});
