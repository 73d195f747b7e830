import type { Automation, AutomationRecord, AutomationSummary } from '../../contracts/automations';
import type { PageQuery } from '../../contracts/paging';
import { AUTOMATIONS, recordOf, type AutomationDoc } from '../../projections/automations.projection';
import type { ReadModels } from '../../projections/read-models';
import { runView, type RunDoc, type RunStore } from '../../services/automations/run-store';
import { pageOf } from '../shared/paging';

type RunStats = { count: number; last: RunDoc | null };
const NO_RUNS: RunStats = { count: 0, last: null };

const automationsOf = async (models: ReadModels) => (await models.docs(AUTOMATIONS))<AutomationDoc>('automations');

export async function ownAutomation(models: ReadModels, userId: string, id: string): Promise<AutomationRecord | null> {
  const doc = await (await automationsOf(models)).get(id);
  return doc && doc.ownerId === userId && doc.deletedAt === null ? recordOf(doc) : null;
}

/** Run count and most recent run of each automation. */
export async function runStats(runs: RunStore, automationIds: string[]): Promise<Map<string, RunStats>> {
  const entries = await Promise.all(automationIds.map(async (id) => {
    const [count, [last]] = await Promise.all([
      runs.runs.count({ automationId: id }),
      runs.runs.find({ automationId: id }, { sort: [['_sortKey', -1]], limit: 1 }),
    ]);
    return [id, { count, last: last ?? null }] as const;
  }));
  return new Map(entries);
}

export function automationView(a: AutomationRecord, stats: RunStats = NO_RUNS): Automation {
  const { deletedAt: _deleted, ...rest } = a;
  const last = stats.last;
  return {
    ...rest, enabled: a.isActive, ready: a.problems.length === 0, runCount: stats.count,
    lastRun: last && { id: last._id, status: last.status, startedAt: last.startedAt, finishedAt: last.finishedAt },
  };
}

export const summaryView = (a: Automation): AutomationSummary => ({
  id: a.id, name: a.name, triggerType: a.trigger.type, actionKinds: a.actions.map((x) => x.kind), isActive: a.isActive,
  enabled: a.isActive, ready: a.ready, runCount: a.runCount, lastRunAt: a.lastRun?.startedAt ?? null,
  lastRunStatus: a.lastRun?.status ?? null, createdAt: a.createdAt, updatedAt: a.updatedAt,
});

/** One automation as answered, with its run figures. */
export async function answeredAutomation(runs: RunStore, a: AutomationRecord): Promise<Automation> {
  return automationView(a, (await runStats(runs, [a.id])).get(a.id));
}

export async function automationPage(models: ReadModels, runs: RunStore, userId: string, query: PageQuery) {
  const page = await pageOf(await automationsOf(models), { ownerId: userId, deletedAt: null }, '_sortKey', query);
  const stats = await runStats(runs, page.items.map((d) => d._id));
  const automations = page.items.map((d) => summaryView(automationView(recordOf(d), stats.get(d._id))));
  return { automations, rules: automations, nextPageToken: page.nextPageToken };
}

export async function runPage(runs: RunStore, automationId: string, query: PageQuery) {
  const page = await pageOf(runs.runs, { automationId }, '_sortKey', query, -1);
  return { runs: page.items.map(runView), nextPageToken: page.nextPageToken };
}
