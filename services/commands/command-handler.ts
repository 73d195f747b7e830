import type { EventStore, RecordedEvent } from '../eventstore/event-store.port';
import { WrongExpectedRevisionError } from '../eventstore/event-store.port';
import { SCHEMA_VERSION } from '../../contracts/domain-events';
import { deterministicUuid } from '../ids';
import type { Decider } from './decider';

export interface CommandContext {
  userId: string | null;
  /** Unique per command (derived from the Idempotency-Key when there is one): event ids derive from it. */
  commandId: string;
  correlationId: string;
  spaceId?: string;
}

export interface Handled<State, Event> {
  state: State;
  events: Event[];
  /** Global position of the last appended event; null when the command decided nothing. */
  position: number | null;
}

interface Cached {
  state: unknown;
  revision: number;
}

const MAX_ATTEMPTS = 20;
const CACHE_LIMIT = 20_000;

/**
 * Reads a stream, decides, appends with the expected revision and retries on a revision conflict. Folded states
 * are cached per stream, so a command reads only the events appended since the cached revision. Commands on one
 * stream are queued in this process so they rarely race; across processes the expected revision keeps them safe.
 */
export class CommandHandler {
  private readonly cache = new Map<string, Cached>();
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(private readonly store: EventStore) {}

  handle<C, E extends { type: string; data: unknown }, S>(
    streamId: string,
    decider: Decider<C, E, S>,
    command: C,
    ctx: CommandContext,
  ): Promise<Handled<S, E>> {
    return this.enqueue(streamId, () => this.attempt(streamId, decider, command, ctx));
  }

  /** The current folded state of a stream (reads only what the cache has not seen). */
  load<C, E extends { type: string; data: unknown }, S>(
    streamId: string,
    decider: Decider<C, E, S>,
  ): Promise<{ state: S; revision: number }> {
    return this.enqueue(streamId, async () => {
      const cached = await this.refresh(streamId, decider);
      return { state: cached.state as S, revision: cached.revision };
    });
  }

  /** Runs one task at a time per stream: the cached state is evolved in place, so refreshes must not overlap. */
  private enqueue<T>(streamId: string, task: () => Promise<T>): Promise<T> {
    const previous = this.queues.get(streamId) ?? Promise.resolve();
    const run = previous.then(task, task);
    this.queues.set(streamId, run);
    run.then(
      () => this.queues.get(streamId) === run && this.queues.delete(streamId),
      () => this.queues.get(streamId) === run && this.queues.delete(streamId),
    );
    return run;
  }

  private async attempt<C, E extends { type: string; data: unknown }, S>(
    streamId: string,
    decider: Decider<C, E, S>,
    command: C,
    ctx: CommandContext,
  ): Promise<Handled<S, E>> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.refresh(streamId, decider);
      const events = decider.decide(command, current.state as S);
      if (events.length === 0) return { state: current.state as S, events, position: null };
      const occurredAt = new Date().toISOString();
      const toAppend = events.map((e, i) => ({
        id: deterministicUuid(ctx.commandId, streamId, String(i)),
        type: e.type,
        data: e.data,
        metadata: {
          userId: ctx.userId,
          ...(ctx.spaceId ? { spaceId: ctx.spaceId } : {}),
          correlationId: ctx.correlationId,
          causationId: ctx.commandId,
          occurredAt,
          schemaVersion: SCHEMA_VERSION,
        },
      }));
      try {
        const expected = current.revision < 0 ? 'no_stream' : current.revision;
        const result = await this.store.append(streamId, toAppend, expected);
        await this.refresh(streamId, decider);
        const after = this.cache.get(streamId)!;
        return { state: after.state as S, events, position: result.position };
      } catch (err) {
        if (!(err instanceof WrongExpectedRevisionError) || attempt >= MAX_ATTEMPTS) throw err;
      }
    }
  }

  private async refresh<C, E extends { type: string; data: unknown }, S>(
    streamId: string,
    decider: Decider<C, E, S>,
  ): Promise<Cached> {
    let cached = this.cache.get(streamId);
    if (!cached) cached = { state: decider.initialState(), revision: -1 };
    const newer: RecordedEvent[] = await this.store.readStream(streamId, cached.revision + 1);
    if (newer.length > 0 || !this.cache.has(streamId)) {
      let state = cached.state as S;
      for (const e of newer) state = decider.evolve(state, { type: e.type, data: e.data } as E);
      cached = { state, revision: newer.length ? newer[newer.length - 1].revision : cached.revision };
      this.remember(streamId, cached);
    }
    return cached;
  }

  private remember(streamId: string, entry: Cached): void {
    this.cache.delete(streamId);
    this.cache.set(streamId, entry);
    if (this.cache.size > CACHE_LIMIT) this.cache.delete(this.cache.keys().next().value as string);
  }
}
