/**
 * Event store on EventStoreDB (gRPC client @eventstore/db-client).
 *
 * Positions: our numeric `position` is the event's commit position in $all (a byte offset in the transaction log),
 * converted to Number. That is exact while the log is below 2^53 bytes (8 PiB). Appends through the gRPC client are
 * implicit transactions, so every event has its own commit position (commit === prepare); turning a numeric position
 * back into an ESDB position is therefore `{commit: p, prepare: p}`, and reads skip anything at or before it.
 *
 * Idempotency: ESDB recognises a retried append by its event ids when the expected revision is the one the original
 * append used (number or 'no_stream'): it writes nothing and acknowledges; a retry whose ids only partly match is
 * refused (surfaces as WrongExpectedRevisionError). With 'any' the server only checks a cache of recent event ids,
 * so a retry long after the original can append duplicates; commands that may be retried should not use 'any'.
 * Unlike the embedded store, ESDB does not refuse an event id that already exists in another stream.
 */
import {
  ANY,
  BACKWARDS,
  END,
  EventStoreDBClient,
  JSONType,
  NO_STREAM,
  Position,
  ReadPosition,
  START,
  StreamNotFoundError,
  WrongExpectedVersionError,
  excludeSystemEvents,
  jsonEvent,
} from '@eventstore/db-client';
import {
  EventMetadata,
  EventStore,
  RecordedEvent,
  Subscription,
  WrongExpectedRevisionError,
} from './event-store.port';

/** The fields we use of the client's recorded event (stream reads and $all reads alike). */
interface EsdbEvent {
  id: string;
  type: string;
  data: unknown;
  metadata: unknown;
  streamId: string;
  revision: bigint;
  position?: Position;
}

const PAGE = 500;

const isSystem = (e: EsdbEvent): boolean => e.streamId.startsWith('$') || e.type.startsWith('$');

const fromPosition = (after: number): ReadPosition =>
  after <= 0 ? START : { commit: BigInt(after), prepare: BigInt(after) };

function toRecorded(e: EsdbEvent): RecordedEvent {
  if (!e.position) throw new Error(`event ${e.id} came without a log position (EventStoreDB older than 22.6?)`);
  return {
    id: e.id,
    type: e.type,
    data: e.data,
    metadata: e.metadata as EventMetadata,
    streamId: e.streamId,
    revision: Number(e.revision),
    position: Number(e.position.commit),
  };
}

export async function openEsdbEventStore(connectionString: string): Promise<EventStore> {
  const client = EventStoreDBClient.connectionString(connectionString);
  const stops = new Set<() => Promise<void>>();

  async function readStream(streamId: string, fromRevision = 0, maxCount?: number): Promise<RecordedEvent[]> {
    const out: RecordedEvent[] = [];
    try {
      for await (const r of client.readStream(streamId, { fromRevision: BigInt(fromRevision), maxCount })) {
        if (r.event) out.push(toRecorded(r.event));
      }
    } catch (error) {
      if (error instanceof StreamNotFoundError) return [];
      throw error;
    }
    return out;
  }

  /** One forward page of $all from `after` (inclusive on the server side), and how many records it held. */
  async function readPage(after: number, maxCount: number): Promise<{ events: EsdbEvent[]; count: number }> {
    const events: EsdbEvent[] = [];
    let count = 0;
    for await (const r of client.readAll({ fromPosition: fromPosition(after), maxCount })) {
      count += 1;
      if (r.event && Number(r.event.position.commit) > after) events.push(r.event);
    }
    return { events, count };
  }

  async function headPosition(): Promise<number> {
    // $all also holds system events ($stats, $metadata, ...); walk back until one of ours.
    let from: ReadPosition = END;
    for (;;) {
      let count = 0;
      let last: Position | undefined;
      let found: number | undefined;
      for await (const r of client.readAll({ direction: BACKWARDS, fromPosition: from, maxCount: PAGE })) {
        count += 1;
        if (!r.event) continue;
        last = r.event.position;
        if (found === undefined && !isSystem(r.event)) found = Number(r.event.position.commit);
      }
      if (found !== undefined) return found;
      if (count < PAGE || !last) return 0;
      from = last;
    }
  }

  function subscribeAll(after: number, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    const sub = client.subscribeToAll({ fromPosition: fromPosition(after), filter: excludeSystemEvents() });
    let cursor = after;
    let stopped = false;
    const queue: RecordedEvent[] = [];
    let draining: Promise<void> = Promise.resolve();
    let running = false;
    let settle!: { resolve: () => void; reject: (error: unknown) => void };
    const done = new Promise<void>((resolve, reject) => (settle = { resolve, reject }));

    const fail = (error: unknown): void => {
      if (stopped) return;
      stopped = true;
      stops.delete(stop);
      void sub.unsubscribe();
      settle.reject(error);
    };

    // for-await over the subscription would hang after unsubscribe (the stream never ends), so events are queued
    // from 'data' and handled one at a time, pausing the stream while the queue is long.
    const drain = async (): Promise<void> => {
      running = true;
      try {
        while (queue.length > 0 && !stopped) {
          const event = queue.shift() as RecordedEvent;
          await handler(event);
          if (queue.length < PAGE / 2 && sub.isPaused()) sub.resume();
        }
      } catch (error) {
        fail(error);
      } finally {
        running = false;
      }
    };

    sub.on('data', (resolved) => {
      if (stopped || !resolved.event || isSystem(resolved.event)) return;
      let event: RecordedEvent;
      try {
        event = toRecorded(resolved.event);
      } catch (error) {
        return fail(error);
      }
      if (event.position <= cursor) return;
      cursor = event.position;
      queue.push(event);
      if (queue.length >= PAGE) sub.pause();
      if (!running) draining = drain();
    });
    sub.on('error', fail);
    sub.on('end', () => fail(new Error('subscription to $all ended')));

    async function stop(): Promise<void> {
      if (!stopped) {
        stopped = true;
        stops.delete(stop);
        await sub.unsubscribe();
      }
      await draining;
      settle.resolve();
    }
    stops.add(stop);
    return { stop, done };
  }

  return {
    async append(streamId, events, expected) {
      if (events.length === 0) throw new Error(`stream ${streamId}: append needs at least one event`);
      const proposed = events.map((e) =>
        jsonEvent({ id: e.id, type: e.type, data: (e.data ?? null) as JSONType, metadata: e.metadata }),
      );
      const expectedRevision = expected === 'any' ? ANY : expected === 'no_stream' ? NO_STREAM : BigInt(expected);
      let nextExpected: bigint;
      try {
        ({ nextExpectedRevision: nextExpected } = await client.appendToStream(streamId, proposed, { expectedRevision }));
      } catch (error) {
        if (error instanceof WrongExpectedVersionError) {
          const actual = error.actualVersion === NO_STREAM ? 'no_stream' : Number(error.actualVersion);
          throw new WrongExpectedRevisionError(streamId, expected, actual);
        }
        throw error;
      }
      // With an explicit expected revision the events sit right after it, for a fresh write and for an acknowledged
      // retry alike. The append response's position is not documented to be that of the last event (nor to be set on
      // a retry), so the positions are read back from the events themselves: one more round trip per append.
      const revision = expected === 'any' ? Number(nextExpected) : (expected === 'no_stream' ? -1 : expected) + events.length;
      const appended = await readStream(streamId, revision - events.length + 1, events.length);
      if (appended.length !== events.length) throw new Error(`stream ${streamId}: appended events up to revision ${revision} not found`);
      const positions = appended.map((e) => e.position);
      return { revision, position: positions[positions.length - 1], positions };
    },
    readStream: (streamId, fromRevision, limit) => readStream(streamId, fromRevision, limit),
    async readAll(after, limit) {
      const out: RecordedEvent[] = [];
      let cursor = after;
      const pageSize = Math.min(limit + 1, PAGE);
      while (out.length < limit) {
        const { events, count } = await readPage(cursor, pageSize);
        for (const e of events) {
          cursor = Number(e.position?.commit);
          if (!isSystem(e) && out.length < limit) out.push(toRecorded(e));
        }
        if (count < pageSize || events.length === 0) break;
      }
      return out;
    },
    subscribeAll,
    headPosition,
    async close() {
      await Promise.all([...stops].map((stop) => stop()));
      await client.dispose();
    },
  };
}
