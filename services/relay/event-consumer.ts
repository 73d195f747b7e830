/**
 * A consumer group over the relayed domain events that handles each event once: the bus delivers at least once (a
 * crash redelivers what was not committed; a relay that lost its checkpoint publishes again), and the ids of the
 * events this group handled lately are remembered in the read store. Only lately: a redelivery comes soon after
 * the first delivery, so the memo keeps the last KEEP_POSITIONS log positions and never grows with the history.
 * Each handler's own writes are keyed by the event (a delivery, a run, a mail), so the memo saves work rather than
 * guards against duplicates: an event a handler made nothing for is not remembered at all, and the memo's writes are
 * waited for once every MEMO_WAIT_EVERY events rather than one commit per event (a group catching up on a long log
 * waited a whole commit per event). A crash may forget the last few.
 */
import type { Bus, BusConsumer } from '../bus/bus.port';
import type { EventCodec } from '../eventstore/decoding-event-store';
import type { RecordedEvent } from '../eventstore/event-store.port';
import type { ReadStore } from '../readstore/read-store.port';
import { Backoff } from '../backoff';

export const CONSUMED = '_consumed_recent';
/** Where an earlier version remembered every handled event for good; dropped when a group starts. */
const CONSUMED_FOR_GOOD = '_consumed';
const KEEP_POSITIONS = 20_000;
/** Handled events between two prunings of the memo. */
const PRUNE_EVERY = 1000;
/** Memo writes in flight at most: the others are waited for with the next one of every this many. */
const MEMO_WAIT_EVERY = 100;

export async function consumeDomainEvents(
  bus: Bus,
  store: ReadStore,
  topic: string,
  group: string,
  /** Opens and upcasts the stored event (the relay publishes events as stored); redacted ones never reach `handle`. */
  codec: EventCodec,
  /** Resolves false when it made nothing for this event: then no memo is kept (a redelivery makes nothing again). */
  handle: (event: RecordedEvent) => Promise<boolean | void>,
  /** Only these event types reach `handle`; the others are passed over without any bookkeeping. */
  types?: ReadonlySet<string>,
): Promise<BusConsumer> {
  const seen = store.collection(CONSUMED);
  await seen.ensureIndex(['group', '_pos']);
  await store.collection(CONSUMED_FOR_GOOD).drop();
  let handled = 0;
  return bus.subscribe(
    group,
    topic,
    async (message) => {
      if (types && !types.has(message.headers?.['event-type'] ?? '')) return;
      const event = await codec.decode(JSON.parse(message.value) as RecordedEvent);
      const id = `${group}:${event.id}`;
      if (event.redacted || (await seen.get(id))) return;
      // One event per event-loop turn: a group far behind (a first start on a long log) shares the process with the
      // projections catching up, whose read models the API answers from, rather than crowding them out.
      await new Promise((resolve) => setImmediate(resolve));
      if ((await handle(event)) === false) return;
      const memo = seen.put({ _id: id, group, _pos: event.position });
      if (++handled % MEMO_WAIT_EVERY === 0) await memo;
      else memo.catch(() => undefined); // a memo lost only lets a redelivery be handled again
      if (handled % PRUNE_EVERY === 0) await seen.deleteMany({ group, _pos: { $lt: event.position - KEEP_POSITIONS } });
    },
    { fromBeginning: true },
  );
}

/**
 * Joins a consumer group in the background, retrying with backoff: after a crash Kafka holds the group until the
 * dead member's session expires (tens of seconds), and the rest of the service must not wait for that.
 */
export function joinInBackground(join: () => Promise<BusConsumer>, onRetry: (err: unknown, delayMs: number) => void): BusConsumer {
  let consumer: BusConsumer | null = null;
  let stopping = false;
  const joining = (async () => {
    for (const delay of new Backoff(1000, 30_000)) {
      if (stopping) return;
      try {
        consumer = await join();
        return;
      } catch (err) {
        onRetry(err, delay);
        await new Promise((resolve) => setTimeout(resolve, delay));
      }
    }
  })();
  return {
    async stop() {
      stopping = true;
      await joining;
      await consumer?.stop();
    },
  };
}
