/**
 * The planner over real HTTP: POST /planner/plan (tasks and goals on the engine's free time, writes nothing) and
 * POST /planner/apply (linked events, all or nothing through the Space schedule), every status, two users.
 * The process runs in America/New_York; the people live in Europe/Berlin (CET in November 2030).
 */
import { randomUUID } from 'node:crypto';
import { addDays, epochAt, localDate } from '../../services/time/local-time';
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { appendDomainEvent, midWeekZone, usePlanningService } from '../support/planning';
import { shareASpace } from '../support/sharing';
import { type Client, signUp } from '../support/service';

const api = usePlanningService();

const TZ = 'Europe/Berlin';
const MONDAY = '2030-11-04';
const iso = (ms: number) => new Date(ms).toISOString();
/** `day` days after MONDAY at `hhmm`, Berlin time, as an ISO instant. */
const at = (day: number, hhmm: string) => iso(epochAt(addDays(MONDAY, day), Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3)), TZ));

const berliner = () => signUp(api.base, { timeZone: TZ });

async function created(c: Client, path: string, body: Record<string, unknown>, name: string) {
  const res = await c.call('POST', path, body);
  expect(res.status).toBe(201);
  return res.body[name] as Record<string, any>;
}
const createTask = (c: Client, body: Record<string, unknown>) => created(c, '/tasks', { title: 'Task', ...body }, 'task');
const createGoal = (c: Client, body: Record<string, unknown>) => created(c, '/goals', { name: 'Goal', weeklyMinutes: 120, ...body }, 'goal');
const createEvent = (c: Client, body: Record<string, unknown>) => created(c, '/events', { title: 'Busy', ...body }, 'event');

async function plan(c: Client, body: Record<string, unknown>) {
  const res = await c.call('POST', '/planner/plan', body);
  expect(res.status).toBe(200);
  return res.body as { kind: string; timeZone: string; from: string; to: string; blocks: Array<Record<string, any>>; unplaced: Array<Record<string, any>> };
}

const week = { from: MONDAY, to: addDays(MONDAY, 6) };
const spans = (blocks: Array<Record<string, any>>) => blocks.map((b) => [b.title, b.startsAt, b.endsAt]);

async function eventsOfWeek(c: Client) {
  const res = await c.call('GET', `/events?from=${at(0, '00:00')}&to=${at(7, '00:00')}`);
  expect(res.status).toBe(200);
  return res.body.events as Array<Record<string, any>>;
}

describe('POST /planner/plan: tasks', () => {
  it('places open tasks by due date, priority and estimate in free working time, says why, and writes nothing', async () => {
    const c = await berliner();
    const meeting = await createEvent(c, { startsAt: at(0, '09:00'), endsAt: at(0, '10:00') });
    const later = await createTask(c, { title: 'Due Wednesday', dueAt: at(2, '17:00'), estimateMinutes: 60 });
    const sooner = await createTask(c, { title: 'Due Tuesday', dueAt: at(1, '12:00'), estimateMinutes: 90, priority: 'low' });
    const undated = await createTask(c, { title: 'Someday', priority: 'high' });
    const done = await createTask(c, { title: 'Done already' });
    expect((await c.call('PATCH', `/tasks/${done.id}`, { status: 'done' })).status).toBe(200);
    const head = await api.head();

    const res = await plan(c, { kind: 'tasks', ...week });
    expect(res).toMatchObject({ kind: 'tasks', timeZone: TZ, from: at(0, '00:00'), to: at(7, '00:00'), unplaced: [] });
    expect(res.blocks).toEqual([
      { kind: 'task', taskId: sooner.id, goalId: null, title: 'Due Tuesday', startsAt: at(0, '10:00'), endsAt: at(0, '11:30'), minutes: 90,
        reason: { code: 'before_due', message: 'First free time long enough before it is due (2030-11-05 12:00 Europe/Berlin)' } },
      { kind: 'task', taskId: later.id, goalId: null, title: 'Due Wednesday', startsAt: at(0, '11:30'), endsAt: at(0, '12:30'), minutes: 60,
        reason: expect.objectContaining({ code: 'before_due' }) },
      { kind: 'task', taskId: undated.id, goalId: null, title: 'Someday', startsAt: at(0, '12:30'), endsAt: at(0, '13:00'), minutes: 30,
        reason: { code: 'no_due_date', message: 'First free time long enough; the task has no due date (no estimate: 30 minutes assumed)' } },
    ]);
    expect(res.blocks.some((b) => b.startsAt < meeting.endsAt && b.endsAt > meeting.startsAt)).toBe(false);
    expect(await api.head()).toBe(head);
    expect(await plan(c, { kind: 'tasks', ...week })).toEqual(res);
  });

  it('splits a task longer than the largest free stretch, and says why a task could not be placed', async () => {
    const c = await berliner();
    await createEvent(c, { startsAt: at(0, '10:00'), endsAt: at(0, '11:00') });
    await createEvent(c, { startsAt: at(0, '12:30'), endsAt: at(0, '17:00') });
    const report = await createTask(c, { title: 'Report', dueAt: at(0, '13:00'), estimateMinutes: 120 });
    const deck = await createTask(c, { title: 'Deck', dueAt: at(0, '13:00'), estimateMinutes: 200 });
    const res = await plan(c, { kind: 'tasks', from: MONDAY, to: MONDAY });
    expect(res.blocks.map((b) => [b.taskId, b.startsAt, b.endsAt, b.reason.code])).toEqual([
      [report.id, at(0, '09:00'), at(0, '10:00'), 'split'],
      [report.id, at(0, '11:00'), at(0, '12:00'), 'split'],
    ]);
    expect(res.unplaced).toEqual([{
      kind: 'task', id: deck.id, title: 'Deck', minutes: 200, weekStart: null,
      reason: { code: 'no_time_before_due', message: 'Needs 200 minutes before it is due (2030-11-04 13:00 Europe/Berlin); only 30 are free in stretches of at least 30 minutes' },
    }]);
  });

  it('works around routine periods, movable ones too, unless skipped that day', async () => {
    const c = await berliner();
    const routine = await created(c, '/routines', {
      name: 'Mornings', days: [1, 2], periods: [{ name: 'Email', startMinute: 540, endMinute: 600 }],
    }, 'routine');
    expect((await c.call('PUT', `/routines/periods/${routine.periods[0].id}/days/${addDays(MONDAY, 1)}`, { status: 'skipped' })).status).toBe(200);
    await createTask(c, { title: 'Monday', dueAt: at(0, '17:00'), estimateMinutes: 30 });
    await createTask(c, { title: 'Tuesday', dueAt: at(1, '17:00'), estimateMinutes: 30 });
    const res = await plan(c, { kind: 'tasks', from: at(0, '00:00'), to: at(2, '00:00') });
    expect(spans(res.blocks)).toEqual([['Monday', at(0, '10:00'), at(0, '10:30')], ['Tuesday', at(0, '10:30'), at(0, '11:00')]]);
    const tuesday = await plan(c, { kind: 'tasks', from: addDays(MONDAY, 1), to: addDays(MONDAY, 1) });
    expect(spans(tuesday.blocks)).toEqual([['Tuesday', at(1, '09:00'), at(1, '09:30')]]);
  });

  it('plans only the named tasks; someone else\'s or an unknown id is 404; a done one is said to be done', async () => {
    const c = await berliner();
    const other = await berliner();
    const mine = await createTask(c, { title: 'Mine', estimateMinutes: 30 });
    await createTask(c, { title: 'Not named', estimateMinutes: 30 });
    const done = await createTask(c, { title: 'Finished' });
    await c.call('PATCH', `/tasks/${done.id}`, { status: 'done' });
    const theirs = await createTask(other, { title: 'Theirs' });
    const res = await plan(c, { kind: 'tasks', ...week, ids: [mine.id, done.id] });
    expect(res.blocks.map((b) => b.title)).toEqual(['Mine']);
    expect(res.unplaced).toEqual([expect.objectContaining({ id: done.id, reason: { code: 'task_done', message: 'The task is done' } })]);
    const head = await api.head();
    expectNotFound(await c.call('POST', '/planner/plan', { kind: 'tasks', ids: [mine.id, theirs.id] }));
    expectNotFound(await c.call('POST', '/planner/plan', { kind: 'tasks', ids: [randomUUID()] }));
    expectNotFound(await c.call('POST', '/planner/plan', { kind: 'goals', ids: [mine.id] }));
    expect(await api.head()).toBe(head);
    expect((await plan(other, { kind: 'tasks', ...week })).blocks.map((b) => b.taskId)).toEqual([theirs.id]);
  });

  it('plans a task for whoever is to do it: the assignee, not the owner who handed it on', async () => {
    const owner = await berliner();
    const assignee = await berliner();
    await shareASpace(owner, assignee);
    const task = await createTask(owner, { title: 'Handed on', assigneeId: assignee.userId, estimateMinutes: 30 });
    expect((await plan(assignee, { kind: 'tasks', ...week })).blocks.map((b) => b.taskId)).toEqual([task.id]);
    expect((await plan(owner, { kind: 'tasks', ...week })).blocks).toEqual([]);
    expect((await plan(owner, { kind: 'tasks', ...week, ids: [task.id] })).blocks.map((b) => b.taskId)).toEqual([task.id]);
  });

  it('reads up to the position named by X-Calendar-Min-Position', async () => {
    const c = await berliner();
    const id = randomUUID();
    const position = await appendDomainEvent(api.svc, 'task.created', {
      id, title: 'Appended', notes: null, projectId: null, listId: null, dueAt: null, estimateMinutes: 45, priority: 'normal',
      assigneeId: null, status: 'open', createdBy: c.userId, createdAt: at(-30, '09:00'), updatedAt: at(-30, '09:00'),
      completedAt: null, deletedAt: null, rank: 'V00000', version: 1,
    }, c.userId, `task-${id}`);
    const res = await c.call('POST', '/planner/plan', { kind: 'tasks', ...week }, { 'X-Calendar-Min-Position': String(position) });
    expect(spans(res.body.blocks)).toEqual([['Appended', at(0, '09:00'), at(0, '09:45')]]);
    expectInvalid(await c.call('POST', '/planner/plan', { kind: 'tasks' }, { 'X-Calendar-Min-Position': 'soon' }), 'header.X-Calendar-Min-Position');
  });

  it('defaults to today and the next 7 days where the person is', async () => {
    const c = await signUp(api.base, { timeZone: 'Pacific/Kiritimati' });
    const zone = 'Pacific/Kiritimati';
    const before = localDate(Date.now(), zone);
    const res = await plan(c, { kind: 'tasks' });
    const today = [before, localDate(Date.now(), zone)].find((d) => iso(epochAt(d, 0, zone)) === res.from);
    expect(today).toBeDefined();
    expect(res.to).toBe(iso(epochAt(addDays(today!, 8), 0, zone)));
    const fromOnly = await plan(c, { kind: 'tasks', from: '2030-11-04' });
    expect([fromOnly.from, fromOnly.to]).toEqual([iso(epochAt('2030-11-04', 0, zone)), iso(epochAt('2030-11-12', 0, zone))]);
  });

  it.each([
    ['no kind', {}, 'body.kind'],
    ['an unknown kind', { kind: 'events' }, 'body.kind'],
    ['a from that is no date', { kind: 'tasks', from: 'tomorrow' }, 'body.from'],
    ['a date that does not exist', { kind: 'tasks', from: '2030-02-30' }, 'body.from'],
    ['a year past 2999', { kind: 'tasks', to: '3001-01-01T00:00:00Z' }, 'body.to'],
    ['to before from', { kind: 'tasks', from: '2030-11-04', to: '2030-11-03' }, 'body.to'],
    ['more than 31 days', { kind: 'tasks', from: '2030-11-01', to: '2030-12-02' }, 'body.to'],
    ['ids that are not uuids', { kind: 'tasks', ids: ['abc'] }, 'body.ids.0'],
    ['an empty ids list', { kind: 'tasks', ids: [] }, 'body.ids'],
    ['a repeated id', { kind: 'tasks', ids: ['8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e', '8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e'] }, 'body.ids'],
    ['101 ids', { kind: 'tasks', ids: Array.from({ length: 101 }, () => randomUUID()) }, 'body.ids'],
    ['an unknown field', { kind: 'tasks', days: 3 }, 'body.days'],
  ])('refuses %s with 400', async (_label, body, path) => {
    const c = await berliner();
    expectInvalid(await c.call('POST', '/planner/plan', body), path);
  });

  it('serves 31 days, plans nothing in a range that ends where it starts, and refuses an API key (session only) and no credential', async () => {
    const c = await berliner();
    expect((await c.call('POST', '/planner/plan', { kind: 'goals', from: '2030-11-01', to: '2030-12-01' })).status).toBe(200);
    const empty = await c.call('POST', '/planner/plan', { kind: 'tasks', from: '2030-11-04T10:00:00Z', to: '2030-11-04T10:00:00Z' });
    expect(empty.status).toBe(200);
    expect(empty.body.blocks).toEqual([]);
    const key = await c.call('POST', '/api-keys', { name: 'k', scopes: ['events:read'] });
    const res = await fetch(`${api.base}/planner/plan`, {
      method: 'POST', headers: { authorization: `Bearer ${key.body.key}`, 'content-type': 'application/json' }, body: JSON.stringify({ kind: 'tasks' }),
    });
    expect({ status: res.status, code: ((await res.json()) as any).error.code }).toEqual({ status: 403, code: 'session_required' });
    const anonymous = await fetch(`${api.base}/planner/plan`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{"kind":"tasks"}' });
    expect(anonymous.status).toBe(401);
  });
});

describe('POST /planner/plan: goals', () => {
  it('plans what is left of each week in the preferred period, and counts applied blocks as planned', async () => {
    const c = await berliner();
    const spanish = await createGoal(c, { name: 'Spanish', weeklyMinutes: 120, preferredPeriod: 'morning', minBlockMinutes: 30, maxBlockMinutes: 60 });
    const reading = await createGoal(c, { name: 'Reading', weeklyMinutes: 100, preferredPeriod: 'evening', maxBlockMinutes: 90 });
    const res = await plan(c, { kind: 'goals', ...week });
    expect(res.unplaced).toEqual([]);
    expect(res.blocks.map((b) => [b.goalId, b.kind, b.startsAt, b.endsAt])).toEqual([
      [spanish.id, 'focus', at(0, '06:00'), at(0, '07:00')],
      [reading.id, 'focus', at(0, '17:00'), at(0, '17:50')],
      [spanish.id, 'focus', at(1, '06:00'), at(1, '07:00')],
      [reading.id, 'focus', at(1, '17:00'), at(1, '17:50')],
    ]);
    expect(res.blocks[0].reason).toEqual({
      code: 'preferred_period',
      message: 'Free in the morning (06:00-12:00), the goal\'s preferred period; 120 of 120 minutes still to plan in the week of 2030-11-04',
    });

    const applied = await c.call('POST', '/planner/apply', { blocks: res.blocks.filter((b) => b.goalId === spanish.id) });
    expect(applied.status).toBe(200);
    const again = await plan(c, { kind: 'goals', ...week, ids: [spanish.id] });
    expect(again.blocks).toEqual([]);
    expect(again.unplaced).toEqual([{
      kind: 'goal', id: spanish.id, title: 'Spanish', minutes: 0, weekStart: MONDAY,
      reason: { code: 'already_planned', message: '120 of 120 minutes are already planned in the week of 2030-11-04' },
    }]);
  });

  it('someone else\'s goal is 404, and their goals are never planned', async () => {
    const c = await berliner();
    const other = await berliner();
    const theirs = await createGoal(other, {});
    expectNotFound(await c.call('POST', '/planner/plan', { kind: 'goals', ids: [theirs.id] }));
    expect((await plan(c, { kind: 'goals', ...week })).blocks).toEqual([]);
  });
});

describe('POST /planner/apply', () => {
  it('writes the blocks as linked events of the default calendar, sent back as planned', async () => {
    const c = await berliner();
    const task = await createTask(c, { title: 'Write', dueAt: at(1, '17:00'), estimateMinutes: 45 });
    const goal = await createGoal(c, { name: 'Piano', weeklyMinutes: 60, preferredPeriod: 'afternoon' });
    const blocks = [...(await plan(c, { kind: 'tasks', ...week })).blocks, ...(await plan(c, { kind: 'goals', ...week })).blocks];
    const res = await c.call('POST', '/planner/apply', { blocks });
    expect(res.status).toBe(200);
    expect(res.headers.get('x-calendar-position')).toMatch(/^\d+$/);
    expect(res.body.events).toEqual([
      expect.objectContaining({ kind: 'task', taskId: task.id, goalId: null, title: 'Write', startsAt: at(0, '09:00'), endsAt: at(0, '09:45'), timeZone: TZ, busy: true, allDay: false, status: 'confirmed', createdBy: c.userId }),
      expect.objectContaining({ kind: 'focus', taskId: null, goalId: goal.id, title: 'Piano', startsAt: at(0, '12:00'), endsAt: at(0, '13:00') }),
    ]);
    const me = await c.call('GET', '/me');
    expect(res.body.events.map((e: any) => e.calendarId)).toEqual([me.body.user.defaultCalendarId, me.body.user.defaultCalendarId]);
    expect((await eventsOfWeek(c)).map((e) => e.id)).toEqual(res.body.events.map((e: any) => e.id));
    // The task itself stays as it was.
    expect((await c.call('GET', `/tasks/${task.id}`)).body.task).toEqual(task);
  });

  it('refuses every block when one overlaps busy time that appeared since the plan: 409 time_conflict, nothing written', async () => {
    const c = await berliner();
    await createTask(c, { title: 'First', dueAt: at(0, '17:00'), estimateMinutes: 60 });
    await createTask(c, { title: 'Second', dueAt: at(0, '17:00'), estimateMinutes: 90 });
    const { blocks } = await plan(c, { kind: 'tasks', ...week });
    expect(spans(blocks)).toEqual([['First', at(0, '09:00'), at(0, '10:00')], ['Second', at(0, '10:00'), at(0, '11:30')]]);
    // Another calendar of the same Space counts too.
    const calendar = await created(c, '/calendars', { name: 'Side' }, 'calendar');
    const appeared = await createEvent(c, { calendarId: calendar.id, startsAt: at(0, '11:00'), endsAt: at(0, '12:00') });
    const head = await api.head();
    const res = await c.call('POST', '/planner/apply', { blocks });
    expectError(res, 409, 'time_conflict');
    expect(res.body.error.details).toEqual({ conflicts: [{ id: appeared.id, startsAt: at(0, '11:00'), endsAt: at(0, '12:00') }] });
    expect(await api.head()).toBe(head);
    expect((await eventsOfWeek(c)).map((e) => e.id)).toEqual([appeared.id]);
  });

  it('counts applied goal blocks in GET /goals planned minutes of this week', async () => {
    const zone = midWeekZone();
    const c = await signUp(api.base, { timeZone: zone });
    const goal = await createGoal(c, { name: 'Guitar', weeklyMinutes: 120 });
    const start = Math.ceil(Date.now() / 3_600_000) * 3_600_000 + 3_600_000;
    const res = await c.call('POST', '/planner/apply', { blocks: [{ kind: 'focus', goalId: goal.id, startsAt: iso(start), endsAt: iso(start + 45 * 60_000) }] });
    expect(res.status).toBe(200);
    expect(res.body.events[0]).toMatchObject({ kind: 'focus', goalId: goal.id, title: 'Guitar' });
    const goals = await c.call('GET', '/goals');
    expect(goals.body.goals).toEqual([expect.objectContaining({ id: goal.id, plannedMinutes: 45, doneMinutes: 0 })]);
  });

  it('writes once for a repeated Idempotency-Key, with the same answer', async () => {
    const c = await berliner();
    const task = await createTask(c, { title: 'Once' });
    const body = { blocks: [{ kind: 'task', taskId: task.id, startsAt: at(2, '09:00'), endsAt: at(2, '10:00'), title: 'Once, at 9' }] };
    const key = { 'idempotency-key': randomUUID() };
    const first = await c.call('POST', '/planner/apply', body, key);
    expect(first.status).toBe(200);
    const head = await api.head();
    const second = await c.call('POST', '/planner/apply', body, key);
    expect([second.status, second.body]).toEqual([200, first.body]);
    expect(await api.head()).toBe(head);
    expect((await eventsOfWeek(c)).map((e) => e.title)).toEqual(['Once, at 9']);
  });

  it('refuses someone else\'s (or an unknown) task or goal with 404 and writes nothing', async () => {
    const c = await berliner();
    const other = await berliner();
    const mine = await createTask(c, {});
    const theirTask = await createTask(other, {});
    const theirGoal = await createGoal(other, {});
    const block = (extra: Record<string, unknown>) => ({ kind: 'task', taskId: mine.id, startsAt: at(3, '09:00'), endsAt: at(3, '10:00'), ...extra });
    const head = await api.head();
    for (const blocks of [
      [block({}), block({ taskId: theirTask.id, startsAt: at(3, '11:00'), endsAt: at(3, '12:00') })],
      [block({ goalId: theirGoal.id })],
      [{ kind: 'focus', goalId: randomUUID(), startsAt: at(3, '09:00'), endsAt: at(3, '10:00') }],
    ]) {
      expectNotFound(await c.call('POST', '/planner/apply', { blocks }));
    }
    expect(await api.head()).toBe(head);
    expect(await eventsOfWeek(c)).toEqual([]);
    expect(await eventsOfWeek(other)).toEqual([]);
  });

  const ok = { kind: 'focus', startsAt: '2030-11-06T09:00:00Z', endsAt: '2030-11-06T10:00:00Z' };
  it.each([
    ['no blocks', {}, 'body.blocks'],
    ['an empty list', { blocks: [] }, 'body.blocks'],
    ['51 blocks', { blocks: Array.from({ length: 51 }, (_, i) => ({ ...ok, startsAt: at(i % 7, '00:00'), endsAt: at(i % 7, '00:01') })) }, 'body.blocks'],
    ['a block that is no object', { blocks: ['9-10'] }, 'body.blocks.0'],
    ['an unknown kind', { blocks: [{ ...ok, kind: 'meeting' }] }, 'body.blocks.0.kind'],
    ['a task block without a task', { blocks: [{ ...ok, kind: 'task' }] }, 'body.blocks.0.taskId'],
    ['an end before the start', { blocks: [{ ...ok, endsAt: '2030-11-06T08:00:00Z' }] }, 'body.blocks.0.endsAt'],
    ['a block longer than a day', { blocks: [{ ...ok, endsAt: '2030-11-07T09:01:00Z' }] }, 'body.blocks.0.endsAt'],
    ['a start that is no date-time', { blocks: [{ ...ok, startsAt: '2030-11-06' }] }, 'body.blocks.0.startsAt'],
    ['a task id that is no uuid', { blocks: [{ ...ok, kind: 'task', taskId: '42' }] }, 'body.blocks.0.taskId'],
    ['an empty title', { blocks: [{ ...ok, title: '  ' }] }, 'body.blocks.0.title'],
    ['an unknown field in a block', { blocks: [{ ...ok, colour: 'red' }] }, 'body.blocks.0'],
    ['an unknown field', { blocks: [ok], calendarId: randomUUID() }, 'body.calendarId'],
  ])('refuses %s with 400 and writes nothing', async (_label, body, path) => {
    const c = await berliner();
    const head = await api.head();
    expectInvalid(await c.call('POST', '/planner/apply', body), path);
    expect(await api.head()).toBe(head);
  });

  it('refuses blocks that overlap each other as a conflict (409 time_conflict naming the later block), writing nothing', async () => {
    const c = await berliner();
    const head = await api.head();
    const later = { ...ok, startsAt: '2030-11-06T09:30:00Z', endsAt: '2030-11-06T11:00:00Z' };
    const res = await c.call('POST', '/planner/apply', { blocks: [later, ok] });
    expectError(res, 409, 'time_conflict');
    expect(res.body.error.details.conflicts).toEqual([{ block: 0, startsAt: later.startsAt, endsAt: later.endsAt }]);
    expect(await api.head()).toBe(head);
  });
});
