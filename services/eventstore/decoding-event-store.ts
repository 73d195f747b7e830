/**
 * The one place stored events are turned into what readers use, and back: a decorator around the event store port,
 * wired by the composition root, so deciders (stream reads), projections (log follow), time travel and exports all
 * read through it. Appends are sealed (sealing.ts); reads are opened, then upcast to the type's current version
 * (upcasters.ts). The bus carries events as stored: its consumers decode them with the same codec.
 */
import type { ReadStore } from '../readstore/read-store.port';
import type { EventStore, NewEvent, RecordedEvent } from './event-store.port';
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

export function decodingEventStore(inner: EventStore, codec: EventCodec): EventStore {
  const decodeAll = (events: RecordedEvent[]) => Promise.all(events.map((e) => codec.decode(e)));
  return {
    async append(streamId, events, expected) {
      return inner.append(streamId, await Promise.all(events.map((e) => codec.encode(e))), expected);
    },
    readStream: async (streamId, fromRevision, limit) => decodeAll(await inner.readStream(streamId, fromRevision, limit)),
    readAll: async (after, limit) => decodeAll(await inner.readAll(after, limit)),
    subscribeAll: (after, handler) => inner.subscribeAll(after, async (e) => handler(await codec.decode(e))),
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
