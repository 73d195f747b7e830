/**
 * A consumer group over the relayed domain events that handles each event once: the bus delivers at least once,
 * and the event ids already handled by this group are remembered in the read store.
 */
import type { Bus, BusConsumer } from '../bus/bus.port';
import type { RecordedEvent } from '../eventstore/event-store.port';
import type { ReadStore } from '../readstore/read-store.port';

export const CONSUMED = '_consumed';

export async function consumeDomainEvents(
  bus: Bus,
  store: ReadStore,
  topic: string,
  group: string,
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
      const event = JSON.parse(message.value) as RecordedEvent;
      const id = `${group}:${event.id}`;
      if (await seen.get(id)) return;
      await handle(event);
      await seen.put({ _id: id, at: new Date().toISOString() });
    },
    { fromBeginning: true },
  );
}
