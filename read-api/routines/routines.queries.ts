import type { PageQuery } from '../../contracts/paging';
import { ROUTINE_LIMITS, type RoutineView } from '../../contracts/routines';
import { publicView, type ReadModels } from '../../projections/read-models';
import { ROUTINES, type RoutineDayDoc, type RoutineDoc } from '../../projections/routines.projection';
import { invalid } from '../../services/errors';
import { addDays, dayClock, daysBetween, localDate } from '../../services/time/local-time';
import { dayKey, occursOn } from '../../services/rules/routine-days';
import { userById } from '../profile/users.queries';
import { pageOf } from '../shared/paging';
import type { RoutineBlock } from '../../services/availability/types';
import { blockOf, instanceOf, type RoutineDayEntry } from './instances';

/** Routine times are wall-clock times of the owner's profile zone as it is now. */
export async function timeZoneOf(models: ReadModels, userId: string): Promise<string> {
  return (await userById(models, userId))?.timeZone ?? 'UTC';
}

const collection = async (models: ReadModels) => (await models.docs(ROUTINES))<RoutineDoc>('routines');

export async function routineOf(models: ReadModels, userId: string, id: string): Promise<RoutineView | null> {
  const doc = await (await collection(models)).get(id);
  return doc && doc.ownerId === userId && !doc.deletedAt ? publicView<RoutineView>(doc) : null;
}

export async function routinesPage(models: ReadModels, userId: string, query: PageQuery) {
  const page = await pageOf(await collection(models), { ownerId: userId, deletedAt: null }, '_sortKey', query);
  return { routines: page.items.map((d) => publicView<RoutineView>(d)), nextPageToken: page.nextPageToken };
}

/** Each period of each active routine on each date from `from` to `to` (both included), in start order. */
export async function routineDays(models: ReadModels, userId: string, timeZone: string, from: string, to: string): Promise<RoutineDayEntry[]> {
  const docs = await models.docs(ROUTINES);
  const routines = await docs<RoutineDoc>('routines').find(
    { ownerId: userId, deletedAt: null, isActive: true },
    { limit: ROUTINE_LIMITS.routinesPerUser },
  );
  const periodIds = routines.flatMap((r) => r.periods.map((p) => p.id));
  if (periodIds.length === 0) return [];
  const marked = await docs<RoutineDayDoc>('days').find({ ownerId: userId, periodId: { $in: periodIds }, date: { $gte: from, $lte: to } });
  const days = new Map(marked.map((d) => [d._id, d]));
  const out: RoutineDayEntry[] = [];
  for (let date = from; date <= to; date = addDays(date, 1)) {
    const occurring = routines.filter((r) => occursOn(r, date));
    if (occurring.length === 0) continue;
    const clock = dayClock(date, timeZone);
    for (const routine of occurring) {
      for (const period of routine.periods) {
        const instance = instanceOf(routine, period, date, days.get(dayKey(period.id, date)), clock);
        out.push({ instance, block: blockOf(instance, clock) });
      }
    }
  }
  return out.sort((a, b) => a.block.start - b.block.start || a.instance.routineId.localeCompare(b.instance.routineId) || a.instance.periodId.localeCompare(b.instance.periodId));
}

/**
 * The routine periods of `userId` overlapping [from, to) (epoch ms), with that day's times and status: for the
 * slices that plan around routines (availability). At most ROUTINE_LIMITS.blockDays dates.
 */
export async function routineBlocks(models: ReadModels, userId: string, from: number, to: number): Promise<RoutineBlock[]> {
  if (to <= from) return [];
  const timeZone = await timeZoneOf(models, userId);
  const first = localDate(from, timeZone);
  const last = localDate(to - 1, timeZone);
  if (daysBetween(first, last) >= ROUTINE_LIMITS.blockDays) {
    throw invalid(`The range may span at most ${ROUTINE_LIMITS.blockDays} days`, [{ path: 'to', message: 'range too long' }]);
  }
  const entries = await routineDays(models, userId, timeZone, first, last);
  return entries.map((e) => e.block).filter((b) => b.start < to && b.end > from);
}
