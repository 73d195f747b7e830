/**
 * Planning rules for weekly goals (docs/planner.md): per week of the range, the minutes not yet planned that week
 * (a share of them for a week the range ends in), in the goal's preferred part of the day (else working hours), in
 * blocks between its minimum and maximum, one a day first, best stretch of the day by the engine's ranking for
 * focus. Pure and deterministic.
 */
import { PLANNER_RULES } from '../../contracts/planner';
import { clip, overlaps } from '../../services/availability/intervals';
import { localDate, localDays, MINUTE_MS } from '../../services/time/local-time';
import { DAY_PERIODS, rankFree, type DayPeriod } from '../../services/availability/ranking';
import type { Interval, WeeklyHours } from '../../services/availability/types';
import { everyDay } from '../../services/availability/weekly-hours';
import { blockLength, freeIn, place, type Block, type Board, type Unplaced } from './board';

export interface PlanGoal {
  id: string;
  name: string;
  weeklyMinutes: number;
  preferredPeriod: DayPeriod | null;
  minBlockMinutes: number | null;
  maxBlockMinutes: number | null;
  /** The instant the goal ends (the end of its deadline date), or null. */
  deadline: number | null;
}

export interface Week extends Interval {
  monday: string;
}

export interface GoalPlanInput {
  board: Board;
  workingHours: WeeklyHours;
  goals: readonly PlanGoal[];
  /** The weeks (Monday to Monday in the person's zone) the range touches, in order. */
  weeks: readonly Week[];
  /** Minutes of blocks linked to the goal in the whole week, as GET /goals counts them. */
  plannedMinutes(goalId: string, monday: string): number;
}

/** A goal's block bounds: its own, else 30 to 120 minutes (kept in order when only one bound is set). */
export function blockBounds(goal: Pick<PlanGoal, 'minBlockMinutes' | 'maxBlockMinutes'>): { min: number; max: number } {
  const min = goal.minBlockMinutes ?? Math.min(PLANNER_RULES.defaultMinBlockMinutes, goal.maxBlockMinutes ?? Infinity);
  return { min, max: goal.maxBlockMinutes ?? Math.max(PLANNER_RULES.defaultMaxBlockMinutes, min) };
}

const clock = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

export function planGoals(input: GoalPlanInput): { blocks: Block[]; unplaced: Unplaced[] } {
  const { board, goals, weeks } = input;
  const blocks: Block[] = [];
  const unplaced: Unplaced[] = [];
  for (const goal of goals) {
    if (goal.deadline !== null && goal.deadline <= Math.max(board.now, board.range.start)) {
      unplaced.push(skip(goal, null, 'past_deadline', 0, 'Its deadline passed before the time this plan covers'));
      continue;
    }
    for (const week of weeks) {
      const window = { start: Math.max(week.start, board.range.start), end: Math.min(week.end, board.range.end, goal.deadline ?? Infinity) };
      if (window.end <= window.start) continue;
      const outcome = planWeek(input, goal, week, window);
      blocks.push(...outcome.blocks);
      if (outcome.unplaced) unplaced.push(outcome.unplaced);
    }
  }
  return { blocks: blocks.sort((a, b) => a.start - b.start || a.goalId!.localeCompare(b.goalId!)), unplaced };
}

function skip(goal: PlanGoal, weekStart: string | null, code: string, minutes: number, message: string): Unplaced {
  return { kind: 'goal', id: goal.id, title: goal.name, minutes, weekStart, reason: { code, message } };
}

function planWeek(input: GoalPlanInput, goal: PlanGoal, week: Week, window: Interval): { blocks: Block[]; unplaced?: Unplaced } {
  const { board } = input;
  const tz = board.timeZone;
  const { min, max } = blockBounds(goal);
  const planned = input.plannedMinutes(goal.id, week.monday);
  const remaining = goal.weeklyMinutes - planned;
  const ofWeek = `in the week of ${week.monday}`;
  if (remaining <= 0) {
    return { blocks: [], unplaced: skip(goal, week.monday, 'already_planned', 0, `${planned} of ${goal.weeklyMinutes} minutes are already planned ${ofWeek}`) };
  }
  // The range's share of what is left: all of it when the range runs to the week's end, else its part of the time still ahead.
  const ahead = week.end - window.start;
  const share = window.end >= week.end ? remaining : Math.ceil((remaining * (window.end - window.start)) / ahead);
  const shareText = share < remaining ? ` (this plan's part of the ${remaining} left)` : '';
  if (share < min) {
    return { blocks: [], unplaced: skip(goal, week.monday, 'less_than_min_block', share, `${share} minutes${shareText} are left ${ofWeek}, less than one ${min}-minute block`) };
  }

  const period = goal.preferredPeriod;
  const hours = period ? everyDay(DAY_PERIODS[period].startMinute, DAY_PERIODS[period].endMinute) : input.workingHours;
  const where = period
    ? `in the ${period} (${clock(DAY_PERIODS[period].startMinute)}-${clock(DAY_PERIODS[period].endMinute)}), the goal's preferred period`
    : 'in working hours (the goal has no preferred period)';
  // As even as the maximum allows: 100 minutes with a 90-minute maximum are two blocks of 50.
  const target = Math.max(min, Math.ceil(share / Math.ceil(share / max)));
  const step = PLANNER_RULES.stepMinutes * MINUTE_MS;
  const days = localDays(localDate(window.start, tz), Math.round((week.end - week.start) / 86_400_000) + 1, tz)
    .map((d) => clip(d, window))
    .filter((d): d is NonNullable<typeof d> => d !== null && d.end > d.start);
  const placed: Block[] = [];
  let need = share;
  for (const onePerDay of [true, false]) {
    for (const day of days) {
      if (onePerDay && placed.some((b) => overlaps(b, day))) continue;
      while (need > 0) {
        // A break of one step between blocks of the goal, so two never make one longer than its maximum.
        const apart = placed.map((b) => ({ start: b.start - step, end: b.end + step }));
        const ranked = rankFree(freeIn(board, day, hours, apart), { purpose: 'focus', preferred: period ?? undefined, timeZone: tz });
        const best = ranked.map((s) => ({ s, minutes: blockLength(need, s.minutes, min, target) })).find((c) => c.minutes > 0);
        if (!best) break;
        placed.push(place(board, {
          start: best.s.start, end: best.s.start + best.minutes * MINUTE_MS, kind: 'focus', taskId: null, goalId: goal.id,
          title: goal.name,
          reason: { code: period ? 'preferred_period' : 'working_hours', message: `Free ${where}; ${need} of ${goal.weeklyMinutes} minutes still to plan ${ofWeek}${shareText}` },
        }));
        need -= best.minutes;
        if (onePerDay) break;
      }
    }
  }
  if (need === 0) return { blocks: placed };
  if (placed.length && need < min) {
    return { blocks: placed, unplaced: skip(goal, week.monday, 'less_than_min_block', need, `${need} minutes are left ${ofWeek}, less than one ${min}-minute block`) };
  }
  const code = placed.length ? 'not_enough_free_time' : 'no_free_time';
  const message = placed.length
    ? `Only ${share - need} of ${share} minutes${shareText} fit ${where} ${ofWeek}, in blocks of ${min}-${max} minutes`
    : `No free stretch of ${min} minutes ${where} ${ofWeek}`;
  return { blocks: placed, unplaced: skip(goal, week.monday, code, need, message) };
}
