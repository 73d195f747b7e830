/**
 * The embedded bus in front of the embedded event log. What the relay publishes is the log's own events, so the bus
 * keeps each one's key, headers and offset but not a second copy of the event: a message carrying the
 * LOG_POSITION header is stored without its value, and the event is read back from the log when delivered (the
 * same JSON the relay would have sent). Messages without that header pass through as they are.
 */
import type { EventStore } from '../eventstore/event-store.port';
import type { Bus, BusMessage, ConsumedMessage } from './bus.port';

/** Header the relay sets: the global log position of the event in the message's value. */
export const LOG_POSITION = 'log-position';

const backedByLog = (m: BusMessage) => m.headers?.[LOG_POSITION] !== undefined;

/** Values of recently delivered positions: every consumer group gets the same message, read from the log once. */
const RECENT = 1000;

export function logBackedBus(bus: Bus, events: EventStore): Bus {
  const recent = new Map<number, Promise<string>>();
  const valueAt = (position: number, m: ConsumedMessage): Promise<string> => {
    let value = recent.get(position);
    if (!value) {
      value = events.readAll(position - 1, 1).then(([event]) => {
        if (event?.position !== position) throw new Error(`bus message ${m.topic}/${m.offset}: no event at log position ${position}`);
        return JSON.stringify(event);
      });
      recent.set(position, value);
      value.catch(() => recent.delete(position));
      if (recent.size > RECENT) recent.delete(recent.keys().next().value as number);
    }
    return value;
  };
  const withEvent = async (m: ConsumedMessage): Promise<ConsumedMessage> => {
    if (m.value !== '' || !backedByLog(m)) return m;
    return { ...m, value: await valueAt(Number(m.headers![LOG_POSITION]), m) };
  };
  return {
    publish: (topic, messages) => bus.publish(topic, messages.map((m) => (backedByLog(m) ? { ...m, value: '' } : m))),
    subscribe: (group, topic, handler, options) => bus.subscribe(group, topic, async (m) => handler(await withEvent(m)), options),
    close: () => bus.close(),
  };
}
