import { focusView, type FocusSessionRecord } from '../../contracts/focus';
import { MAX_GOALS, type Goal } from '../../contracts/goals';
import type { PageQuery } from '../../contracts/paging';
import { FOCUS } from '../../projections/focus.projection';
import { GOALS } from '../../projections/goals.projection';
import { publicView, type ReadModels } from '../../projections/read-models';
import type { Doc } from '../../services/readstore/read-store.port';
import { occurrences, type WithExceptions } from '../../services/time/recurrence';
import { overlapMinutes } from '../../services/time/week';
import { pageOf } from '../shared/paging';

/** Bounds of one progress read: blocks and sessions of a page of goals in one week. */
const MAX_BLOCKS = 2_000;
const MAX_SESSIONS = 2_000;
/** A session counts for a past block when it started during it or in the hour before. */
const SESSION_LEAD_MS = 3_600_000;

type BlockDoc = Doc & WithExceptions & { goalId: string; allDay: boolean };

export async function ownGoal(models: ReadModels, userId: string, goalId: string): Promise<Goal | null> {
  const doc = await (await models.docs(GOALS))('goals').get(goalId);
  return doc && doc.userId === userId && doc.deletedAt === null ? publicView<Goal>(doc) : null;
}

export async function goalsPage(models: ReadModels, userId: string, query: PageQuery) {
  const page = await pageOf((await models.docs(GOALS))('goals'), { userId, deletedAt: null }, '_sortKey', query);
  return { goals: page.items.map((d) => publicView<Goal>(d)), nextPageToken: page.nextPageToken };
}

export async function allGoals(models: ReadModels, userId: string): Promise<Goal[]> {
  const goals = (await models.docs(GOALS))('goals');
  const docs = await goals.find({ userId, deletedAt: null }, { sort: [['_sortKey', 1]], limit: MAX_GOALS });
  return docs.map((d) => publicView<Goal>(d));
}

export interface Progress {
  plannedMinutes: number;
  doneMinutes: number;
}

/**
 * Planned minutes: calendar blocks linked to the goal inside [from, to) (each occurrence of a recurring one, at its
 * real time; a cancelled one is not planned time).
 * Done minutes: stopped focus sessions for the goal that started in the range, plus blocks already over by `now`
 * that no such session worked through (a session replaces the block it was run for, so nothing counts twice).
 */
export async function goalProgress(
  models: ReadModels, goalIds: string[], from: number, to: number, now: number,
): Promise<Map<string, Progress>> {
  const out = new Map(goalIds.map((id) => [id, { plannedMinutes: 0, doneMinutes: 0 }]));
  if (goalIds.length === 0) return out;
  const [blocks, sessions] = await Promise.all([
    (await models.docs(GOALS))<BlockDoc>('blocks').find(
      { goalId: { $in: goalIds }, deletedAt: null, _startMs: { $lt: to }, _endBoundMs: { $gt: from } },
      { limit: MAX_BLOCKS },
    ),
    (await models.docs(FOCUS))('sessions').find(
      { goalId: { $in: goalIds }, status: 'stopped', _startMs: { $gte: from, $lt: to } },
      { limit: MAX_SESSIONS },
    ),
  ]);
  const sessionStarts = new Map<string, number[]>();
  for (const s of sessions) {
    const progress = out.get(s.goalId as string)!;
    progress.doneMinutes += focusView(publicView<FocusSessionRecord>(s), now).elapsedSeconds / 60;
    if (s.eventId) sessionStarts.set(s.eventId as string, [...(sessionStarts.get(s.eventId as string) ?? []), s._startMs as number]);
  }
  for (const block of blocks) {
    if (block.allDay) continue;
    const progress = out.get(block.goalId)!;
    const worked = sessionStarts.get(block._id) ?? [];
    for (const o of occurrences(block, from, to)) {
      const minutes = overlapMinutes(o.start, o.end, from, to);
      progress.plannedMinutes += minutes;
      const replaced = worked.some((start) => start >= o.start - SESSION_LEAD_MS && start < o.end);
      if (o.end <= now && !replaced) progress.doneMinutes += minutes;
    }
  }
  for (const p of out.values()) {
    p.plannedMinutes = Math.round(p.plannedMinutes);
    p.doneMinutes = Math.round(p.doneMinutes);
  }
  return out;
}
