/**
 * Routine periods on dates over real HTTP: GET /routines/instances (both dates included, DST-correct in the owner's
 * zone whatever the process zone), PUT .../periods/{periodId}/days/{date} and .../items/{itemId}/days/{date}, and
 * GET /routines/conflicts. Contract: api-spec.md section 3 ("Routine period on a date", "Routine task on a date"),
 * section 4 "Routines", addendum.md "Focus, routines, ...".
 */
import { randomUUID } from 'node:crypto';
import type { ReadModels } from '../../projections/read-models';
import { routineBlocks } from '../../read-api/routines/routines.queries';
import { type ApiResponse, type Client, signUp, useTestService } from '../support/service';

let base: string;
let readModels: ReadModels;
useTestService((started) => {
  base = started.base;
  readModels = started.service.context.readModels;
});

const run = { name: 'Run', startMinute: 420, endMinute: 465, windowStartMinute: 360, windowEndMinute: 540, items: [{ title: 'Stretch' }, { title: 'Run' }] };
const read = { name: 'Read', startMinute: 1260, endMinute: 1290, canMove: false };

async function routine(c: Client, body: Record<string, unknown>) {
  const res = await c.call('POST', '/routines', { name: 'Routine', days: [1, 2, 3, 4, 5, 6, 7], periods: [run], ...body });
  expect(res.status).toBe(201);
  return res.body.routine as Record<string, any>;
}

async function instances(c: Client, from: string, to: string) {
  const res = await c.call('GET', `/routines/instances?from=${from}&to=${to}`);
  expect(res.status).toBe(200);
  return res.body as { timeZone: string; instances: Array<Record<string, any>> };
}

const setDay = (c: Client, periodId: string, date: string, body: unknown) => c.call('PUT', `/routines/periods/${periodId}/days/${date}`, body);
const setItem = (c: Client, itemId: string, date: string, body: unknown) => c.call('PUT', `/routines/items/${itemId}/days/${date}`, body);

function expectError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
}

function expectInvalid(res: ApiResponse, path: string): void {
  expectError(res, 400, 'invalid_request');
  expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
}

describe('GET /routines/instances', () => {
  it('lists each period of each active routine on each of its days, both dates included, in start order', async () => {
    const c = await signUp(base, { timeZone: 'Europe/Berlin' });
    const r = await routine(c, { name: 'MWF', days: [1, 3, 5], periods: [read, run] });
    await routine(c, { name: 'Paused', isActive: false });
    const body = await instances(c, '2026-10-19', '2026-10-23');
    expect(body.timeZone).toBe('Europe/Berlin');
    expect(body.instances.map((i) => `${i.date} ${i.name}`)).toEqual([
      '2026-10-19 Run', '2026-10-19 Read', '2026-10-21 Run', '2026-10-21 Read', '2026-10-23 Run', '2026-10-23 Read',
    ]);
    const [first] = body.instances;
    expect(first).toEqual({
      routineId: r.id, routineName: 'MWF', periodId: r.periods[1].id, name: 'Run', date: '2026-10-19', status: null,
      startMinute: 420, endMinute: 465, moved: false, startsAt: '2026-10-19T05:00:00.000Z', endsAt: '2026-10-19T05:45:00.000Z',
      windowStartMinute: 360, windowEndMinute: 540, priority: 'normal', canMove: true,
      items: r.periods[1].items.map((i: { id: string; title: string }) => ({ ...i, done: false })),
    });
    expect((await instances(c, '2026-10-23', '2026-10-23')).instances).toHaveLength(2);
    expect((await instances(c, '2026-10-24', '2026-10-25')).instances).toEqual([]);
  });

  it('keeps the wall-clock times across the October DST change in Berlin (the process runs in New York)', async () => {
    expect(Intl.DateTimeFormat().resolvedOptions().timeZone).toBe('America/New_York');
    const c = await signUp(base, { timeZone: 'Europe/Berlin' });
    await routine(c, { periods: [{ name: 'Standup', startMinute: 540, endMinute: 600 }] });
    const { instances: list } = await instances(c, '2026-10-23', '2026-10-27');
    expect(list.map((i) => [i.date, i.startMinute, i.startsAt, i.endsAt])).toEqual([
      ['2026-10-23', 540, '2026-10-23T07:00:00.000Z', '2026-10-23T08:00:00.000Z'],
      ['2026-10-24', 540, '2026-10-24T07:00:00.000Z', '2026-10-24T08:00:00.000Z'],
      ['2026-10-25', 540, '2026-10-25T08:00:00.000Z', '2026-10-25T09:00:00.000Z'],
      ['2026-10-26', 540, '2026-10-26T08:00:00.000Z', '2026-10-26T09:00:00.000Z'],
      ['2026-10-27', 540, '2026-10-27T08:00:00.000Z', '2026-10-27T09:00:00.000Z'],
    ]);
  });

  it('follows the profile\'s time zone as it is now', async () => {
    const c = await signUp(base, { timeZone: 'Europe/Berlin' });
    await routine(c, { periods: [{ name: 'Standup', startMinute: 540, endMinute: 600 }] });
    expect((await c.call('PATCH', '/me', { timeZone: 'Asia/Tokyo' })).status).toBe(200);
    const { timeZone, instances: list } = await instances(c, '2026-10-26', '2026-10-26');
    expect(timeZone).toBe('Asia/Tokyo');
    expect(list[0].startsAt).toBe('2026-10-26T00:00:00.000Z');
  });

  it.each([
    ['no to', 'from=2026-10-01', 'query.to'],
    ['no from', 'to=2026-10-01', 'query.from'],
    ['a date that does not exist', 'from=2026-02-30&to=2026-03-01', 'query.from'],
    ['a date-time', 'from=2026-10-01T00:00:00Z&to=2026-10-02', 'query.from'],
    ['to before from', 'from=2026-10-02&to=2026-10-01', 'query.to'],
    ['63 dates', 'from=2026-10-01&to=2026-12-02', 'query.to'],
  ])('refuses %s with 400', async (_label, query, path) => {
    const c = await signUp(base);
    expectInvalid(await c.call('GET', `/routines/instances?${query}`), path);
  });

  it('serves 62 dates', async () => {
    const c = await signUp(base);
    await routine(c, {});
    expect((await instances(c, '2026-10-01', '2026-12-01')).instances).toHaveLength(62);
  });
});

describe('PUT /routines/periods/{periodId}/days/{date}', () => {
  const MONDAY = '2026-10-26';

  it('walks the section 3 machine: done, skipped, done, null; each answer is the instance; other dates untouched', async () => {
    const c = await signUp(base, { timeZone: 'Europe/Berlin' });
    const r = await routine(c, {});
    const periodId = r.periods[0].id;
    for (const status of ['done', 'skipped', 'done', null]) {
      const res = await setDay(c, periodId, MONDAY, { status });
      expect(res.status).toBe(200);
      expect(Object.keys(res.body)).toEqual(['instance']);
      expect(res.body.instance).toMatchObject({ periodId, routineId: r.id, date: MONDAY, status, startMinute: 420, startsAt: '2026-10-26T06:00:00.000Z' });
      const listed = await instances(c, MONDAY, '2026-10-27');
      expect(listed.instances.map((i) => i.status)).toEqual([status, null]);
      expect(listed.instances[0]).toEqual(res.body.instance);
    }
  });

  it('answers setting what is already set with the instance and appends nothing', async () => {
    const c = await signUp(base);
    const periodId = (await routine(c, {})).periods[0].id;
    expect((await setDay(c, periodId, MONDAY, { status: 'done' })).headers.get('x-calendar-position')).toMatch(/^\d+$/);
    const again = await setDay(c, periodId, MONDAY, { status: 'done' });
    expect(again.status).toBe(200);
    expect(again.body.instance.status).toBe('done');
    expect(again.headers.get('x-calendar-position')).toBeNull();
    const cleared = await setDay(c, periodId, '2026-10-27', { status: null });
    expect(cleared.status).toBe(200);
    expect(cleared.headers.get('x-calendar-position')).toBeNull();
  });

  it('moves the period for that day; later status changes keep the move; its own times undo it', async () => {
    const c = await signUp(base, { timeZone: 'Europe/Berlin' });
    const periodId = (await routine(c, {})).periods[0].id;
    const moved = await setDay(c, periodId, MONDAY, { status: null, startMinute: 480, endMinute: 540 });
    expect(moved.status).toBe(200);
    expect(moved.body.instance).toMatchObject({
      status: null, startMinute: 480, endMinute: 540, moved: true, startsAt: '2026-10-26T07:00:00.000Z', endsAt: '2026-10-26T08:00:00.000Z',
    });
    const done = await setDay(c, periodId, MONDAY, { status: 'done' });
    expect(done.body.instance).toMatchObject({ status: 'done', startMinute: 480, endMinute: 540, moved: true });
    const [tuesday] = (await instances(c, '2026-10-27', '2026-10-27')).instances;
    expect(tuesday).toMatchObject({ startMinute: 420, moved: false });
    const back = await setDay(c, periodId, MONDAY, { status: 'done', startMinute: 420, endMinute: 465 });
    expect(back.body.instance).toMatchObject({ status: 'done', startMinute: 420, endMinute: 465, moved: false });
  });

  it('refuses times outside the window and any move of a period that cannot move (409), writing nothing', async () => {
    const c = await signUp(base);
    const r = await routine(c, { periods: [run, read] });
    const [runId, readId] = r.periods.map((p: { id: string }) => p.id);
    expectError(await setDay(c, runId, MONDAY, { status: 'done', startMinute: 300, endMinute: 345 }), 409, 'outside_window');
    expectError(await setDay(c, runId, MONDAY, { status: null, startMinute: 500, endMinute: 560 }), 409, 'outside_window');
    expectError(await setDay(c, readId, MONDAY, { status: 'done', startMinute: 1200, endMinute: 1230 }), 409, 'period_not_movable');
    const list = (await instances(c, MONDAY, MONDAY)).instances;
    expect(list.map((i) => [i.status, i.moved])).toEqual([[null, false], [null, false]]);
  });

  it.each<[string, unknown, string]>([
    ['no status', {}, 'body.status'],
    ['an unknown status', { status: 'later' }, 'body.status'],
    ['a start without an end', { status: null, startMinute: 480 }, 'body.endMinute'],
    ['an end before the start', { status: null, startMinute: 480, endMinute: 470 }, 'body.endMinute'],
    ['a minute past 1440', { status: null, startMinute: 480, endMinute: 1500 }, 'body.endMinute'],
    ['an unknown field', { status: 'done', note: 'x' }, 'body.note'],
  ])('refuses %s with 400', async (_label, body, path) => {
    const c = await signUp(base);
    const periodId = (await routine(c, {})).periods[0].id;
    expectInvalid(await setDay(c, periodId, MONDAY, body), path);
    expect((await instances(c, MONDAY, MONDAY)).instances[0].status).toBeNull();
  });

  it('answers 400 for a bad date or id, 404 for an unknown period, a date it does not occur on, or an inactive routine', async () => {
    const c = await signUp(base);
    const r = await routine(c, { days: [1, 2, 3, 4, 5] });
    const periodId = r.periods[0].id;
    expectInvalid(await setDay(c, periodId, '2026-13-01', { status: 'done' }), 'path.date');
    expectInvalid(await setDay(c, 'nope', MONDAY, { status: 'done' }), 'path.periodId');
    expectError(await setDay(c, randomUUID(), MONDAY, { status: 'done' }), 404, 'not_found');
    expectError(await setDay(c, periodId, '2026-10-25', { status: 'done' }), 404, 'not_found');
    expect((await c.call('PATCH', `/routines/${r.id}`, { isActive: false })).status).toBe(200);
    expectError(await setDay(c, periodId, MONDAY, { status: 'done' }), 404, 'not_found');
  });
});

describe('PUT /routines/items/{itemId}/days/{date}', () => {
  const MONDAY = '2026-10-26';

  it('marks an item done and not done for that date and answers the instance', async () => {
    const c = await signUp(base);
    const r = await routine(c, {});
    const [stretch, jog] = r.periods[0].items;
    const res = await setItem(c, stretch.id, MONDAY, { done: true });
    expect(res.status).toBe(200);
    expect(res.body.instance).toMatchObject({ periodId: r.periods[0].id, date: MONDAY, items: [{ id: stretch.id, done: true }, { id: jog.id, done: false }] });
    expect((await instances(c, MONDAY, '2026-10-27')).instances.map((i) => i.items.map((x: { done: boolean }) => x.done)))
      .toEqual([[true, false], [false, false]]);
    const undone = await setItem(c, stretch.id, MONDAY, { done: false });
    expect(undone.body.instance.items.map((x: { done: boolean }) => x.done)).toEqual([false, false]);
    expect(undone.body.instance.status).toBeNull();
  });

  it('answers 400 for a bad body, 404 for an unknown item or a date its period does not occur on', async () => {
    const c = await signUp(base);
    const r = await routine(c, { days: [1] });
    const itemId = r.periods[0].items[0].id;
    expectInvalid(await setItem(c, itemId, MONDAY, {}), 'body.done');
    expectInvalid(await setItem(c, itemId, MONDAY, { done: 'yes' }), 'body.done');
    expectError(await setItem(c, randomUUID(), MONDAY, { done: true }), 404, 'not_found');
    expectError(await setItem(c, itemId, '2026-10-27', { done: true }), 404, 'not_found');
  });
});

describe('GET /routines/conflicts', () => {
  /** A Berlin wall-clock time in November (UTC+1) as an instant. */
  const cet = (date: string, hhmm: string) => new Date(`${date}T${hhmm}:00+01:00`).toISOString();
  const event = async (c: Client, body: Record<string, unknown>) => {
    const res = await c.call('POST', '/events', { title: 'Event', ...body });
    expect(res.status).toBe(201);
    return res.body.event as { id: string };
  };

  it('lists periods a busy event landed on, with the nearest free time in the window, clear of other periods', async () => {
    const c = await signUp(base, { timeZone: 'Europe/Berlin' });
    const breakfast = { name: 'Breakfast', startMinute: 375, endMinute: 405 };
    const r = await routine(c, { name: 'Days', periods: [breakfast, run, read] });
    const [, runP, readP] = r.periods;
    const e1 = await event(c, { title: 'Early call', startsAt: cet('2030-11-04', '07:15'), endsAt: cet('2030-11-04', '07:50') });
    const e2 = await event(c, { title: 'Late call', startsAt: cet('2030-11-04', '21:10'), endsAt: cet('2030-11-04', '21:20') });
    await event(c, { title: 'Free', busy: false, startsAt: cet('2030-11-05', '07:00'), endsAt: cet('2030-11-05', '08:00') });
    await event(c, { title: 'Holiday', allDay: true, startsAt: cet('2030-11-06', '00:00'), endsAt: cet('2030-11-07', '00:00') });
    const daily = await event(c, {
      title: 'Daily', startsAt: cet('2030-11-07', '07:00'), endsAt: cet('2030-11-07', '07:10'), recurrenceRule: 'FREQ=DAILY;COUNT=2',
    });
    expect((await setDay(c, runP.id, '2030-11-08', { status: 'done' })).status).toBe(200);

    const res = await c.call('GET', '/routines/conflicts?from=2030-11-04&days=5');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timeZone: 'Europe/Berlin', from: '2030-11-04', days: 5 });
    expect(res.body.conflicts).toEqual([
      {
        routineId: r.id, routineName: 'Days', periodId: runP.id, name: 'Run', date: '2030-11-04', startMinute: 420, endMinute: 465,
        startsAt: cet('2030-11-04', '07:00'), endsAt: cet('2030-11-04', '07:45'),
        events: [{ id: e1.id, title: 'Early call', startsAt: cet('2030-11-04', '07:15'), endsAt: cet('2030-11-04', '07:50') }],
        // 06:30 is nearer but Breakfast (06:15-06:45) holds it: right after the call.
        suggestion: { startMinute: 470, endMinute: 515, startsAt: cet('2030-11-04', '07:50'), endsAt: cet('2030-11-04', '08:35') },
      },
      expect.objectContaining({ periodId: readP.id, date: '2030-11-04', events: [expect.objectContaining({ id: e2.id })], suggestion: null }),
      expect.objectContaining({
        periodId: runP.id, date: '2030-11-07', events: [expect.objectContaining({ id: daily.id, startsAt: cet('2030-11-07', '07:00') })],
        suggestion: { startMinute: 430, endMinute: 475, startsAt: cet('2030-11-07', '07:10'), endsAt: cet('2030-11-07', '07:55') },
      }),
    ]);

    const other = await signUp(base, { timeZone: 'Europe/Berlin' });
    expect((await other.call('GET', '/routines/conflicts?from=2030-11-04&days=5')).body.conflicts).toEqual([]);
  });

  it('suggests nothing on a day an all-day busy event fills: the engine counts it busy, though it makes no conflict', async () => {
    const c = await signUp(base, { timeZone: 'Europe/Berlin' });
    await routine(c, { periods: [run] });
    const call = await event(c, { title: 'Call', startsAt: cet('2030-11-12', '07:15'), endsAt: cet('2030-11-12', '07:50') });
    await event(c, { title: 'Conference', allDay: true, allowOverlap: true, startsAt: cet('2030-11-12', '00:00'), endsAt: cet('2030-11-13', '00:00') });
    await event(c, { title: 'Call', startsAt: cet('2030-11-13', '07:15'), endsAt: cet('2030-11-13', '07:50') });
    const res = await c.call('GET', '/routines/conflicts?from=2030-11-12&days=2');
    expect(res.body.conflicts).toEqual([
      expect.objectContaining({ date: '2030-11-12', events: [expect.objectContaining({ id: call.id })], suggestion: null }),
      expect.objectContaining({ date: '2030-11-13', suggestion: expect.objectContaining({ startsAt: cet('2030-11-13', '06:30') }) }),
    ]);
  });

  it('lists a conflict of a past day but suggests no time before now', async () => {
    const c = await signUp(base, { timeZone: 'Europe/Berlin' });
    await routine(c, { periods: [run] });
    const past = new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(new Date(Date.now() - 3 * 86_400_000));
    const offset = (date: string) => new Date(`${date}T12:00:00Z`).toLocaleString('en-US', { timeZone: 'Europe/Berlin', timeZoneName: 'longOffset' }).slice(-6);
    const at = (hhmm: string) => new Date(`${past}T${hhmm}:00${offset(past)}`).toISOString();
    const call = await event(c, { title: 'Call', startsAt: at('07:15'), endsAt: at('07:50') });
    const res = await c.call('GET', `/routines/conflicts?from=${past}&days=1`);
    expect(res.body.conflicts).toEqual([expect.objectContaining({ date: past, events: [expect.objectContaining({ id: call.id })], suggestion: null })]);
  });

  it('defaults to seven days from today where the person is', async () => {
    const c = await signUp(base, { timeZone: 'Pacific/Kiritimati' });
    const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
    const before = today();
    const res = await c.call('GET', '/routines/conflicts');
    expect(res.status).toBe(200);
    expect([before, today()]).toContain(res.body.from);
    expect(res.body).toEqual({ timeZone: 'Pacific/Kiritimati', from: res.body.from, days: 7, conflicts: [] });
  });

  it.each([
    ['days 0', 'days=0', 'query.days'],
    ['days 15', 'days=15', 'query.days'],
    ['a bad from', 'from=tomorrow', 'query.from'],
  ])('refuses %s with 400', async (_label, query, path) => {
    const c = await signUp(base);
    expectInvalid(await c.call('GET', `/routines/conflicts?${query}`), path);
  });
});

describe('routineBlocks (what the availability engine plans around)', () => {
  it('answers the periods overlapping [from, to) as epoch ms with that day\'s times, windows and status', async () => {
    const c = await signUp(base, { timeZone: 'Europe/Berlin' });
    const r = await routine(c, { days: [1, 2], periods: [run, read] });
    const [runP, readP] = r.periods;
    expect((await setDay(c, runP.id, '2026-10-26', { status: 'done', startMinute: 450, endMinute: 495 })).status).toBe(200);
    expect((await setDay(c, readP.id, '2026-10-27', { status: 'skipped' })).status).toBe(200);
    const ms = (text: string) => Date.parse(text);
    // From Monday 07:40 Berlin (inside the moved run) to Tuesday 21:10 (inside the reading).
    const blocks = await routineBlocks(readModels, c.userId, ms('2026-10-26T06:40:00Z'), ms('2026-10-27T20:10:00Z'));
    expect(blocks).toEqual([
      { routineId: r.id, periodId: runP.id, name: 'Run', start: ms('2026-10-26T06:30:00Z'), end: ms('2026-10-26T07:15:00Z'), canMove: true,
        windowStart: ms('2026-10-26T05:00:00Z'), windowEnd: ms('2026-10-26T08:00:00Z'), status: 'done' },
      { routineId: r.id, periodId: readP.id, name: 'Read', start: ms('2026-10-26T20:00:00Z'), end: ms('2026-10-26T20:30:00Z'), canMove: false,
        windowStart: null, windowEnd: null, status: null },
      expect.objectContaining({ periodId: runP.id, start: ms('2026-10-27T06:00:00Z'), status: null }),
      expect.objectContaining({ periodId: readP.id, start: ms('2026-10-27T20:00:00Z'), status: 'skipped' }),
    ]);
    expect(await routineBlocks(readModels, c.userId, ms('2026-10-26T07:15:00Z'), ms('2026-10-26T20:00:00Z'))).toEqual([]);
    await expect(routineBlocks(readModels, c.userId, ms('2026-01-01T00:00:00Z'), ms('2027-03-01T00:00:00Z'))).rejects.toMatchObject({ status: 400 });
  });
});
