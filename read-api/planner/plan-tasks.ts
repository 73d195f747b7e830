/**
 * Planning rules for tasks (docs/planner.md): by due date, priority and estimate, each in the first free time long
 * enough before it is due, split into blocks of at least 30 minutes when no free stretch holds it whole. A task is
 * placed whole or not at all. Pure and deterministic.
 */
import { PLANNER_RULES } from '../../contracts/planner';
import { MINUTE_MS } from '../../services/time/local-time';
import type { Interval, WeeklyHours } from '../../services/availability/types';
import { blockLength, freeIn, localText, minutesOf, place, type Block, type Board, type Unplaced } from './board';

export interface PlanTask {
  id: string;
  title: string;
  status: 'open' | 'done';
  dueAt: number | null;
  estimateMinutes: number | null;
  priority: 'low' | 'normal' | 'high';
  createdAt: string;
}

export interface TaskPlanInput {
  board: Board;
  workingHours: WeeklyHours;
  tasks: readonly PlanTask[];
  /** Minutes of blocks already linked to each task, from now to the end of the range. */
  plannedMinutes: ReadonlyMap<string, number>;
}

const PRIORITY = { high: 0, normal: 1, low: 2 } as const;
const MIN_BLOCK = PLANNER_RULES.minTaskBlockMinutes;
const estimateOf = (t: PlanTask) => t.estimateMinutes ?? PLANNER_RULES.defaultEstimateMinutes;

/** Due first (no due date last), then higher priority, then shorter estimate; creation order breaks ties. */
export const taskOrder = (a: PlanTask, b: PlanTask): number =>
  (a.dueAt ?? Infinity) - (b.dueAt ?? Infinity) ||
  PRIORITY[a.priority] - PRIORITY[b.priority] ||
  estimateOf(a) - estimateOf(b) ||
  a.createdAt.localeCompare(b.createdAt) ||
  a.id.localeCompare(b.id);

export function planTasks({ board, workingHours, tasks, plannedMinutes }: TaskPlanInput): { blocks: Block[]; unplaced: Unplaced[] } {
  const blocks: Block[] = [];
  const unplaced: Unplaced[] = [];
  for (const task of [...tasks].sort(taskOrder)) {
    const outcome = planTask(board, workingHours, task, plannedMinutes.get(task.id) ?? 0);
    if (Array.isArray(outcome)) blocks.push(...outcome);
    else unplaced.push(outcome);
  }
  return { blocks: blocks.sort((a, b) => a.start - b.start), unplaced };
}

function planTask(board: Board, hours: WeeklyHours, task: PlanTask, planned: number): Block[] | Unplaced {
  const tz = board.timeZone;
  const estimate = estimateOf(task);
  const assumed = task.estimateMinutes === null ? ` (no estimate: ${estimate} minutes assumed)` : '';
  const skip = (code: string, minutes: number, message: string): Unplaced => ({
    kind: 'task', id: task.id, title: task.title, minutes, weekStart: null, reason: { code, message },
  });
  if (task.status === 'done') return skip('task_done', 0, 'The task is done');
  if (estimate === 0) return skip('zero_estimate', 0, 'Estimated at 0 minutes: nothing to plan');
  const need = estimate - planned;
  if (need <= 0) return skip('already_planned', 0, `${planned} minutes are already planned from now on, for an estimate of ${estimate}${assumed}`);
  if (task.dueAt !== null && task.dueAt <= Math.max(board.now, board.range.start)) {
    return skip('past_due', need, `It was due ${localText(task.dueAt, tz)}, before the time this plan covers`);
  }
  const dueInRange = task.dueAt !== null && task.dueAt < board.range.end;
  const by = dueInRange ? ` before it is due (${localText(task.dueAt!, tz)})` : ' in the plan\'s range';
  const more = planned > 0 ? `; ${planned} minutes were already planned` : '';
  const block = (span: Interval, code: string, message: string): Block =>
    place(board, { ...span, kind: 'task', taskId: task.id, goalId: null, title: task.title, reason: { code, message } });

  const free = freeIn(board, { start: board.range.start, end: task.dueAt ?? board.range.end }, hours);
  const whole = free.find((w) => minutesOf(w) >= need);
  if (whole) {
    const span = { start: whole.start, end: whole.start + need * MINUTE_MS };
    return task.dueAt === null
      ? [block(span, 'no_due_date', `First free time long enough; the task has no due date${assumed}${more}`)]
      : [block(span, 'before_due', `First free time long enough before it is due (${localText(task.dueAt, tz)})${assumed}${more}`)];
  }

  const pieces: Interval[] = [];
  let left = need;
  for (const w of free) {
    const minutes = blockLength(left, minutesOf(w), MIN_BLOCK, Infinity);
    if (minutes === 0) continue;
    pieces.push({ start: w.start, end: w.start + minutes * MINUTE_MS });
    left -= minutes;
    if (left === 0) break;
  }
  if (left > 0) {
    const shortest = Math.min(need, MIN_BLOCK);
    const usable = free.map(minutesOf).filter((m) => m >= shortest).reduce((sum, m) => sum + m, 0);
    return skip(dueInRange ? 'no_time_before_due' : 'no_free_time', need,
      `Needs ${need} minutes${assumed}${by}; only ${usable} are free in stretches of at least ${shortest} minutes`);
  }
  const largest = Math.max(...free.map(minutesOf));
  return pieces.map((span, i) => block(span, 'split',
    `Part ${i + 1} of ${pieces.length}: ${need} minutes${assumed} are more than the largest free stretch${by} (${largest} minutes)${more}`));
}
