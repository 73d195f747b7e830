/**
 * A consumer group over the relayed domain events that handles each event once: the bus delivers at least once,
 * and the event ids already handled by this group are remembered in the read store.
 */
import type { Bus, BusConsumer } from '../bus/bus.port';
import type { EventCodec } from '../eventstore/decoding-event-store';
import type { RecordedEvent } from '../eventstore/event-store.port';
import type { ReadStore } from '../readstore/read-store.port';

export const CONSUMED = '_consumed';

export async function consumeDomainEvents(
  bus: Bus,
  store: ReadStore,
  topic: string,
  group: string,
  /** Opens and upcasts the stored event (the relay publishes events as stored); redacted ones never reach `handle`. */
  codec: EventCodec,
  handle: (event: RecordedEvent) => Promise<void>,
  /** Only these event types reach `handle`; the others are passed over without any bookkeeping. */
  types?: ReadonlySet<string>,
): Promise<BusConsumer> {
  const seen = store.collection(CONSUMED);
  return bus.subscribe(
    group,
    topic,
    async (message) => {
      if (types && !types.has(message.headers?.['event-type'] ?? '')) return;
      const event = await codec.decode(JSON.parse(message.value) as RecordedEvent);
      const id = `${group}:${event.id}`;
      if (event.redacted || (await seen.get(id))) return;
      await handle(event);
      await seen.put({ _id: id, at: new Date().toISOString() });
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
    for (let delay = 1000; !stopping; delay = Math.min(delay * 2, 30_000)) {
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
