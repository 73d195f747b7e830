/**
 * Carries a claimed run forward from its first unfinished step, recording each step's outcome before the next one
 * starts. The first failure ends the run and skips the rest; a call_webhook waiting for a retry hands the run back
 * (due at the retry's time); an automation switched off cancels what is left, a deleted one takes its runs along.
 * A worker that stops hands its runs back between steps, so another process takes them over without waiting.
 */
import type { Logger } from 'pino';
import { AUTOMATIONS } from '../../projections/automations.projection';
import type { AppContext } from '../app-context';
import { runStep, type StepOutcome, type StepServices } from './actions';
import type { RunDoc, RunStore, StepDoc } from './run-store';

const unfinished = (s: StepDoc) => s.status === 'pending' || s.status === 'retrying';

/** The run's fields once step `index` had `outcome`. */
export function recorded(run: RunDoc, index: number, outcome: StepOutcome, leaseMs: number): Partial<RunDoc> {
  const now = new Date().toISOString();
  const done = outcome.status !== 'retrying';
  const steps = run.steps.map((s): StepDoc => {
    if (s.index === index) {
      return {
        ...s,
        status: outcome.status,
        output: outcome.status === 'succeeded' ? outcome.output : null,
        error: outcome.status === 'failed' ? outcome.error : null,
        attempts: outcome.attempt ? [...s.attempts, outcome.attempt] : s.attempts,
        finishedAt: done ? now : null,
      };
    }
    return outcome.status === 'failed' && s.index > index ? { ...s, status: 'skipped' } : s;
  });
  if (outcome.status === 'retrying') return { steps, dueMs: outcome.nextAttemptMs, lease: null };
  const last = !steps.some(unfinished);
  if (outcome.status === 'failed' || last) {
    return { steps, status: outcome.status === 'failed' ? 'failed' : 'succeeded', finishedAt: now, dueMs: null, lease: null };
  }
  return { steps, dueMs: Date.now() + leaseMs };
}

const cancelled = (run: RunDoc): Partial<RunDoc> => ({
  steps: run.steps.map((s) => (unfinished(s) ? { ...s, status: 'skipped' } : s)),
  status: 'cancelled', finishedAt: new Date().toISOString(), dueMs: null, lease: null,
});

export function chainRunner(app: AppContext, log: Logger, runs: RunStore, services: StepServices, leaseMs: number) {
  const automationOf = async (id: string) => (await app.readModels.docs(AUTOMATIONS))('automations').get(id);
  const finished = (run: RunDoc | null) => {
    if (!run || run.status === 'running') return;
    app.metrics.automationRuns.inc({ status: run.status });
    log.info({ correlationId: run.correlationId, run: run._id, automationId: run.automationId, status: run.status }, 'automation run finished');
  };

  /** Carries the run while `carrying()` holds; when it stops holding, the run is handed back, due at once. */
  return async function carry(claimed: RunDoc, carrying: () => boolean): Promise<void> {
    let run: RunDoc | null = claimed;
    while (run && run.status === 'running') {
      const lease: string = run.lease!;
      if (!carrying()) return void (await runs.update(run._id, lease, () => ({ lease: null, dueMs: Date.now() })));
      const step = run.steps.find(unfinished);
      const automation = await automationOf(run.automationId);
      if (!automation || automation.deletedAt) return void (await runs.runs.delete(run._id));
      if (!automation.isActive || !step) {
        return finished(await runs.update(run._id, lease, cancelled));
      }
      const outcome = await runStep(services, { run, index: step.index });
      run = await runs.update(run._id, lease, (current) => recorded(current, step.index, outcome, leaseMs));
      finished(run);
      if (outcome.status === 'retrying') return;
    }
  };
}
