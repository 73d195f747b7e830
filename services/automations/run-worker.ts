/**
 * Takes due runs and carries them: new runs at once, runs waiting for a webhook retry at its time, and runs whose
 * worker died once that worker's lease has run out. A run is claimed (compare-and-set) before it is carried, so two
 * workers never carry one run at the same time. On stop, the runs under way are handed back after their step.
 */
import type { Logger } from 'pino';
import { PollingWorker } from '../dispatcher/polling-worker';
import type { RunDoc, RunStore } from './run-store';

export interface RunWorkerOptions {
  leaseMs: number;
  maxInFlight?: number;
  pollMs?: number;
}

export class RunWorker extends PollingWorker {
  private readonly maxInFlight: number;

  constructor(
    private readonly runs: RunStore,
    private readonly carry: (run: RunDoc, carrying: () => boolean) => Promise<void>,
    private readonly options: RunWorkerOptions,
    log: Logger,
  ) {
    super(options.pollMs ?? 200, log, 'automation runs');
    this.maxInFlight = options.maxInFlight ?? 32;
  }

  protected async tick(): Promise<void> {
    if (this.inFlight.size >= this.maxInFlight) return;
    for (const doc of await this.runs.due(Date.now(), this.maxInFlight)) {
      if (!this.active || this.inFlight.size >= this.maxInFlight) return;
      if (this.inFlight.has(doc._id)) continue;
      const claimed = await this.runs.claim(doc, this.options.leaseMs);
      if (!claimed) continue;
      this.launch(claimed._id, this.carry(claimed, () => this.active).catch((err: unknown) => {
        this.log.warn({ err, run: claimed._id }, 'automation run interrupted; it resumes once its lease runs out');
      }));
    }
  }
}
