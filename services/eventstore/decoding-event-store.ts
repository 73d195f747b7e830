/**
 * The one place stored events are turned into what readers use, and back: a decorator around the event store port,
 * wired by the composition root, so deciders (stream reads), projections (log follow), time travel and exports all
 * read through it. Appends are sealed (sealing.ts); reads are opened, then upcast to the type's current version
 * (upcasters.ts). The bus carries events as stored: its consumers decode them with the same codec.
 */
import type { ReadStore } from '../readstore/read-store.port';
import { waitingFor, type EventStore, type NewEvent, type RecordedEvent } from './event-store.port';
import { Sealer } from './sealing';
import { UPCASTERS, Upcasters } from './upcasters';
import { UserKeys } from './user-keys';

export interface EventCodec {
  encode(event: NewEvent): Promise<NewEvent>;
  decode(event: RecordedEvent): Promise<RecordedEvent>;
}

export function eventCodec(sealer: Sealer, upcasters: Upcasters, keys: UserKeys): EventCodec {
  return {
    encode: (event) => sealer.seal(event),
    async decode(event) {
      // Every process that follows the log forgets an erased user's key as soon as it reads the erasure.
      if (event.type === 'user.erased') keys.forget((event.data as { userId: string }).userId);
      const open = await sealer.open(event);
      return open.redacted ? open : upcasters.upcast(open);
    },
  };
}

/**
 * Every projection follows the log on its own: the log's events are decoded once for all of them, remembered for
 * the last RECENT events read. Forgotten whenever a user is erased.
 */
const RECENT = 4096;

function recentlyDecoded(codec: EventCodec): (event: RecordedEvent) => Promise<RecordedEvent> {
  const recent = new Map<string, Promise<RecordedEvent>>();
  return (event) => {
    if (event.type === 'user.erased') recent.clear();
    let decoded = recent.get(event.id);
    if (!decoded) {
      decoded = codec.decode(event);
      recent.set(event.id, decoded);
      decoded.catch(() => recent.delete(event.id));
      if (recent.size > RECENT) recent.delete(recent.keys().next().value as string);
    }
    return decoded;
  };
}

export function decodingEventStore(inner: EventStore, codec: EventCodec): EventStore {
  const fromLog = recentlyDecoded(codec);
  return {
    async append(streamId, events, expected) {
      return inner.append(streamId, await Promise.all(events.map((e) => codec.encode(e))), expected);
    },
    // Deciders may keep the data they fold: stream reads decode afresh.
    readStream: async (streamId, fromRevision, limit) =>
      Promise.all((await inner.readStream(streamId, fromRevision, limit)).map((e) => codec.decode(e))),
    readAll: async (after, limit) => Promise.all((await inner.readAll(after, limit)).map(fromLog)),
    // An erasure is always decoded: reading it is what makes this process forget the user's key.
    async readAllOf(after, limit, types) {
      if (inner.readAllOf) {
        const read = await inner.readAllOf(after, limit, new Set(types).add('user.erased'));
        return { events: await Promise.all(read.events.map(fromLog)), reached: read.reached };
      }
      const read = await inner.readAll(after, limit);
      const wanted = read.filter((e) => types.has(e.type) || e.type === 'user.erased');
      return { events: await Promise.all(wanted.map(fromLog)), reached: read.at(-1)?.position ?? after };
    },
    subscribeAll: (after, handler) => inner.subscribeAll(after, async (e) => handler(await fromLog(e))),
    ...waitingFor(inner),
    headPosition: () => inner.headPosition(),
    close: () => inner.close(),
  };
}

/** The store every reader and writer of the service uses: `inner` as the adapter stores it, keys in `readStore`. */
export function historyStore(inner: EventStore, readStore: ReadStore): { events: EventStore; codec: EventCodec; keys: UserKeys } {
  const keys = new UserKeys(readStore);
  const codec = eventCodec(new Sealer(keys), new Upcasters(UPCASTERS), keys);
  return { events: decodingEventStore(inner, codec), codec, keys };
}
