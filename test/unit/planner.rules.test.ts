/**
 * The planning rules (docs/planner.md), table-driven, on the engine's free time in Europe/Berlin while the process
 * runs in America/New_York: tasks by due date, priority and estimate, split when too long; goals in their preferred
 * period, in blocks between their minimum and maximum; and why an item could not be placed.
 */
import type { Board } from '../../read-api/planner/board';
import { blockLength } from '../../read-api/planner/board';
import { blockBounds, planGoals, type PlanGoal, type Week } from '../../read-api/planner/plan-goals';
import { planTasks, type PlanTask } from '../../read-api/planner/plan-tasks';
import { addDays, epochAt } from '../../services/time/local-time';
import type { Interval } from '../../services/availability/types';
import { DEFAULT_WORKING_HOURS } from '../../services/availability/weekly-hours';

const TZ = 'Europe/Berlin';
const MONDAY = '2030-11-04';
/** `day` days after MONDAY at `hhmm` in Berlin. */
const at = (day: number, hhmm: string) => epochAt(addDays(MONDAY, day), Number(hhmm.slice(0, 2)) * 60 + Number(hhmm.slice(3)), TZ);
const iso = (ms: number) => new Date(ms).toISOString();
const span = (day: number, from: string, to: string): Interval => ({ start: at(day, from), end: at(day, to) });

function board({ days = 7, busy = [] as Interval[], now = at(0, '00:00'), first = 0 } = {}): Board {
  const range = { start: at(first, '00:00'), end: at(first + days, '00:00') };
  const beforeNow = now > range.start ? [{ start: range.start, end: now }] : [];
  return { range, now, timeZone: TZ, blocked: [...busy, ...beforeNow], placed: [] };
}

let counter = 0;
function task(fields: Partial<PlanTask>): PlanTask {
  counter += 1;
  return {
    id: `00000000-0000-4000-8000-${String(counter).padStart(12, '0')}`, title: `Task ${counter}`, status: 'open',
    dueAt: null, estimateMinutes: 60, priority: 'normal', createdAt: `2030-10-01T00:00:${String(counter % 60).padStart(2, '0')}.000Z`, ...fields,
  };
}

const tasks = (b: Board, list: PlanTask[], planned: Record<string, number> = {}) =>
  planTasks({ board: b, workingHours: DEFAULT_WORKING_HOURS, tasks: list, plannedMinutes: new Map(Object.entries(planned)) });

const placed = (result: ReturnType<typeof tasks>) =>
  result.blocks.map((b) => ({ title: b.title, startsAt: iso(b.start), endsAt: iso(b.end), code: b.reason.code }));

describe('planning tasks', () => {
  const a = task({ title: 'due Wednesday', dueAt: at(2, '12:00') });
  const b = task({ title: 'due Tuesday', dueAt: at(1, '12:00') });
  const high = task({ title: 'high', priority: 'high' });
  const low = task({ title: 'low', priority: 'low' });
  const short = task({ title: 'short', estimateMinutes: 30 });
  const long = task({ title: 'long', estimateMinutes: 90 });

  it.each([
    ['the earlier due date first', [a, b], [['due Tuesday', span(0, '09:00', '10:00')], ['due Wednesday', span(0, '10:00', '11:00')]]],
    ['a due date before none', [high, a], [['due Wednesday', span(0, '09:00', '10:00')], ['high', span(0, '10:00', '11:00')]]],
    ['higher priority first when due alike', [low, high], [['high', span(0, '09:00', '10:00')], ['low', span(0, '10:00', '11:00')]]],
    ['the shorter estimate first when due and priority are alike', [long, short], [['short', span(0, '09:00', '09:30')], ['long', span(0, '09:30', '11:00')]]],
  ])('places %s, each in the first free time long enough', (_label, list, expected) => {
    const result = tasks(board(), list as PlanTask[]);
    expect(result.unplaced).toEqual([]);
    expect(result.blocks.map((x) => [x.title, { start: x.start, end: x.end }])).toEqual(expected);
  });

  it('says why each block went where it did', () => {
    const result = tasks(board(), [a, high]);
    expect(result.blocks.map((x) => x.reason)).toEqual([
      { code: 'before_due', message: 'First free time long enough before it is due (2030-11-06 12:00 Europe/Berlin)' },
      { code: 'no_due_date', message: 'First free time long enough; the task has no due date' },
    ]);
  });

  it('plans a task without an estimate for 30 minutes and says so', () => {
    const result = tasks(board(), [task({ title: 'unsized', estimateMinutes: null })]);
    expect(placed(result)).toEqual([{ title: 'unsized', startsAt: iso(at(0, '09:00')), endsAt: iso(at(0, '09:30')), code: 'no_due_date' }]);
    expect(result.blocks[0].reason.message).toContain('no estimate: 30 minutes assumed');
  });

  it('works around busy time and starts on the quarter hour after now, inside working hours', () => {
    const b1 = board({ now: at(0, '09:07'), busy: [span(0, '10:00', '16:30')] });
    const result = tasks(b1, [task({ title: 'one', estimateMinutes: 45 }), task({ title: 'two', estimateMinutes: 30 })]);
    // "two" is shorter, so first: 09:15-09:45; "one" (45) no longer fits before 10:00 nor after 16:30: Tuesday 09:00.
    expect(result.blocks.map((x) => [x.title, iso(x.start), iso(x.end)])).toEqual([
      ['two', iso(at(0, '09:15')), iso(at(0, '09:45'))],
      ['one', iso(at(1, '09:00')), iso(at(1, '09:45'))],
    ]);
  });

  it('splits a task longer than the largest free stretch before its due date into blocks of at least 30 minutes', () => {
    const b1 = board({ busy: [span(0, '10:00', '11:00'), span(0, '12:30', '17:00')] });
    const result = tasks(b1, [task({ title: 'report', estimateMinutes: 120, dueAt: at(0, '13:00') })]);
    expect(placed(result)).toEqual([
      { title: 'report', startsAt: iso(at(0, '09:00')), endsAt: iso(at(0, '10:00')), code: 'split' },
      { title: 'report', startsAt: iso(at(0, '11:00')), endsAt: iso(at(0, '12:00')), code: 'split' },
    ]);
    expect(result.blocks[0].reason.message).toBe(
      'Part 1 of 2: 120 minutes are more than the largest free stretch before it is due (2030-11-04 13:00 Europe/Berlin) (90 minutes)');
  });

  it('leaves no piece shorter than the minimum block when it splits', () => {
    // 70 minutes over stretches of 60 and 60: 40 + 30, not 60 + 10.
    const b1 = board({ busy: [span(0, '10:00', '11:00'), span(0, '12:00', '17:00')] });
    const result = tasks(b1, [task({ estimateMinutes: 70, dueAt: at(0, '13:00') })]);
    expect(result.blocks.map((x) => (x.end - x.start) / 60_000)).toEqual([40, 30]);
  });

  it.each([
    ['no_time_before_due: not enough free time before the due date', task({ estimateMinutes: 180, dueAt: at(0, '13:00') }),
      { busy: [span(0, '10:00', '11:00'), span(0, '12:30', '17:00')] }, 'no_time_before_due', 180,
      'Needs 180 minutes before it is due (2030-11-04 13:00 Europe/Berlin); only 150 are free in stretches of at least 30 minutes'],
    ['no_free_time: the whole range is busy', task({ estimateMinutes: 30 }), { days: 1, busy: [span(0, '08:00', '18:00')] }, 'no_free_time', 30,
      'Needs 30 minutes in the plan\'s range; only 0 are free in stretches of at least 30 minutes'],
    ['past_due: due before now', task({ dueAt: at(0, '08:00') }), { now: at(0, '09:00') }, 'past_due', 60,
      'It was due 2030-11-04 08:00 Europe/Berlin, before the time this plan covers'],
    ['task_done', task({ status: 'done' }), {}, 'task_done', 0, 'The task is done'],
    ['zero_estimate', task({ estimateMinutes: 0 }), {}, 'zero_estimate', 0, 'Estimated at 0 minutes: nothing to plan'],
  ])('does not place a task for %s', (_label, t, options, code, minutes, message) => {
    const result = tasks(board(options), [t]);
    expect(result.blocks).toEqual([]);
    expect(result.unplaced).toEqual([{ kind: 'task', id: t.id, title: t.title, minutes, weekStart: null, reason: { code, message } }]);
  });

  it('plans only what linked blocks do not already cover', () => {
    const t1 = task({ estimateMinutes: 90 });
    const t2 = task({ estimateMinutes: 60 });
    const result = tasks(board(), [t1, t2], { [t1.id]: 60, [t2.id]: 60 });
    expect(result.blocks.map((x) => [x.taskId, (x.end - x.start) / 60_000])).toEqual([[t1.id, 30]]);
    expect(result.unplaced.map((u) => [u.id, u.reason.code])).toEqual([[t2.id, 'already_planned']]);
  });

  it('gives the same plan for the same inputs', () => {
    const list = [a, b, high, low, short, long, task({ estimateMinutes: null }), task({ estimateMinutes: 200, dueAt: at(3, '10:00') })];
    const busy = [span(0, '11:00', '12:00'), span(1, '09:30', '14:00'), span(2, '13:00', '13:45')];
    expect(tasks(board({ busy }), list)).toEqual(tasks(board({ busy }), [...list].reverse()));
  });
});

describe('planning goals', () => {
  const weeks: Week[] = [0, 7].map((d) => ({ monday: addDays(MONDAY, d), start: at(d, '00:00'), end: at(d + 7, '00:00') }));
  let n = 0;
  function goal(fields: Partial<PlanGoal>): PlanGoal {
    n += 1;
    return {
      id: `10000000-0000-4000-8000-${String(n).padStart(12, '0')}`, name: `Goal ${n}`, weeklyMinutes: 120,
      preferredPeriod: 'morning', minBlockMinutes: 30, maxBlockMinutes: 60, deadline: null, ...fields,
    };
  }
  const goals = (b: Board, list: PlanGoal[], planned: Record<string, number> = {}) =>
    planGoals({ board: b, workingHours: DEFAULT_WORKING_HOURS, goals: list, weeks, plannedMinutes: (id, monday) => (monday === MONDAY ? planned[id] ?? 0 : 0) });
  const spans = (result: ReturnType<typeof goals>) => result.blocks.map((x) => [iso(x.start), iso(x.end)]);

  it.each([
    ['morning', span(0, '06:00', '07:00'), span(1, '06:00', '07:00')],
    ['afternoon', span(0, '12:00', '13:00'), span(1, '12:00', '13:00')],
    ['evening', span(0, '17:00', '18:00'), span(1, '17:00', '18:00')],
    [null, span(0, '09:00', '10:00'), span(1, '09:00', '10:00')],
  ])('places the week\'s minutes in the preferred period (%s; none: working hours), one block a day first', (period, first, second) => {
    const result = goals(board(), [goal({ preferredPeriod: period as PlanGoal['preferredPeriod'] })]);
    expect(spans(result)).toEqual([first, second].map((s) => [iso(s.start), iso(s.end)]));
    expect(result.blocks[0].reason.code).toBe(period ? 'preferred_period' : 'working_hours');
    expect(result.unplaced).toEqual([]);
  });

  // Sunday alone: the last day of the week, so the range holds all that is left of it.
  const sunday = { first: 6, days: 1 };

  it('takes the best free stretch of the day by the engine\'s ranking for focus: the longest in the period', () => {
    const result = goals(board({ ...sunday, busy: [span(6, '07:00', '08:00')] }), [goal({ weeklyMinutes: 60 })]);
    expect(spans(result)).toEqual([[iso(at(6, '08:00')), iso(at(6, '09:00'))]]);
    expect(result.blocks[0].reason.message).toBe(
      'Free in the morning (06:00-12:00), the goal\'s preferred period; 60 of 60 minutes still to plan in the week of 2030-11-04');
  });

  it.each([
    ['100 minutes with a 90-minute maximum: two even blocks', { weeklyMinutes: 100, maxBlockMinutes: 90 }, [50, 50]],
    ['200 minutes with a 90-minute maximum: three', { weeklyMinutes: 200, maxBlockMinutes: 90 }, [67, 67, 66]],
    ['no bounds: 30 to 120 minutes', { weeklyMinutes: 240, minBlockMinutes: null, maxBlockMinutes: null }, [120, 120]],
  ])('sizes blocks between the minimum and the maximum: %s', (_label, fields, minutes) => {
    const result = goals(board(), [goal(fields)]);
    expect(result.blocks.map((x) => (x.end - x.start) / 60_000)).toEqual(minutes);
  });

  it('puts more than one block on a day only when the days run out, apart', () => {
    const result = goals(board(sunday), [goal({ weeklyMinutes: 150, maxBlockMinutes: 60 })]);
    // Three blocks of 50, each in the longest stretch left: at least a quarter hour apart, starting on the quarter hour.
    expect(spans(result)).toEqual([
      [iso(at(6, '06:00')), iso(at(6, '06:50'))], [iso(at(6, '07:15')), iso(at(6, '08:05'))], [iso(at(6, '08:30')), iso(at(6, '09:20'))],
    ]);
    expect(result.blocks.map((x) => (x.end - x.start) / 60_000).reduce((s, m) => s + m, 0)).toBe(150);
  });

  it.each([
    ['already_planned: the week is planned', goal({}), 120, {}, 0, 'already_planned',
      '120 of 120 minutes are already planned in the week of 2030-11-04'],
    ['less_than_min_block: less than one block is left', goal({}), 100, {}, 20, 'less_than_min_block',
      '20 minutes are left in the week of 2030-11-04, less than one 30-minute block'],
    ['no_free_time: the preferred period is busy all week', goal({}), 0, { busy: [0, 1, 2, 3, 4, 5, 6].map((d) => span(d, '05:00', '12:30')) }, 120, 'no_free_time',
      'No free stretch of 30 minutes in the morning (06:00-12:00), the goal\'s preferred period in the week of 2030-11-04'],
    ['not_enough_free_time: some of it fits', goal({}), 0, { busy: [0, 1, 2, 3, 4, 5, 6].map((d) => span(d, d === 2 ? '06:45' : '05:00', '12:30')) }, 75, 'not_enough_free_time',
      'Only 45 of 120 minutes fit in the morning (06:00-12:00), the goal\'s preferred period in the week of 2030-11-04, in blocks of 30-60 minutes'],
    ['past_deadline', goal({ deadline: at(0, '00:00') }), 0, { now: at(0, '08:00') }, 0, 'past_deadline',
      'Its deadline passed before the time this plan covers'],
  ])('does not (fully) place a goal for %s', (_label, g, planned, options, minutes, code, message) => {
    const result = goals(board(options), [g], { [g.id]: planned });
    expect(result.unplaced).toEqual([{ kind: 'goal', id: g.id, title: g.name, minutes, weekStart: code === 'past_deadline' ? null : MONDAY, reason: { code, message } }]);
  });

  it('plans a week the range ends in for its share of the time ahead, and nothing after the deadline', () => {
    const nine = board({ days: 9 });
    const result = goals(nine, [goal({ weeklyMinutes: 210, maxBlockMinutes: 30 })]);
    const nextWeek = result.blocks.filter((x) => x.start >= at(7, '00:00'));
    // 2 of the 7 days of the next week: ceil(210 * 2 / 7) = 60 minutes.
    expect(nextWeek.map((x) => (x.end - x.start) / 60_000)).toEqual([30, 30]);
    expect(nextWeek[0].reason.message).toContain('(this plan\'s part of the 210 left)');
    // A deadline on Thursday cuts the week short: 3 of its 7 days, ceil(210 * 3 / 7) = 90 minutes, nothing after it.
    const due = goals(board({ days: 9 }), [goal({ weeklyMinutes: 210, maxBlockMinutes: 30, deadline: at(3, '00:00') })]);
    expect(due.blocks.map((x) => [iso(x.start), (x.end - x.start) / 60_000])).toEqual([0, 1, 2].map((d) => [iso(at(d, '06:00')), 30]));
    expect(due.unplaced).toEqual([]);
  });

  it('keeps the goals apart from each other and gives the same plan for the same inputs', () => {
    const list = [goal({ weeklyMinutes: 90 }), goal({ weeklyMinutes: 90 }), goal({ preferredPeriod: null, weeklyMinutes: 300, maxBlockMinutes: 120 })];
    const first = goals(board(), list);
    const overlapping = first.blocks.some((x, i) => first.blocks.some((y, j) => i !== j && x.start < y.end && y.start < x.end));
    expect(overlapping).toBe(false);
    expect(goals(board(), list)).toEqual(first);
  });

  it('reads the preferred period on the local clock across a DST change', () => {
    // Berlin moves to summer time on Sunday 2030-03-31: 06:00 is 05:00Z on Saturday and 04:00Z on Sunday.
    const saturday = epochAt('2030-03-30', 0, TZ);
    const range = { start: saturday, end: epochAt('2030-04-01', 0, TZ) };
    const b1: Board = { range, now: 0, timeZone: TZ, blocked: [], placed: [] };
    const week = { monday: '2030-03-25', start: epochAt('2030-03-25', 0, TZ), end: epochAt('2030-04-01', 0, TZ) };
    const result = planGoals({ board: b1, workingHours: DEFAULT_WORKING_HOURS, goals: [goal({ weeklyMinutes: 120 })], weeks: [week], plannedMinutes: () => 0 });
    expect(result.blocks.map((x) => iso(x.start))).toEqual(['2030-03-30T05:00:00.000Z', '2030-03-31T04:00:00.000Z']);
  });
});

describe('block sizes', () => {
  it.each([
    [90, 120, 30, 60, 60], [50, 120, 30, 60, 50], [70, 60, 30, 120, 40], [50, 40, 30, 120, 40], [20, 60, 30, 60, 0], [60, 20, 30, 60, 0],
  ])('need %i in %i free minutes with blocks of %i-%i: %i', (need, available, min, max, expected) => {
    expect(blockLength(need, available, min, max)).toBe(expected);
  });

  it.each([
    [{ minBlockMinutes: null, maxBlockMinutes: null }, { min: 30, max: 120 }],
    [{ minBlockMinutes: 150, maxBlockMinutes: null }, { min: 150, max: 150 }],
    [{ minBlockMinutes: null, maxBlockMinutes: 20 }, { min: 20, max: 20 }],
  ])('goal block bounds %j are %j', (goalFields, bounds) => {
    expect(blockBounds(goalFields)).toEqual(bounds);
  });
});
