/**
 * GET /insights: the week's aggregates and the week before's, from the insights projection, plus what only the
 * read can know: occurrences of recurring series in the two weeks (their exceptions applied), goal progress up to
 * now, routine periods the routines scheduled.
 */
import { EVENT_KINDS } from '../../contracts/events';
import type { Insights } from '../../contracts/insights';
import { emptyTotals, INSIGHTS, weekDocId, type WeekDoc, type WeekTotals } from '../../projections/insights.projection';
import type { ReadModels } from '../../projections/read-models';
import type { Doc } from '../../services/readstore/read-store.port';
import { occurrences, type ExceptionLike, type WithExceptions } from '../../services/time/recurrence';
import { overlapMinutes, weekOf, type Week } from '../../services/time/week';
import { addDays, isoWeekday } from '../../services/time/local-time';
import { allGoals, goalProgress } from '../goals/goals.queries';

/** Bounds of one read: recurring series and routines of one person. */
const MAX_SERIES = 500;
const MAX_ROUTINES = 200;

/** A series as the insights projection keeps it: an exception may count its occurrence as another kind. */
type SeriesDoc = Doc & WithExceptions<ExceptionLike & { kind?: string }> & { kind: string };
type RoutineDoc = Doc & { isActive: boolean; days: number[]; periodCount: number; firstDate: string; endDate: string | null };

const compare = (thisWeek: number, previousWeek: number) => ({
  thisWeek: Math.round(thisWeek), previousWeek: Math.round(previousWeek), change: Math.round(thisWeek) - Math.round(previousWeek),
});

const round3 = (x: number) => Math.round(x * 1000) / 1000;

function compareRates(thisWeek: number | null, previousWeek: number | null) {
  const change = thisWeek === null || previousWeek === null ? null : round3(thisWeek - previousWeek);
  return { thisWeek, previousWeek, change };
}

async function weekTotals(models: ReadModels, userId: string, week: Week): Promise<WeekTotals> {
  const doc = await (await models.docs(INSIGHTS))<WeekDoc>('weeks').get(weekDocId(userId, week.monday));
  if (!doc) return emptyTotals();
  return { minutesByKind: { ...doc.minutesByKind }, focusSessions: doc.focusSessions, routinePeriods: doc.routinePeriods };
}

/** Adds each occurrence of the person's recurring series to the week it falls in. */
async function addSeries(models: ReadModels, userId: string, weeks: Array<[Week, WeekTotals]>) {
  const from = weeks[0][0].start;
  const to = weeks[weeks.length - 1][0].end;
  const series = await (await models.docs(INSIGHTS))<SeriesDoc>('events').find(
    { userId, _recurring: true, _startMs: { $lt: to }, _endBoundMs: { $gt: from } },
    { limit: MAX_SERIES },
  );
  for (const s of series) {
    for (const o of occurrences(s, from, to)) {
      const kind = o.change?.kind ?? s.kind;
      for (const [week, totals] of weeks) {
        const minutes = overlapMinutes(o.start, o.end, week.start, week.end);
        if (minutes > 0) totals.minutesByKind[kind] = (totals.minutesByKind[kind] ?? 0) + minutes;
      }
    }
  }
}

/** Periods the person's routines scheduled in the week: each period on each of its days the routine existed. */
function scheduledPeriods(routines: RoutineDoc[], week: Week): number {
  let count = 0;
  for (let i = 0; i < 7; i++) {
    const date = addDays(week.monday, i);
    for (const r of routines) {
      const existed = r.firstDate <= date && (r.endDate === null || date < r.endDate);
      if (r.isActive && existed && r.days.includes(isoWeekday(date))) count += r.periodCount;
    }
  }
  return count;
}

export async function weeklyInsights(
  models: ReadModels, userId: string, monday: string, timeZone: string, now: number,
): Promise<Insights> {
  const current = weekOf(monday, timeZone);
  const previous = weekOf(addDays(monday, -7), timeZone);
  const [thisTotals, previousTotals, routines, goals] = await Promise.all([
    weekTotals(models, userId, current),
    weekTotals(models, userId, previous),
    (await models.docs(INSIGHTS))<RoutineDoc>('routines').find({ userId }, { limit: MAX_ROUTINES }),
    allGoals(models, userId),
  ]);
  await addSeries(models, userId, [[previous, previousTotals], [current, thisTotals]]);
  const ids = goals.map((g) => g.id);
  const [thisGoals, previousGoals] = await Promise.all([
    goalProgress(models, ids, current.start, current.end, now),
    goalProgress(models, ids, previous.start, previous.end, now),
  ]);
  const kind = (k: string) => compare(thisTotals.minutesByKind[k] ?? 0, previousTotals.minutesByKind[k] ?? 0);
  const scheduled = [scheduledPeriods(routines, current), scheduledPeriods(routines, previous)];
  const completed = [thisTotals.routinePeriods.completed, previousTotals.routinePeriods.completed];
  const completion = scheduled.map((s, i) => (s > 0 ? round3(Math.min(1, completed[i] / s)) : null));
  return {
    week: { from: current.monday, to: addDays(current.monday, 6), timeZone },
    previousWeek: { from: previous.monday, to: addDays(previous.monday, 6) },
    minutesByKind: Object.fromEntries(EVENT_KINDS.map((k) => [k, kind(k)])) as Insights['minutesByKind'],
    meetingsVsFocus: { meetingMinutes: kind('meeting'), focusMinutes: kind('focus') },
    focusSessions: {
      count: compare(thisTotals.focusSessions.count, previousTotals.focusSessions.count),
      minutes: compare(thisTotals.focusSessions.minutes, previousTotals.focusSessions.minutes),
    },
    goals: goals.map((g) => ({
      goalId: g.id, name: g.name, weeklyMinutes: g.weeklyMinutes,
      plannedMinutes: compare(thisGoals.get(g.id)!.plannedMinutes, previousGoals.get(g.id)!.plannedMinutes),
      doneMinutes: compare(thisGoals.get(g.id)!.doneMinutes, previousGoals.get(g.id)!.doneMinutes),
    })),
    routines: {
      completedPeriods: compare(completed[0], completed[1]),
      scheduledPeriods: compare(scheduled[0], scheduled[1]),
      completion: compareRates(completion[0], completion[1]),
    },
  };
}
