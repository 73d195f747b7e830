/**
 * The event store port: streams of domain events with optimistic concurrency, plus one global, ordered log.
 * Adapters: embedded SQLite (sqlite-event-store.ts) and EventStoreDB (esdb-event-store.ts).
 */
export interface EventMetadata {
  userId: string | null;
  spaceId?: string;
  correlationId: string;
  causationId: string;
  occurredAt: string;
  schemaVersion: number;
}

export interface NewEvent {
  /** Deterministic for a command where a retry could append twice (uuid). */
  id: string;
  type: string;
  data: unknown;
  metadata: EventMetadata;
}

export interface RecordedEvent extends NewEvent {
  streamId: string;
  /** 0-based index of the event in its stream. */
  revision: number;
  /** Position in the global log: strictly increasing in commit order, never reused. Not necessarily contiguous. */
  position: number;
  /**
   * Set by the decoding store (decoding-event-store.ts) when the data cannot be read any more: `erased`, its owner's
   * key was destroyed (services/history/erasure.ts); `data` is then null. Deciders and projections skip such events.
   */
  redacted?: 'erased';
}

/** The revision of the stream's last event as the caller saw it; 'no_stream' when it must not exist yet. */
export type ExpectedRevision = number | 'no_stream' | 'any';

export interface AppendResult {
  /** Revision of the last event now in the stream. */
  revision: number;
  /** Global position of the last appended event. */
  position: number;
  /** Global position of each appended event, in order. */
  positions: number[];
}

export class WrongExpectedRevisionError extends Error {
  constructor(
    readonly streamId: string,
    readonly expected: ExpectedRevision,
    readonly actual: number | 'no_stream',
  ) {
    super(`stream ${streamId}: expected revision ${String(expected)}, actual ${String(actual)}`);
    this.name = 'WrongExpectedRevisionError';
  }
}

export interface Subscription {
  /** Stops delivering; resolves once the handler is no longer running. */
  stop(): Promise<void>;
  /** Rejects if the subscription failed (handler threw or the store failed). */
  readonly done: Promise<void>;
}

export interface EventStore {
  /**
   * Appends atomically. If every event id is already stored in this stream (a retried command), nothing is written
   * and the original result is returned. Throws WrongExpectedRevisionError on a revision mismatch.
   */
  append(streamId: string, events: NewEvent[], expected: ExpectedRevision): Promise<AppendResult>;
  /** Events of one stream from a revision (inclusive), in order, at most `limit`. Empty when the stream does not exist. */
  readStream(streamId: string, fromRevision?: number, limit?: number): Promise<RecordedEvent[]>;
  /** Events of the global log with position > after, in log order, at most `limit`. */
  readAll(after: number, limit: number): Promise<RecordedEvent[]>;
  /**
   * The events of `types` among the next `limit` of the global log after `after`, and the position of the last event
   * read (of any type; `after` when none). Stores that decode what they read skip the others undecoded.
   */
  readAllOf?(after: number, limit: number, types: ReadonlySet<string>): Promise<{ events: RecordedEvent[]; reached: number }>;
  /** Catch-up from `after` (exclusive), then live. The handler runs for one event at a time, in log order. */
  subscribeAll(after: number, handler: (event: RecordedEvent) => Promise<void>): Subscription;
  /**
   * Resolves once the log may hold an event past `after`: at a commit, after a short poll interval at most, or when
   * `signal` aborts. For readers that page through the log themselves (projections catching up together).
   */
  waitForAppend?(after: number, signal?: AbortSignal): Promise<void>;
  /** Position of the last event in the log, 0 when empty. */
  headPosition(): Promise<number>;
  close(): Promise<void>;
}

/** `waitForAppend` of a store a wrapper passes through, if it has one. */
export const waitingFor = (inner: EventStore): Pick<EventStore, 'waitForAppend'> =>
  inner.waitForAppend ? { waitForAppend: (after, signal) => inner.waitForAppend!(after, signal) } : {};
