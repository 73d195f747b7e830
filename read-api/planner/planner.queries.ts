/** POST /planner/plan: gathers tasks or goals and the engine's free time, then runs the pure planning rules. */
import type { z } from 'zod';
import { PLANNER_LIMITS, type PlanBody, type PlanResponse } from '../../contracts/planner';
import type { Task } from '../../contracts/tasks';
import { publicView, type ReadModels } from '../../projections/read-models';
import { TASKS, type TaskDoc } from '../../projections/tasks.projection';
import { clip, mergeIntervals } from '../../services/availability/intervals';
import { addDays, epochAt, localDate, MINUTE_MS } from '../../services/time/local-time';
import type { Availability } from '../../services/availability/engine';
import type { Interval, Rules } from '../../services/availability/types';
import { ApiError, invalid, notFound } from '../../services/errors';
import { weekAt, weekOf } from '../../services/time/week';
import { computeFor } from '../availability/availability.queries';
import type { AvailabilitySources, Owner } from '../availability/sources';
import { allGoals, goalProgress, ownGoal } from '../goals/goals.queries';
import { visibleTask } from '../tasks/tasks.queries';
import type { Block, Board } from './board';
import { planGoals, type PlanGoal, type Week } from './plan-goals';
import { planTasks, taskOrder, type PlanTask } from './plan-tasks';

const isDate = (value: string) => /^\d{4}-\d{2}-\d{2}$/.test(value);
const iso = (ms: number) => new Date(ms).toISOString();

/** `from` and `to` as instants: a date is its local midnight (`to`: the midnight that ends it). */
export function planRange(body: Pick<PlanBody, 'from' | 'to'>, timeZone: string, now: number): Interval {
  const start = body.from === undefined ? epochAt(localDate(now, timeZone), 0, timeZone)
    : isDate(body.from) ? epochAt(body.from, 0, timeZone) : Date.parse(body.from);
  const end = body.to === undefined ? epochAt(addDays(localDate(start, timeZone), PLANNER_LIMITS.defaultDays), 0, timeZone)
    : isDate(body.to) ? epochAt(addDays(body.to, 1), 0, timeZone) : Date.parse(body.to);
  if (end < start) throw invalid('to must not be before from', [{ path: 'body.to', message: 'must not be before from' }]);
  // maxDays whole days (dates: the last one included), and the hour a change of clocks may add.
  if (end - start > PLANNER_LIMITS.maxDays * 86_400_000 + 3_600_000) {
    throw invalid(`A plan covers at most ${PLANNER_LIMITS.maxDays} days`, [{ path: 'body.to', message: `at most ${PLANNER_LIMITS.maxDays} days after from` }]);
  }
  return { start, end };
}

/** Busy time and routine periods kept (movable ones too: the plan works around them), without working hours. */
function boardOf(found: Availability, range: Interval, timeZone: string, now: number): Board {
  const kept = found.routines.filter((r) => r.status !== 'skipped');
  return { range, now, timeZone, blocked: mergeIntervals([...found.blocked, ...kept]), placed: [] };
}

/** Open tasks the caller is to do (assigned to them, or theirs and assigned to nobody), due from the range on or undated. */
async function openTasks(models: ReadModels, userId: string, range: Interval): Promise<Task[]> {
  const tasks = (await models.docs(TASKS))<TaskDoc>('tasks');
  const open = { _viewerId: userId, deletedAt: null, status: 'open' };
  const limit = 5 * PLANNER_LIMITS.items;
  const [dated, undated] = await Promise.all([
    tasks.find({ ...open, _dueMs: { $gte: range.start } }, { sort: [['_dueMs', 1], ['_sortKey', 1]], limit }),
    tasks.find({ ...open, _dueMs: null }, { sort: [['_sortKey', 1]], limit }),
  ]);
  return [...dated, ...undated]
    .map((d) => publicView<Task>(d))
    .filter((t) => t.assigneeId === null || t.assigneeId === userId);
}

const planTask = (t: Task): PlanTask => ({
  id: t.id, title: t.title, status: t.status, dueAt: t.dueAt === null ? null : Date.parse(t.dueAt),
  estimateMinutes: t.estimateMinutes, priority: t.priority, createdAt: t.createdAt,
});

/** Minutes of events linked to each task from now (or the range's start) to the range's end. */
function taskMinutes(found: Availability, range: Interval, now: number): Map<string, number> {
  const ahead = { start: Math.max(now, range.start), end: range.end };
  const out = new Map<string, number>();
  for (const o of found.occurrences) {
    const part = o.event.taskId ? clip(o, ahead) : null;
    if (part) out.set(o.event.taskId!, (out.get(o.event.taskId!) ?? 0) + Math.round((part.end - part.start) / MINUTE_MS));
  }
  return out;
}

function weeksOf(range: Interval, timeZone: string): Week[] {
  const out: Week[] = [];
  for (let week = weekAt(range.start, timeZone); week.start < range.end; week = weekOf(addDays(week.monday, 7), timeZone)) out.push(week);
  return out;
}

const deadlineEnd = (deadline: string | null, timeZone: string) =>
  deadline === null ? null : isDate(deadline) ? epochAt(addDays(deadline, 1), 0, timeZone) : Date.parse(deadline);

/** Each named item, or 404 naming those that are unknown or not the caller's. */
async function named<T>(ids: string[], find: (id: string) => Promise<T | null>): Promise<T[]> {
  const found = await Promise.all(ids.map(find));
  const absent = ids.filter((_, i) => !found[i]);
  if (absent.length) throw new ApiError(404, 'not_found', `Not found: ${absent.join(', ')}`, { ids: absent });
  return found as T[];
}

async function goalsPlan(models: ReadModels, userId: string, ids: string[] | undefined, board: Board, owner: Owner) {
  const goals = ids
    ? await named(ids, (id) => ownGoal(models, userId, id))
    : (await allGoals(models, userId)).slice(0, PLANNER_LIMITS.items);
  const weeks = weeksOf(board.range, owner.timeZone);
  const progress = await Promise.all(weeks.map((w) => goalProgress(models, goals.map((g) => g.id), w.start, w.end, board.now)));
  const byWeek = new Map(weeks.map((w, i) => [w.monday, progress[i]]));
  return planGoals({
    board, workingHours: owner.workingHours, weeks,
    goals: goals.map((g): PlanGoal => ({
      id: g.id, name: g.name, weeklyMinutes: g.weeklyMinutes, preferredPeriod: g.preferredPeriod,
      minBlockMinutes: g.minBlockMinutes, maxBlockMinutes: g.maxBlockMinutes, deadline: deadlineEnd(g.deadline, owner.timeZone),
    })),
    plannedMinutes: (goalId, monday) => byWeek.get(monday)?.get(goalId)?.plannedMinutes ?? 0,
  });
}

const blockView = (b: Block) => ({
  kind: b.kind, taskId: b.taskId, goalId: b.goalId, title: b.title, startsAt: iso(b.start), endsAt: iso(b.end),
  minutes: Math.round((b.end - b.start) / MINUTE_MS), reason: b.reason,
});

export async function plan(
  sources: AvailabilitySources, models: ReadModels, userId: string, body: PlanBody, now: number,
): Promise<z.infer<typeof PlanResponse>> {
  const owner = await sources.owner(userId);
  if (!owner) throw notFound('User');
  const range = planRange(body, owner.timeZone, now);
  const answer = { kind: body.kind, timeZone: owner.timeZone, from: iso(range.start), to: iso(range.end) };
  if (range.end === range.start) return { ...answer, blocks: [], unplaced: [] };
  const rules: Rules = { workingHours: null, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minimumNoticeMinutes: 0, now };
  const found = await computeFor(sources, userId, owner, range, rules);
  const board = boardOf(found, range, owner.timeZone, now);
  const result = body.kind === 'tasks'
    ? planTasks({
      board, workingHours: owner.workingHours,
      tasks: (body.ids ? await named(body.ids, (id) => visibleTask(models, userId, id)) : await openTasks(models, userId, range))
        .map(planTask).sort(taskOrder).slice(0, PLANNER_LIMITS.items),
      plannedMinutes: taskMinutes(found, range, now),
    })
    : await goalsPlan(models, userId, body.ids, board, owner);
  return { ...answer, blocks: result.blocks.map(blockView), unplaced: result.unplaced };
}
