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
  /** Runs of one owner carried at once: one person's slow receiver never takes every slot. */
  maxInFlightPerOwner?: number;
  pollMs?: number;
}

/** Due runs read per free slot: room to pass over the runs of owners at their cap. */
const READ_AHEAD = 4;

export class RunWorker extends PollingWorker {
  constructor(
    private readonly runs: RunStore,
    private readonly carry: (run: RunDoc, carrying: () => boolean) => Promise<void>,
    private readonly options: RunWorkerOptions,
    log: Logger,
  ) {
    super({ pollMs: options.pollMs ?? 200, maxInFlight: options.maxInFlight ?? 32, maxInFlightPerGroup: options.maxInFlightPerOwner ?? 8 }, log, 'automation runs');
  }

  protected async tick(): Promise<void> {
    if (this.free <= 0) return;
    for (const doc of await this.read(() => this.runs.due(Date.now(), this.free * READ_AHEAD))) {
      if (this.free <= 0) return;
      if (!this.mayStart(doc._id, doc.ownerId)) continue;
      const claimed = await this.runs.claim(doc, this.options.leaseMs);
      if (!claimed) continue;
      this.launch(claimed._id, claimed.ownerId, this.carry(claimed, () => this.active).catch((err: unknown) => {
        this.log.warn({ err, run: claimed._id }, 'automation run interrupted; it resumes once its lease runs out');
      }));
    }
  }
}
