/**
 * A worker that polls for due work and runs it in the background: it `tick`s, then waits `pollMs` unless woken
 * meanwhile (wake-ups arriving together, as many sends finish, make one poll rather than one each). Woken, it still
 * waits as long as its last poll's reads took (up to `pollMs`; a tick passes its reads through `read`): where a
 * read is an index lookup that is next to nothing; where it is a scan (FerretDB 1.x reads every document for any
 * filter but `_id`), polling keeps to half of the time instead of all of it. Only the reads count: a tick's claims
 * wait their turn behind all else the process does, and after a burst they held the next wake-up back by most of
 * `pollMs`. Work under way is tracked by id, so a tick never launches one piece twice and stop() waits for all of
 * it, and counted by group (a webhook, an owner), so one group can be kept to its share of the slots.
 */
import type { Logger } from 'pino';

const COALESCE_MS = 1;

export interface PollingLimits {
  pollMs: number;
  /** Pieces of work under way at once. */
  maxInFlight: number;
  /** Of those, at most this many of one group. */
  maxInFlightPerGroup: number;
}

export abstract class PollingWorker {
  protected readonly inFlight = new Map<string, Promise<void>>();
  private readonly perGroup = new Map<string, number>();
  private running = false;
  private loop: Promise<void> | null = null;
  private wakeUp: (() => void) | null = null;
  private woken = false;
  /** Milliseconds the current tick spent in `read` (an ES private field: a subclass's own `readMs` cannot clash). */
  #readMs = 0;

  constructor(
    protected readonly limits: PollingLimits,
    protected readonly log: Logger,
    private readonly what: string,
  ) {}

  /** Finds due work and launches it. */
  protected abstract tick(): Promise<void>;

  /** Until stop() is called. */
  protected get active(): boolean {
    return this.running;
  }

  start(): void {
    this.running = true;
    this.loop = this.run();
  }

  /** Something became due: look now rather than at the next poll. */
  wake(): void {
    this.woken = true;
    this.wakeUp?.();
  }

  /** Launches nothing more and waits for the work under way (each piece is bounded). */
  async stop(): Promise<void> {
    this.running = false;
    this.wake();
    await this.loop;
    await Promise.all(this.inFlight.values());
  }

  /** A read of due work: its time counts toward the wait after a wake-up. */
  protected async read<T>(query: () => Promise<T>): Promise<T> {
    const started = Date.now();
    try {
      return await query();
    } finally {
      this.#readMs += Date.now() - started;
    }
  }

  /** Slots left for more work (none once stopped). */
  protected get free(): number {
    return this.running ? this.limits.maxInFlight - this.inFlight.size : 0;
  }

  /** True when `id` may start now: not under way already, and its group below its share. */
  protected mayStart(id: string, group: string): boolean {
    return !this.inFlight.has(id) && this.inFlightOf(group) < this.limits.maxInFlightPerGroup;
  }

  private inFlightOf(group: string): number {
    return this.perGroup.get(group) ?? 0;
  }

  /** Runs `work` for `id` of `group` in the background; once it settles, its slot is free and the loop looks again. */
  protected launch(id: string, group: string, work: Promise<void>): void {
    this.perGroup.set(group, this.inFlightOf(group) + 1);
    this.inFlight.set(id, work.finally(() => {
      this.inFlight.delete(id);
      const left = this.inFlightOf(group) - 1;
      if (left > 0) this.perGroup.set(group, left);
      else this.perGroup.delete(group);
      this.wake();
    }));
  }

  private async run(): Promise<void> {
    while (this.running) {
      this.woken = false;
      this.#readMs = 0;
      try {
        await this.tick();
      } catch (err) {
        this.log.warn({ err }, `${this.what}: polling failed; will retry`);
      }
      const took = this.#readMs;
      if (!this.woken && this.running) await this.sleep();
      // After a full sleep the poll interval has passed already; only a wake-up waits as long as the reads took.
      if (this.woken && this.running) await new Promise((resolve) => setTimeout(resolve, Math.max(COALESCE_MS, Math.min(took, this.limits.pollMs))));
    }
  }

  private sleep(): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(() => done(), this.limits.pollMs);
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      this.wakeUp = done;
    });
  }
}
