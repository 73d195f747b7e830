/**
 * A consumer group over the relayed domain events. The bus delivers at least once (a crash redelivers what was not
 * committed), so handlers are idempotent by the ids they derive from the event (a delivery per event and webhook,
 * a push per notification and device). Nothing is kept per handled event: that would grow with the whole history.
 */
import type { Bus, BusConsumer } from '../bus/bus.port';
import type { RecordedEvent } from '../eventstore/event-store.port';
import type { ReadStore } from '../readstore/read-store.port';

/** Where an earlier version remembered every handled event id; dropped when a group starts. */
const CONSUMED = '_consumed';

export async function consumeDomainEvents(
  bus: Bus,
  store: ReadStore,
  topic: string,
  group: string,
  handle: (event: RecordedEvent) => Promise<void>,
  /** Only these event types reach `handle`; the others are passed over without any bookkeeping. */
  types?: ReadonlySet<string>,
): Promise<BusConsumer> {
  await store.collection(CONSUMED).drop();
  return bus.subscribe(
    group,
    topic,
    async (message) => {
      if (types && !types.has(message.headers?.['event-type'] ?? '')) return;
      await handle(JSON.parse(message.value) as RecordedEvent);
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
