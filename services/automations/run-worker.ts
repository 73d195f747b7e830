/**
 * Takes due runs and carries them: new runs at once, runs waiting for a webhook retry at its time, and runs whose
 * worker died once that worker's lease has run out. A run is claimed (compare-and-set) before it is carried, so two
 * workers never carry one run at the same time.
 */
import type { Logger } from 'pino';
import type { RunDoc, RunStore } from './run-store';

export interface RunWorkerOptions {
  leaseMs: number;
  maxInFlight?: number;
  pollMs?: number;
}

export class RunWorker {
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  private readonly inFlight = new Map<string, Promise<void>>();

  constructor(
    private readonly runs: RunStore,
    private readonly carry: (run: RunDoc) => Promise<void>,
    private readonly options: RunWorkerOptions,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.running = true;
    this.loop = this.poll();
  }

  /** A run became due (a new one, a finished one freed a slot): look now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Takes no more runs and lets the ones under way reach their next record (each step is bounded). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.all(this.inFlight.values());
  }

  private async poll(): Promise<void> {
    while (this.running) {
      this.woken = false;
      try {
        await this.take();
      } catch (err) {
        this.log.warn({ err }, 'automation runs: polling failed; will retry');
      }
      if (this.woken || !this.running) continue;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, this.options.pollMs ?? 200);
        this.wakeUp = () => {
          clearTimeout(timer);
          resolve();
        };
      });
      this.wakeUp = null;
    }
  }

  private async take(): Promise<void> {
    const max = this.options.maxInFlight ?? 32;
    if (this.inFlight.size >= max) return;
    for (const doc of await this.runs.due(Date.now(), max)) {
      if (!this.running || this.inFlight.size >= max) return;
      if (this.inFlight.has(doc._id)) continue;
      const claimed = await this.runs.claim(doc, this.options.leaseMs);
      if (claimed) this.launch(claimed);
    }
  }

  private launch(run: RunDoc): void {
    const work = this.carry(run)
      .catch((err: unknown) => this.log.warn({ err, run: run._id }, 'automation run interrupted; it resumes once its lease runs out'))
      .finally(() => {
        this.inFlight.delete(run._id);
        this.wake();
      });
    this.inFlight.set(run._id, work);
  }
}
