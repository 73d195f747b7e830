import { schemaVersionOf } from '../../contracts/domain-events';
import type { EventStore, NewEvent } from '../eventstore/event-store.port';
import { WrongExpectedRevisionError } from '../eventstore/event-store.port';
import { deterministicUuid } from '../ids';
import type { Decider } from './decider';

export interface CommandContext {
  userId: string | null;
  /** Unique per command (derived from the Idempotency-Key when there is one): event ids derive from it. */
  commandId: string;
  correlationId: string;
  spaceId?: string;
}

export interface Handled<Event> {
  /** What the decider decided (empty when the command changed nothing). */
  events: Event[];
  /** The ids the decided events were stored under, in order. */
  eventIds: string[];
  /** Global position of this command's last event; null when it decided nothing. */
  position: number | null;
}

type AnyEvent = { type: string; data: unknown };
type AnyDecider = Decider<unknown, AnyEvent, unknown>;

interface Cached {
  state: unknown;
  revision: number;
}

interface Pending {
  decider: AnyDecider;
  command: unknown;
  ctx: CommandContext;
  resolve(result: Handled<AnyEvent>): void;
  reject(error: unknown): void;
}

interface Lane {
  queue: Pending[];
  running: boolean;
  reads: Array<() => void>;
}

const MAX_ATTEMPTS = 20;
const CACHE_LIMIT = 20_000;

/**
 * Reads a stream, decides, appends with the expected revision and retries on a revision conflict.
 *
 * Folded states are cached per stream, so a command reads only the events appended since the cached revision.
 * Commands for one stream form a lane: while one append is in flight the next commands wait, then are decided one
 * after another on the evolving state and appended together in one append (one fsync). Across processes the
 * expected revision keeps them safe: on a conflict the cache is dropped and the whole batch decided again.
 */
export class CommandHandler {
  private readonly cache = new Map<string, Cached>();
  private readonly lanes = new Map<string, Lane>();
  /** Command ids run again after a crash (their count of runs in progress). */
  private readonly recovered = new Map<string, number>();

  constructor(private readonly store: EventStore) {}

  handle<C, E extends AnyEvent, S>(
    streamId: string,
    decider: Decider<C, E, S>,
    command: C,
    ctx: CommandContext,
  ): Promise<Handled<E>> {
    return new Promise<Handled<AnyEvent>>((resolve, reject) => {
      const lane = this.lane(streamId);
      lane.queue.push({ decider: decider as unknown as AnyDecider, command, ctx, resolve, reject });
      if (!lane.running) void this.drain(streamId, lane);
    }) as Promise<Handled<E>>;
  }

  /**
   * The current folded state of a stream, for reading only, and only until the caller's next await: the handler
   * evolves cached states in place.
   */
  async load<C, E extends AnyEvent, S>(streamId: string, decider: Decider<C, E, S>): Promise<{ state: S; revision: number }> {
    const lane = this.lane(streamId);
    if (lane.running) await new Promise<void>((resolve) => lane.reads.push(resolve)); // next() hands it over running
    else lane.running = true;
    try {
      const cached = await this.refresh(streamId, decider as unknown as AnyDecider);
      return { state: cached.state as S, revision: cached.revision };
    } finally {
      lane.running = false;
      this.next(streamId, lane);
    }
  }

  /**
   * Runs `run` with the commands it issues under `commandId` in recovery: a request run again after its process died
   * (idempotency). A command whose events are already in its stream is answered from them instead of being decided
   * again, so the retry gets the first run's result rather than a refusal like "already exists".
   */
  async recovering<T>(commandId: string, run: () => Promise<T>): Promise<T> {
    this.recovered.set(commandId, (this.recovered.get(commandId) ?? 0) + 1);
    try {
      return await run();
    } finally {
      const left = this.recovered.get(commandId)! - 1;
      if (left > 0) this.recovered.set(commandId, left);
      else this.recovered.delete(commandId);
    }
  }

  /** Drops every folded state (a user was erased: states may hold what can no longer be read). */
  forgetStates(): void {
    this.cache.clear();
  }

  private lane(streamId: string): Lane {
    let lane = this.lanes.get(streamId);
    if (!lane) this.lanes.set(streamId, (lane = { queue: [], running: false, reads: [] }));
    return lane;
  }

  /** Hands the lane to the next waiting reader or batch, or forgets it when idle. */
  private next(streamId: string, lane: Lane): void {
    const reader = lane.reads.shift();
    if (reader) {
      lane.running = true;
      return reader();
    }
    if (lane.queue.length > 0) return void this.drain(streamId, lane);
    this.lanes.delete(streamId);
  }

  private async drain(streamId: string, lane: Lane): Promise<void> {
    lane.running = true;
    const batch = lane.queue.splice(0);
    try {
      await this.run(streamId, batch);
    } catch (error) {
      for (const p of batch) p.reject(error);
    } finally {
      lane.running = false;
      this.next(streamId, lane);
    }
  }

  private async run(streamId: string, pending: Pending[]): Promise<void> {
    const batch = await this.answerStored(streamId, pending);
    if (batch.length === 0) return;
    for (let attempt = 1; ; attempt++) {
      const current = await this.refresh(streamId, batch[0].decider);
      const decided = this.decideAll(streamId, current, batch);
      const toAppend = decided.flatMap((d) => d.events);
      if (toAppend.length === 0) {
        decided.forEach((d) => (d.error ? d.pending.reject(d.error) : d.pending.resolve({ events: [], eventIds: [], position: null })));
        return;
      }
      try {
        const expected = current.revision < 0 ? 'no_stream' : current.revision;
        const result = await this.store.append(streamId, toAppend, expected);
        current.revision = result.revision;
        let at = 0;
        for (const d of decided) {
          if (d.error) d.pending.reject(d.error);
          else {
            at += d.events.length;
            d.pending.resolve({
              events: d.decided,
              eventIds: d.events.map((e) => e.id),
              position: d.events.length ? result.positions[at - 1] : null,
            });
          }
        }
        return;
      } catch (error) {
        this.cache.delete(streamId); // the state holds the batch's speculative events
        const retry = error instanceof WrongExpectedRevisionError && attempt < MAX_ATTEMPTS;
        if (retry) continue;
        if (batch.length === 1) throw error;
        // Not a conflict: let each command succeed or fail on its own, with its own error.
        for (const p of batch) await this.run(streamId, [p]).catch((own: unknown) => p.reject(own));
        return;
      }
    }
  }

  /** Resolves the recovered commands whose events the stream already holds (whole stream read: a rare path). */
  private async answerStored(streamId: string, batch: Pending[]): Promise<Pending[]> {
    if (!batch.some((p) => this.recovered.has(p.ctx.commandId))) return batch;
    const stored = await this.store.readStream(streamId);
    return batch.filter((p) => {
      if (!this.recovered.has(p.ctx.commandId)) return true;
      const mine = stored.filter((e) => e.metadata.causationId === p.ctx.commandId);
      if (mine.length === 0) return true;
      const events = mine.map((e) => ({ type: e.type, data: e.data }));
      p.resolve({ events, eventIds: mine.map((e) => e.id), position: mine[mine.length - 1].position });
      return false;
    });
  }

  /** Decides each command in turn on the cached state, evolving it with each command's events. */
  private decideAll(streamId: string, current: Cached, batch: Pending[]) {
    return batch.map((pending) => {
      try {
        const decided = pending.decider.decide(pending.command, current.state);
        for (const e of decided) current.state = pending.decider.evolve(current.state, e);
        return { pending, decided, events: this.envelope(streamId, pending.ctx, decided) };
      } catch (error) {
        return { pending, decided: [], events: [] as NewEvent[], error };
      }
    });
  }

  /** Event ids derive from the command id, so a command retried with the same id appends nothing twice. */
  private envelope(streamId: string, ctx: CommandContext, decided: AnyEvent[]): NewEvent[] {
    const occurredAt = new Date().toISOString();
    return decided.map((e, i) => ({
      id: deterministicUuid(ctx.commandId, streamId, String(i)),
      type: e.type,
      data: e.data,
      metadata: {
        userId: ctx.userId,
        ...(ctx.spaceId ? { spaceId: ctx.spaceId } : {}),
        correlationId: ctx.correlationId,
        causationId: ctx.commandId,
        occurredAt,
        schemaVersion: schemaVersionOf(e.type),
      },
    }));
  }

  private async refresh(streamId: string, decider: AnyDecider): Promise<Cached> {
    let cached = this.cache.get(streamId);
    if (!cached) cached = { state: decider.initialState(), revision: -1 };
    const newer = await this.store.readStream(streamId, cached.revision + 1);
    for (const e of newer) if (!e.redacted) cached.state = decider.evolve(cached.state, { type: e.type, data: e.data });
    if (newer.length) cached.revision = newer[newer.length - 1].revision;
    this.cache.delete(streamId);
    this.cache.set(streamId, cached);
    if (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
    return cached;
  }
}

/** The data of the decided event of a type (commands whose answer is the event they produced). */
export function decided<E extends AnyEvent, T extends E['type']>(events: E[], type: T): Extract<E, { type: T }>['data'] {
  const found = events.find((e) => e.type === type);
  if (!found) throw new Error(`the command decided no ${type}`);
  return found.data as Extract<E, { type: T }>['data'];
}
