/**
 * Goals over real HTTP: create, list with this week's planned and done minutes, PUT, DELETE, limits, validation,
 * sync and bootstrap, events linked to goals, and two-user isolation.
 */
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { appendDomainEvent, midWeekZone, usePlanningService } from '../support/planning';
import { type Client, signUp } from '../support/service';

const api = usePlanningService();

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();

async function createGoal(c: Client, body: Record<string, unknown> = {}) {
  const res = await c.call('POST', '/goals', { name: 'Learn Spanish', weeklyMinutes: 180, ...body });
  expect(res.status).toBe(201);
  return res.body.goal as Record<string, any>;
}

async function listGoals(c: Client, query = '', headers?: Record<string, string>) {
  const res = await c.call('GET', `/goals${query}`, undefined, headers);
  expect(res.status).toBe(200);
  return res.body as { weekStart: string; goals: Array<Record<string, any>>; nextPageToken: string | null };
}

async function block(c: Client, goalId: string | null, start: number, minutes: number, extra: Record<string, unknown> = {}) {
  const res = await c.call('POST', '/events', {
    title: 'Goal block', kind: 'focus', startsAt: iso(start), endsAt: iso(start + minutes * 60_000), goalId, allowOverlap: true, ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.event as Record<string, any>;
}

describe('POST /goals', () => {
  it('creates a goal with every field, and defaults the optional ones to null', async () => {
    const c = await signUp(api.base);
    const res = await c.call('POST', '/goals', {
      name: 'Learn Spanish', weeklyMinutes: 180, preferredPeriod: 'morning', minBlockMinutes: 30, maxBlockMinutes: 90,
      deadline: '2027-06-30', color: '#22aa66',
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['goal']);
    expect(res.body.goal).toMatchObject({
      userId: c.userId, name: 'Learn Spanish', weeklyMinutes: 180, preferredPeriod: 'morning', minBlockMinutes: 30,
      maxBlockMinutes: 90, deadline: '2027-06-30', color: '#22aa66', deletedAt: null, version: 1,
    });
    expect(res.headers.get('etag')).toBe('"v1"');
    const bare = await createGoal(c, { name: 'Run' });
    expect(bare).toMatchObject({ preferredPeriod: null, minBlockMinutes: null, maxBlockMinutes: null, deadline: null, color: null });
  });

  it.each([
    [{ weeklyMinutes: 60 }, 'body.name'],
    [{ name: 'No minutes' }, 'body.weeklyMinutes'],
    [{ name: '  ', weeklyMinutes: 60 }, 'body.name'],
    [{ name: 'x'.repeat(201), weeklyMinutes: 60 }, 'body.name'],
    [{ name: 'Zero', weeklyMinutes: 0 }, 'body.weeklyMinutes'],
    [{ name: 'Too much', weeklyMinutes: 10_081 }, 'body.weeklyMinutes'],
    [{ name: 'Fraction', weeklyMinutes: 30.5 }, 'body.weeklyMinutes'],
    [{ name: 'Text', weeklyMinutes: '60' }, 'body.weeklyMinutes'],
    [{ name: 'Night', weeklyMinutes: 60, preferredPeriod: 'night' }, 'body.preferredPeriod'],
    [{ name: 'Blocks', weeklyMinutes: 60, minBlockMinutes: 60, maxBlockMinutes: 30 }, 'body.maxBlockMinutes'],
    [{ name: 'Tiny', weeklyMinutes: 60, minBlockMinutes: 1 }, 'body.minBlockMinutes'],
    [{ name: 'Colour', weeklyMinutes: 60, color: 'green' }, 'body.color'],
    [{ name: 'Deadline', weeklyMinutes: 60, deadline: 'next year' }, 'body.deadline'],
    [{ name: 'Extra', weeklyMinutes: 60, owner: 'me' }, 'body.owner'],
  ])('400 for %j, and nothing is written', async (body, path) => {
    const c = await signUp(api.base);
    const before = await api.head();
    expectInvalid(await c.call('POST', '/goals', body), path);
    expect(await api.head()).toBe(before);
    expect((await listGoals(c)).goals).toEqual([]);
  });

  it('keeps at most 100 goals per person (409 goal_limit_reached)', async () => {
    const c = await signUp(api.base);
    for (let i = 0; i < 100; i += 10) {
      const answers = await Promise.all(Array.from({ length: 10 }, (_, j) => c.call('POST', '/goals', { name: `G${i + j}`, weeklyMinutes: 30 })));
      expect(answers.map((r) => r.status)).toEqual(Array(10).fill(201));
    }
    expectError(await c.call('POST', '/goals', { name: 'One more', weeklyMinutes: 30 }), 409, 'goal_limit_reached');
    const first = (await listGoals(c, '?limit=1')).goals[0];
    expect((await c.call('DELETE', `/goals/${first.id}`)).status).toBe(204);
    await createGoal(c, { name: 'Room again' });
  });
});

describe('GET /goals', () => {
  it('lists the caller\'s goals oldest first, paged, with the Monday of this week', async () => {
    const c = await signUp(api.base, { timeZone: 'Asia/Tokyo' });
    const made = [];
    for (const name of ['A', 'B', 'C']) made.push(await createGoal(c, { name }));
    const all = await listGoals(c);
    expect(all.goals.map((g) => g.name)).toEqual(['A', 'B', 'C']);
    expect(all.nextPageToken).toBeNull();
    expect(new Date(`${all.weekStart}T00:00:00Z`).getUTCDay()).toBe(1);
    const today = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Tokyo' }).format(new Date());
    const days = (Date.parse(`${today}T00:00:00Z`) - Date.parse(`${all.weekStart}T00:00:00Z`)) / 86_400_000;
    expect(days >= 0 && days < 7).toBe(true);
    const first = await listGoals(c, '?limit=2');
    expect(first.goals.map((g) => g.id)).toEqual([made[0].id, made[1].id]);
    const second = await listGoals(c, `?limit=2&pageToken=${first.nextPageToken}`);
    expect(second.goals.map((g) => g.id)).toEqual([made[2].id]);
    expect(second.nextPageToken).toBeNull();
    expectInvalid(await c.call('GET', '/goals?limit=0'), 'query.limit');
    expectInvalid(await c.call('GET', '/goals?pageToken=bogus'), 'query.pageToken');
  });

  it('counts this week\'s blocks as planned, and past blocks and stopped focus sessions as done', async () => {
    const now = Date.now();
    const c = await signUp(api.base, { timeZone: midWeekZone(now) });
    const goal = await createGoal(c);
    const other = await createGoal(c, { name: 'Other' });
    await block(c, goal.id, now - 3 * HOUR, 45); // past: planned and done
    await block(c, goal.id, now + HOUR, 60); // ahead: planned only
    await block(c, goal.id, now - 10 * 24 * HOUR, 120); // last week: not counted
    await block(c, other.id, now - 2 * HOUR, 30); // the other goal's
    await block(c, null, now - 2 * HOUR, 30); // not linked
    const cancelled = await block(c, goal.id, now + 2 * HOUR, 15);
    expect((await c.call('DELETE', `/events/${cancelled.id}`)).status).toBe(204);
    const allDay = await block(c, goal.id, now + 3 * HOUR, 30, { allDay: true });
    expect(allDay.allDay).toBe(true);

    // A session of 50 minutes with 10 paused, for the goal (appended as the focus slice records a stopped session).
    const startedAt = now - 2 * HOUR;
    const position = await appendDomainEvent(api.svc, 'focus.stopped', {
      id: '0b7f4c1e-5a8d-4e2b-9c61-2f3a4b5c6d7e', userId: c.userId, taskId: null, eventId: null, goalId: goal.id, label: null,
      plannedMinutes: null, status: 'stopped', startedAt: iso(startedAt), pausedAt: null, stoppedAt: iso(startedAt + 60 * 60_000),
      pausedSeconds: 600, updatedAt: iso(startedAt + 60 * 60_000), version: 3,
    }, c.userId);

    const listed = await listGoals(c, '', { 'X-Calendar-Min-Position': String(position) });
    const mine = listed.goals.find((g) => g.id === goal.id)!;
    expect({ planned: mine.plannedMinutes, done: mine.doneMinutes }).toEqual({ planned: 105, done: 45 + 50 });
    const theirs = listed.goals.find((g) => g.id === other.id)!;
    expect({ planned: theirs.plannedMinutes, done: theirs.doneMinutes }).toEqual({ planned: 30, done: 30 });
  });

  it('a block worked through in a focus session counts the session, not the block', async () => {
    const now = Date.now();
    const c = await signUp(api.base, { timeZone: midWeekZone(now) });
    const goal = await createGoal(c);
    const worked = await block(c, goal.id, now - 3 * HOUR, 60);
    const startedAt = now - 3 * HOUR + 5 * 60_000;
    const position = await appendDomainEvent(api.svc, 'focus.stopped', {
      id: '1c2d3e4f-5a6b-4c7d-8e9f-0a1b2c3d4e5f', userId: c.userId, taskId: null, eventId: worked.id, goalId: goal.id, label: null,
      plannedMinutes: 60, status: 'stopped', startedAt: iso(startedAt), pausedAt: null, stoppedAt: iso(startedAt + 40 * 60_000),
      pausedSeconds: 0, updatedAt: iso(startedAt + 40 * 60_000), version: 2,
    }, c.userId);
    const [listed] = (await listGoals(c, '', { 'X-Calendar-Min-Position': String(position) })).goals;
    expect({ planned: listed.plannedMinutes, done: listed.doneMinutes }).toEqual({ planned: 60, done: 40 });
  });

  it('a real focus session for a goal is linked to it', async () => {
    const c = await signUp(api.base);
    const goal = await createGoal(c);
    const session = (await c.call('POST', '/focus', { goalId: goal.id })).body.session;
    expect(session.goalId).toBe(goal.id);
    expect((await c.call('PATCH', `/focus/${session.id}`, { action: 'stop' })).status).toBe(200);
    const [listed] = (await listGoals(c)).goals;
    expect(listed.doneMinutes).toBe(0); // under a minute
  });
});

describe('PUT /goals/{id}', () => {
  it('changes name and weeklyMinutes, keeps optional fields left out, clears those sent as null', async () => {
    const c = await signUp(api.base);
    const goal = await createGoal(c, { color: '#112233', preferredPeriod: 'evening', minBlockMinutes: 30 });
    const res = await c.call('PUT', `/goals/${goal.id}`, { name: 'Spanish B1', weeklyMinutes: 240, preferredPeriod: null });
    expect(res.status).toBe(200);
    expect(res.body.goal).toMatchObject({
      id: goal.id, name: 'Spanish B1', weeklyMinutes: 240, color: '#112233', preferredPeriod: null, minBlockMinutes: 30, version: 2,
    });
    expect(res.headers.get('etag')).toBe('"v2"');
    expect((await listGoals(c)).goals[0]).toMatchObject({ name: 'Spanish B1', weeklyMinutes: 240, preferredPeriod: null });
  });

  it('400 without name or weeklyMinutes, or when the blocks end up out of order; nothing is written', async () => {
    const c = await signUp(api.base);
    const goal = await createGoal(c, { minBlockMinutes: 30 });
    const before = await api.head();
    expectInvalid(await c.call('PUT', `/goals/${goal.id}`, { name: 'Only a name' }), 'body.weeklyMinutes');
    expectInvalid(await c.call('PUT', `/goals/${goal.id}`, { weeklyMinutes: 10 }), 'body.name');
    expectInvalid(await c.call('PUT', `/goals/${goal.id}`, { name: 'X', weeklyMinutes: 10, maxBlockMinutes: 20 }), 'body.maxBlockMinutes');
    expectInvalid(await c.call('PUT', '/goals/not-a-uuid', { name: 'X', weeklyMinutes: 10 }), 'path.id');
    expect(await api.head()).toBe(before);
    expect((await listGoals(c)).goals[0]).toMatchObject({ name: 'Learn Spanish', version: 1 });
  });

  it('honours If-Match (412 on a stale ETag) and is 404 for an unknown goal', async () => {
    const c = await signUp(api.base);
    const goal = await createGoal(c);
    expectError(await c.call('PUT', `/goals/${goal.id}`, { name: 'X', weeklyMinutes: 10 }, { 'If-Match': '"v3"' }), 412, 'version_mismatch');
    expect((await c.call('PUT', `/goals/${goal.id}`, { name: 'X', weeklyMinutes: 10 }, { 'If-Match': '"v1"' })).status).toBe(200);
    expectNotFound(await c.call('PUT', '/goals/00000000-0000-4000-8000-000000000077', { name: 'X', weeklyMinutes: 10 }));
  });
});

describe('DELETE /goals/{id}', () => {
  it('204, then gone from the list; a second delete and a PUT are 404', async () => {
    const c = await signUp(api.base);
    const goal = await createGoal(c);
    expectError(await c.call('DELETE', `/goals/${goal.id}`, undefined, { 'If-Match': '"v9"' }), 412, 'version_mismatch');
    const res = await c.call('DELETE', `/goals/${goal.id}`);
    expect(res.status).toBe(204);
    expect((await listGoals(c)).goals).toEqual([]);
    expectNotFound(await c.call('DELETE', `/goals/${goal.id}`));
    expectNotFound(await c.call('PUT', `/goals/${goal.id}`, { name: 'Back', weeklyMinutes: 10 }));
  });
});

describe('sync and bootstrap', () => {
  it('bootstrap lists current goals; sync brings changes and deletions as rows with deletedAt', async () => {
    const c = await signUp(api.base);
    const kept = await createGoal(c, { name: 'Kept' });
    const boot = (await c.call('GET', '/me/bootstrap')).body;
    expect(boot.goals.map((g: { id: string }) => g.id)).toEqual([kept.id]);
    const added = await createGoal(c, { name: 'Added' });
    await c.call('PUT', `/goals/${kept.id}`, { name: 'Kept, renamed', weeklyMinutes: 90 });
    await c.call('DELETE', `/goals/${added.id}`);
    const page = (await c.call('GET', `/sync?since=${encodeURIComponent(boot.cursor)}`)).body;
    const rows = new Map(page.changes.goals.map((g: Record<string, any>) => [g.id, g]));
    expect(rows.get(kept.id)).toMatchObject({ name: 'Kept, renamed', deletedAt: null, version: 2 });
    expect(typeof (rows.get(added.id) as Record<string, any>).deletedAt).toBe('string');
    const again = (await c.call('GET', '/me/bootstrap')).body;
    expect(again.goals.map((g: { id: string }) => g.id)).toEqual([kept.id]);
  });
});

describe('events linked to tasks and goals', () => {
  it('an event carries taskId and goalId, null by default; PATCH sets and clears them', async () => {
    const c = await signUp(api.base);
    const goal = await createGoal(c);
    const plain = await block(c, null, Date.UTC(2031, 6, 1, 8), 30, { goalId: undefined });
    expect(plain).toMatchObject({ taskId: null, goalId: null });
    const taskId = '7b0c5a9e-3f1d-4e2a-9b8c-6d5e4f3a2b1c';
    const linked = await block(c, goal.id, Date.UTC(2031, 6, 2, 8), 30, { taskId });
    expect(linked).toMatchObject({ taskId, goalId: goal.id });
    const cleared = await c.call('PATCH', `/events/${linked.id}`, { goalId: null, taskId: null });
    expect(cleared.body.event).toMatchObject({ taskId: null, goalId: null });
    const set = await c.call('PATCH', `/events/${plain.id}`, { goalId: goal.id });
    expect(set.body.event.goalId).toBe(goal.id);
    expect((await c.call('GET', `/events/${plain.id}`)).body.event.goalId).toBe(goal.id);
  });

  it('400 for malformed ids; 404 for a goal that is not the caller\'s or is deleted; nothing is written', async () => {
    const [a, b] = await Promise.all([signUp(api.base), signUp(api.base)]);
    const theirs = await createGoal(b);
    const gone = await createGoal(a);
    await a.call('DELETE', `/goals/${gone.id}`);
    const event = await block(a, null, Date.UTC(2031, 6, 3, 8), 30);
    const before = await api.head();
    const body = { title: 'Linked', startsAt: '2031-07-04T08:00:00Z', endsAt: '2031-07-04T09:00:00Z' };
    expectInvalid(await a.call('POST', '/events', { ...body, goalId: 'goal-1' }), 'body.goalId');
    expectInvalid(await a.call('POST', '/events', { ...body, taskId: 7 }), 'body.taskId');
    expectNotFound(await a.call('POST', '/events', { ...body, goalId: theirs.id }));
    expectNotFound(await a.call('POST', '/events', { ...body, goalId: gone.id }));
    expectNotFound(await a.call('PATCH', `/events/${event.id}`, { goalId: theirs.id }));
    expect(await api.head()).toBe(before);
    expect((await a.call('GET', `/events/${event.id}`)).body.event.goalId).toBeNull();
  });
});

describe('two people', () => {
  it('B neither sees nor changes A\'s goals (404), and A\'s goal stays as it was', async () => {
    const [a, b] = await Promise.all([signUp(api.base), signUp(api.base)]);
    const goal = await createGoal(a, { name: 'A private goal' });
    await createGoal(b, { name: 'B goal' });
    expect((await listGoals(b)).goals.map((g) => g.name)).toEqual(['B goal']);
    expectNotFound(await b.call('PUT', `/goals/${goal.id}`, { name: 'Taken', weeklyMinutes: 1 }));
    expectNotFound(await b.call('DELETE', `/goals/${goal.id}`));
    const boot = (await b.call('GET', '/me/bootstrap')).body;
    expect(boot.goals.map((g: { id: string }) => g.id)).not.toContain(goal.id);
    const sync = (await b.call('GET', `/sync?since=${encodeURIComponent('2000-01-01T00:00:00Z')}`)).body;
    expect(sync.changes.goals.map((g: { id: string }) => g.id)).not.toContain(goal.id);
    expect((await listGoals(a)).goals).toEqual([expect.objectContaining({ id: goal.id, name: 'A private goal', version: 1 })]);
  });
});
