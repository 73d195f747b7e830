/**
 * Automation runs are state documents in the read store (`_automation_runs`), like webhook deliveries: bookkeeping
 * of the runner, not changes a webhook or /sync speaks of. A run exists once per (automation, trigger event): its id
 * derives from both and it is created with insertNew before any step runs.
 *
 * `_pos` is a revision: every change is a `putIfNewer` with `_pos + 1` (compare-and-set on both adapters). A worker
 * running a run holds its `lease`; a change made under a lease that is no longer the run's is dropped, so a worker
 * whose lease ran out and was taken over can never record over the new holder.
 */
import type { AutomationRun, RunStatus, StepStatus } from '../../contracts/automations';
import { deterministicUuid, newId } from '../ids';
import type { Collection, Doc, ReadStore } from '../readstore/read-store.port';
import { changeByRevision } from '../readstore/revisions';
import type { DeliveredPayload } from '../dispatcher/audience';
import type { AttemptDoc } from '../dispatcher/webhook-store';

export const RUNS = '_automation_runs';

export const runId = (automationId: string, triggerEventId: string) => deterministicUuid('automation-run', automationId, triggerEventId);

export interface StepDoc {
  index: number;
  kind: string;
  status: StepStatus;
  output: Record<string, unknown> | null;
  error: { code: string; message: string } | null;
  attempts: AttemptDoc[];
  finishedAt: string | null;
}

export interface RunDoc extends Doc {
  _pos: number;
  /** The trigger's log position, padded: runs list newest trigger first. */
  _sortKey: string;
  automationId: string;
  ownerId: string;
  /** The automation's name and actions when the run began: a later edit never changes a run under way. */
  automationName: string;
  actions: Array<{ kind: string; config: Record<string, unknown> }>;
  triggerEventId: string;
  /** The trigger's payload as JSON: a payload's keys never become field names of the stored document. */
  triggerJson: string;
  /** The trigger event's correlation id (the request that caused it), for the logs; absent on older runs. */
  correlationId?: string;
  steps: StepDoc[];
  status: RunStatus;
  /** When a worker should take the run next: at once (new), a webhook retry's time, or the end of a lease. */
  dueMs: number | null;
  /** The claim of the worker running it, null while nobody does. */
  lease: string | null;
  startedAt: string;
  finishedAt: string | null;
}

export function newRun(
  automation: { id: string; ownerId: string; name: string; actions: RunDoc['actions'] },
  triggerEvent: DeliveredPayload,
  triggerPosition: number,
  correlationId?: string,
): RunDoc {
  return {
    _id: runId(automation.id, triggerEvent.id), _pos: 1, _sortKey: String(triggerPosition).padStart(20, '0'),
    automationId: automation.id, ownerId: automation.ownerId, automationName: automation.name, actions: automation.actions,
    triggerEventId: triggerEvent.id, triggerJson: JSON.stringify(triggerEvent), correlationId,
    steps: automation.actions.map((a, index) => ({
      index, kind: a.kind, status: 'pending', output: null, error: null, attempts: [], finishedAt: null,
    })),
    status: 'running', dueMs: Date.now(), lease: null, startedAt: new Date().toISOString(), finishedAt: null,
  };
}

export class RunStore {
  readonly runs: Collection<RunDoc>;

  constructor(store: ReadStore) {
    this.runs = store.collection<RunDoc>(RUNS);
  }

  async ensureIndexes(): Promise<void> {
    await this.runs.ensureIndex(['status', 'dueMs']);
    await this.runs.ensureIndex(['automationId', '_sortKey']);
  }

  /** Runs waiting for a worker, the longest waiting first. */
  due(now: number, limit: number): Promise<RunDoc[]> {
    return this.runs.find({ status: 'running', dueMs: { $lte: now } }, { sort: [['dueMs', 1], ['_id', 1]], limit });
  }

  /** Takes a run for `leaseMs` if nobody changed it since it was read; null otherwise. */
  async claim(doc: RunDoc, leaseMs: number): Promise<RunDoc | null> {
    const next: RunDoc = { ...doc, _pos: doc._pos + 1, lease: newId(), dueMs: Date.now() + leaseMs };
    return (await this.runs.putIfNewer(next)) ? next : null;
  }

  /** Applies `change` to the run while `lease` still holds it; null when the lease was lost or the run is gone. */
  async update(id: string, lease: string, change: (doc: RunDoc) => Partial<RunDoc>): Promise<RunDoc | null> {
    const { before, after } = await changeByRevision(this.runs, id, (doc) => (doc?.lease === lease ? { ...doc, ...change(doc) } : null));
    return before?.lease === lease ? after : null;
  }
}

export const triggerOf = (run: Pick<RunDoc, 'triggerJson'>) => JSON.parse(run.triggerJson) as DeliveredPayload;

export const runView = (d: RunDoc): AutomationRun => ({
  id: d._id,
  automationId: d.automationId,
  status: d.status,
  triggerEvent: triggerOf(d),
  steps: d.steps,
  startedAt: d.startedAt,
  finishedAt: d.finishedAt,
});
