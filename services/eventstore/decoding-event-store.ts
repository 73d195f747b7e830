/**
 * The one place stored events are turned into what readers use, and back: a decorator around the event store port,
 * wired by the composition root, so deciders (stream reads), projections (log follow), time travel and exports all
 * read through it. Appends are sealed (sealing.ts); reads are opened, then upcast to the type's current version
 * (upcasters.ts). The bus carries events as stored: its consumers decode them with the same codec.
 */
import type { ReadStore } from '../readstore/read-store.port';
import { waitingFor, type EventStore, type NewEvent, type RecordedEvent } from './event-store.port';
import { logPagesOffThread, type LogPages } from './log-pages';
import { Sealer } from './sealing';
import { UPCASTERS, Upcasters } from './upcasters';
import { UserKeys } from './user-keys';

export interface EventCodec {
  encode(event: NewEvent): Promise<NewEvent>;
  decode(event: RecordedEvent): Promise<RecordedEvent>;
  /** The rest of decode, for an event whose data was opened elsewhere (log-pages.ts). */
  decodeOpened(event: RecordedEvent): RecordedEvent;
}

export function eventCodec(sealer: Sealer, upcasters: Upcasters, keys: UserKeys): EventCodec {
  const decodeOpened = (event: RecordedEvent) => {
    // Every process that follows the log forgets an erased user's key as soon as it reads the erasure.
    if (event.type === 'user.erased') keys.forget((event.data as { userId: string }).userId);
    return event.redacted ? event : upcasters.upcast(event);
  };
  return {
    encode: (event) => sealer.seal(event),
    decode: async (event) => decodeOpened(await sealer.open(event)),
    decodeOpened,
  };
}

/**
 * Every projection follows the log on its own: the log's events are decoded once for all of them, remembered for
 * the last RECENT events read. Forgotten whenever a user is erased.
 */
const RECENT = 4096;

function recentlyDecoded(codec: EventCodec) {
  const recent = new Map<string, Promise<RecordedEvent>>();
  const read = (event: RecordedEvent) => {
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
  /** Events decoded elsewhere: an erasure among them still makes everything remembered go. */
  const passing = (events: RecordedEvent[]) => {
    if (events.some((e) => e.type === 'user.erased')) recent.clear();
  };
  return { read, passing };
}

type RecentlyDecoded = ReturnType<typeof recentlyDecoded>;

/** Where catch-up pages may be read and opened off the event loop: the pages, and the keys they are opened with. */
export interface OffThread {
  pages: LogPages;
  keys: UserKeys;
}

export function decodingEventStore(
  inner: EventStore,
  codec: EventCodec,
  offThread?: OffThread | null,
  recent: RecentlyDecoded = recentlyDecoded(codec),
): EventStore {
  const fromLog = recent.read;
  const keyFor = (userId: string) => offThread!.keys.forReading(userId);
  // Only a full page is worth the trip to the worker: a follower at the head reads a few events at a time.
  const fullPageAhead = async (after: number, limit: number) => !!offThread?.pages.working && (await inner.headPosition()) - after >= limit;
  /** A page read and opened on the worker (every type where `types` is null). */
  const offThreadPage = async (after: number, limit: number, types: ReadonlySet<string> | null) => {
    const read = await offThread!.pages.readAllOf(after, limit, types, keyFor);
    // The page's keys were asked for before any of it was decoded: it ends at an erasure, and what follows is read
    // again once decoding the erasure made this process forget the erased user's key.
    const erasure = read.events.findIndex((e) => e.type === 'user.erased');
    const events = erasure === -1 ? read.events : read.events.slice(0, erasure + 1);
    recent.passing(events);
    return { events: events.map(codec.decodeOpened), reached: erasure === -1 ? read.reached : events[erasure].position };
  };
  return {
    async append(streamId, events, expected) {
      return inner.append(streamId, await Promise.all(events.map((e) => codec.encode(e))), expected);
    },
    // Deciders may keep the data they fold: stream reads decode afresh.
    readStream: async (streamId, fromRevision, limit) =>
      Promise.all((await inner.readStream(streamId, fromRevision, limit)).map((e) => codec.decode(e))),
    async readAll(after, limit) {
      // Reads of one event (health checks, the bus) stay on this thread.
      if (limit > 1 && (await fullPageAhead(after, limit))) return (await offThreadPage(after, limit, null)).events;
      return Promise.all((await inner.readAll(after, limit)).map(fromLog));
    },
    // An erasure is always decoded: reading it is what makes this process forget the user's key.
    async readAllOf(after, limit, types) {
      const wanted = new Set(types).add('user.erased');
      if (await fullPageAhead(after, limit)) return offThreadPage(after, limit, wanted);
      if (inner.readAllOf) {
        const read = await inner.readAllOf(after, limit, wanted);
        return { events: await Promise.all(read.events.map(fromLog)), reached: read.reached };
      }
      const read = await inner.readAll(after, limit);
      const kept = read.filter((e) => wanted.has(e.type));
      return { events: await Promise.all(kept.map(fromLog)), reached: read.at(-1)?.position ?? after };
    },
    subscribeAll: (after, handler) => inner.subscribeAll(after, async (e) => handler(await fromLog(e))),
    ...waitingFor(inner),
    headPosition: () => inner.headPosition(),
    close: async () => {
      await offThread?.pages.close();
      await inner.close();
    },
  };
}

/**
 * The store every reader and writer of the service uses: `inner` as the adapter stores it, keys in `readStore`.
 * With `logFile` (the embedded log's file), catch-up pages are read and opened on a worker thread. The codec it hands
 * out (to the bus's consumers) decodes through the same memo as the log's readers: an event the projections just
 * decoded is not opened again by each consumer group.
 */
export function historyStore(inner: EventStore, readStore: ReadStore, logFile?: string): { events: EventStore; codec: EventCodec; keys: UserKeys } {
  const keys = new UserKeys(readStore);
  const codec = eventCodec(new Sealer(keys), new Upcasters(UPCASTERS), keys);
  const pages = logFile ? logPagesOffThread(logFile) : null;
  const recent = recentlyDecoded(codec);
  return { events: decodingEventStore(inner, codec, pages && { pages, keys }, recent), codec: { ...codec, decode: recent.read }, keys };
}
