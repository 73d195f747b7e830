/**
 * The routines decider, given/when/then: creating, updating (period ids kept), deleting, and api-spec.md section 3's
 * "Routine period on a date" and "Routine task on a date" rows, refused transitions included.
 */
import type { CreateRoutineBody, Routine } from '../../contracts/routines';
import { routinesDecider, type RoutineCommand } from '../../write-api/routines/routines.decider';
import { given } from '../support/given';

const OWNER = '11111111-1111-4111-8111-111111111111';
const R1 = '22222222-2222-4222-8222-222222222222';
const NOW = '2026-10-01T08:00:00.000Z';
const LATER = '2026-10-02T08:00:00.000Z';
const MONDAY = '2026-10-26';
const SUNDAY = '2026-10-25';

const input = (over: Partial<CreateRoutineBody> = {}): CreateRoutineBody => ({
  name: 'Mornings',
  days: [1, 2, 3, 4, 5],
  periods: [
    { name: 'Run', startMinute: 420, endMinute: 465, windowStartMinute: 360, windowEndMinute: 540, items: [{ title: 'Stretch' }, { title: 'Run' }] },
    { name: 'Read', startMinute: 1260, endMinute: 1290, canMove: false },
  ],
  ...over,
});

const create = (routineId = R1, over: Partial<CreateRoutineBody> = {}): RoutineCommand => ({
  type: 'CreateRoutine', routineId, ownerId: OWNER, input: input(over), now: NOW,
});

/** The routine.created event the decider makes for `create(...)`, to use as history. */
function created(routineId = R1, over: Partial<CreateRoutineBody> = {}) {
  const [event] = routinesDecider.decide(create(routineId, over), routinesDecider.initialState());
  return event as { type: 'routine.created'; data: Routine };
}

const base = created();
const run = base.data.periods[0];
const read = base.data.periods[1];
const [stretch, running] = run.items;

const setDay = (day: Extract<RoutineCommand, { type: 'SetPeriodDay' }>['day'], periodId = run.id, date = MONDAY): RoutineCommand => ({
  type: 'SetPeriodDay', periodId, date, day,
});
const setItem = (done: boolean, itemId = stretch.id, date = MONDAY): RoutineCommand => ({ type: 'SetItemDay', itemId, date, done });
const marked = (type: 'routine.period.completed' | 'routine.period.skipped', date = MONDAY) => ({
  type, data: { period: run, date, routine: base.data },
});
const done = marked('routine.period.completed');
const skipped = marked('routine.period.skipped');
const ref = { routineId: R1, periodId: run.id, date: MONDAY };

describe('routines decider: creating', () => {
  it('creates the routine with defaults and an id for every period and item', () => {
    const [event] = given(routinesDecider, []).when(create()).then([{
      type: 'routine.created',
      data: { id: R1, name: 'Mornings', type: 'personal', color: null, isActive: true, days: [1, 2, 3, 4, 5], ownerId: OWNER, createdAt: NOW, updatedAt: NOW } as never,
    }]);
    const routine = event.data as Routine;
    expect(routine.periods[0]).toMatchObject({ name: 'Run', priority: 'normal', canMove: true, windowStartMinute: 360, windowEndMinute: 540 });
    expect(routine.periods[1]).toMatchObject({ windowStartMinute: null, windowEndMinute: null, canMove: false, items: [] });
    const ids = [...routine.periods.map((p) => p.id), ...routine.periods.flatMap((p) => p.items.map((i) => i.id))];
    expect(new Set(ids).size).toBe(4);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });

  it('refuses a twentyfirst routine, and counts deleted ones out', () => {
    const twenty = Array.from({ length: 20 }, (_, i) => created(`00000000-0000-4000-8000-${String(i).padStart(12, '0')}`));
    given(routinesDecider, twenty).when(create()).thenThrows('routine_limit_reached');
    const deleted = { type: 'routine.deleted' as const, data: twenty[0].data };
    given(routinesDecider, [...twenty, deleted]).when(create()).then([{ type: 'routine.created' }]);
  });

  it('refuses an id that exists', () => {
    given(routinesDecider, [base]).when(create()).thenThrows('duplicate_id');
  });
});

describe('routines decider: updating and deleting', () => {
  const update = (changes: Extract<RoutineCommand, { type: 'UpdateRoutine' }>['changes'], expectedVersions?: number[]): RoutineCommand => ({
    type: 'UpdateRoutine', routineId: R1, changes, expectedVersions, idSeed: 'command-2', now: LATER,
  });

  it('changes fields and stamps updatedAt; a change to nothing decides nothing', () => {
    given(routinesDecider, [base]).when(update({ name: 'Early', isActive: false, color: '#112233' })).then([{
      type: 'routine.updated', data: { name: 'Early', isActive: false, color: '#112233', createdAt: NOW, updatedAt: LATER } as never,
    }]);
    given(routinesDecider, [base]).when(update({ name: 'Mornings', days: [1, 2, 3, 4, 5] })).then([]);
  });

  it('keeps the ids of periods given by id, or unchanged in name and times; new ones get new ids', () => {
    const [event] = given(routinesDecider, [base]).when(update({
      periods: [
        { name: 'Read', startMinute: 1260, endMinute: 1290 },
        { id: run.id, name: 'Long run', startMinute: 400, endMinute: 480, items: [{ title: 'Run' }, { id: stretch.id, title: 'Stretch well' }, { title: 'Shower' }] },
        { name: 'Nap', startMinute: 840, endMinute: 870 },
      ],
    })).then([{ type: 'routine.updated' }]);
    const [kept, renamed, added] = (event.data as Routine).periods;
    expect(kept.id).toBe(read.id);
    expect(renamed).toMatchObject({ id: run.id, name: 'Long run', startMinute: 400 });
    expect(renamed.items.map((i) => i.id).slice(0, 2)).toEqual([running.id, stretch.id]);
    expect([run.id, read.id, stretch.id, running.id]).not.toContain(renamed.items[2].id);
    expect([run.id, read.id]).not.toContain(added.id);
  });

  it('gives a period whose times changed (and no id) a new id', () => {
    const [event] = given(routinesDecider, [base]).when(update({ periods: [{ name: 'Run', startMinute: 430, endMinute: 465 }] })).then([{ type: 'routine.updated' }]);
    expect((event.data as Routine).periods[0].id).not.toBe(run.id);
  });

  it('refuses a period id or item id that is not this routine\'s', () => {
    const err = given(routinesDecider, [base])
      .when(update({ periods: [{ id: '33333333-3333-4333-8333-333333333333', name: 'X', startMinute: 1, endMinute: 2 }] }))
      .thenThrows('unknown_id');
    expect(err.details).toEqual({ issues: [{ path: 'body.periods.0.id', message: 'not a period of this routine' }] });
    given(routinesDecider, [base])
      .when(update({ periods: [{ id: read.id, name: 'Read', startMinute: 1260, endMinute: 1290, items: [{ id: stretch.id, title: 'x' }] }] }))
      .thenThrows('unknown_id');
  });

  it('checks If-Match versions and refuses unknown or deleted routines', () => {
    const updated = { type: 'routine.updated' as const, data: { ...base.data, name: 'v2' } };
    given(routinesDecider, [base, updated]).when(update({ name: 'x' }, [1])).thenThrows('version_mismatch');
    given(routinesDecider, [base, updated]).when(update({ name: 'x' }, [2])).then([{ type: 'routine.updated' }]);
    given(routinesDecider, [base]).when({ type: 'DeleteRoutine', routineId: R1, expectedVersions: [9], now: LATER }).thenThrows('version_mismatch');
    given(routinesDecider, []).when(update({ name: 'x' })).thenThrows('not_found');
  });

  it('deletes with the whole routine; afterwards the routine, its periods and items are gone', () => {
    const [deleted] = given(routinesDecider, [base]).when({ type: 'DeleteRoutine', routineId: R1, now: LATER })
      .then([{ type: 'routine.deleted', data: { id: R1, name: 'Mornings', updatedAt: LATER } as never }]);
    const h = [base, deleted];
    given(routinesDecider, h).when({ type: 'DeleteRoutine', routineId: R1, now: LATER }).thenThrows('not_found');
    given(routinesDecider, h).when(update({ name: 'x' })).thenThrows('not_found');
    given(routinesDecider, h).when(setDay({ status: 'done' })).thenThrows('not_found');
    given(routinesDecider, h).when(setItem(true)).thenThrows('not_found');
  });
});

describe('routines decider: a period on a date (section 3)', () => {
  it.each([
    ['no status', []],
    ['skipped', [skipped]],
  ])('%s -> done emits routine.period.completed with period, date and routine', (_from, history) => {
    given(routinesDecider, [base, ...history]).when(setDay({ status: 'done' }))
      .then([{ type: 'routine.period.completed', data: { period: run, date: MONDAY, routine: base.data } }]);
  });

  it.each([
    ['no status', []],
    ['done', [done]],
  ])('%s -> skipped emits routine.period.skipped', (_from, history) => {
    given(routinesDecider, [base, ...history]).when(setDay({ status: 'skipped' }))
      .then([{ type: 'routine.period.skipped', data: { period: run, date: MONDAY, routine: base.data } }]);
  });

  it.each([
    ['done', [done]],
    ['skipped', [skipped]],
  ])('%s -> null emits routine.period.cleared (no webhook type)', (_from, history) => {
    given(routinesDecider, [base, ...history]).when(setDay({ status: null })).then([{ type: 'routine.period.cleared', data: ref }]);
  });

  it('setting what is already set decides nothing: done -> done, skipped -> skipped, null -> null', () => {
    given(routinesDecider, [base, done]).when(setDay({ status: 'done' })).then([]);
    given(routinesDecider, [base, skipped]).when(setDay({ status: 'skipped' })).then([]);
    given(routinesDecider, [base]).when(setDay({ status: null })).then([]);
  });

  it('a status is per date: done on Monday leaves Tuesday without one', () => {
    given(routinesDecider, [base, done]).when(setDay({ status: 'done' }, run.id, '2026-10-27')).then([{ type: 'routine.period.completed' }]);
  });

  it('moves the period for that day, with or without a status, and back to its own times', () => {
    const moved = { type: 'routine.period.moved' as const, data: { ...ref, startMinute: 480, endMinute: 525 } };
    given(routinesDecider, [base]).when(setDay({ status: null, startMinute: 480, endMinute: 525 })).then([moved]);
    given(routinesDecider, [base]).when(setDay({ status: 'done', startMinute: 480, endMinute: 525 })).then([moved, { type: 'routine.period.completed' }]);
    given(routinesDecider, [base, moved]).when(setDay({ status: null, startMinute: 480, endMinute: 525 })).then([]);
    given(routinesDecider, [base, moved]).when(setDay({ status: null, startMinute: 420, endMinute: 465 }))
      .then([{ type: 'routine.period.moved', data: { ...ref, startMinute: null, endMinute: null } }]);
    given(routinesDecider, [base]).when(setDay({ status: null, startMinute: 420, endMinute: 465 })).then([]);
  });

  it('refuses times outside the window, and any move of a period that cannot move', () => {
    given(routinesDecider, [base]).when(setDay({ status: null, startMinute: 300, endMinute: 345 })).thenThrows('outside_window');
    given(routinesDecider, [base]).when(setDay({ status: null, startMinute: 500, endMinute: 600 })).thenThrows('outside_window');
    given(routinesDecider, [base]).when(setDay({ status: 'done', startMinute: 1200, endMinute: 1230 }, read.id)).thenThrows('period_not_movable');
    given(routinesDecider, [base]).when(setDay({ status: 'done', startMinute: 1260, endMinute: 1290 }, read.id)).then([{ type: 'routine.period.completed' }]);
  });

  it('refuses (404) an unknown period, a date the routine does not run on, and an inactive routine', () => {
    given(routinesDecider, [base]).when(setDay({ status: 'done' }, '33333333-3333-4333-8333-333333333333')).thenThrows('not_found');
    given(routinesDecider, [base]).when(setDay({ status: 'done' }, run.id, SUNDAY)).thenThrows('not_found');
    const paused = { type: 'routine.updated' as const, data: { ...base.data, isActive: false } };
    given(routinesDecider, [base, paused]).when(setDay({ status: 'done' })).thenThrows('not_found');
  });

  it('refuses a period that an update removed', () => {
    const without = { type: 'routine.updated' as const, data: { ...base.data, periods: [read] } };
    given(routinesDecider, [base, without]).when(setDay({ status: 'done' })).thenThrows('not_found');
    given(routinesDecider, [base, without]).when(setItem(true)).thenThrows('not_found');
  });
});

describe('routines decider: an item on a date (section 3)', () => {
  const tick = (isDone: boolean) => ({ type: 'routine.item.marked' as const, data: { ...ref, itemId: stretch.id, done: isDone } });

  it('not done -> done and done -> not done emit routine.item.marked', () => {
    given(routinesDecider, [base]).when(setItem(true)).then([tick(true)]);
    given(routinesDecider, [base, tick(true)]).when(setItem(false)).then([tick(false)]);
  });

  it('setting the state it has decides nothing', () => {
    given(routinesDecider, [base]).when(setItem(false)).then([]);
    given(routinesDecider, [base, tick(true)]).when(setItem(true)).then([]);
    given(routinesDecider, [base, tick(true), tick(false)]).when(setItem(false)).then([]);
  });

  it('refuses an unknown item and a date the period does not occur on', () => {
    given(routinesDecider, [base]).when(setItem(true, '33333333-3333-4333-8333-333333333333')).thenThrows('not_found');
    given(routinesDecider, [base]).when(setItem(true, stretch.id, SUNDAY)).thenThrows('not_found');
  });
});
