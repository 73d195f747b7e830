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
/**
 * Events read from the log at once when a value is missing: the relay publishes in log order, so a group behind the
 * head (a first start on a long log) asks for the next positions next. One query per page instead of one per message.
 */
const READ_AHEAD = 100;

export function logBackedBus(bus: Bus, events: EventStore): Bus {
  const recent = new Map<number, string>();
  /** The page being read, so that groups asking for its positions meanwhile wait for it rather than read again. */
  let reading: { from: number; page: Promise<void> } | null = null;
  const readFrom = (position: number): Promise<void> => {
    const page = events.readAll(position - 1, READ_AHEAD).then((read) => {
      for (const e of read) recent.set(e.position, JSON.stringify(e));
      while (recent.size > RECENT) recent.delete(recent.keys().next().value as number);
    });
    const entry = { from: position, page };
    reading = entry;
    const done = () => {
      if (reading === entry) reading = null;
    };
    page.then(done, done);
    return page;
  };
  const valueAt = async (position: number, m: ConsumedMessage): Promise<string> => {
    const pending = reading;
    if (!recent.has(position) && pending && position >= pending.from && position < pending.from + READ_AHEAD) await pending.page;
    if (!recent.has(position)) await readFrom(position);
    const value = recent.get(position);
    if (value === undefined) throw new Error(`bus message ${m.topic}/${m.offset}: no event at log position ${position}`);
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
