/**
 * Catch-up pages read and opened on a worker thread (log-pages.ts) give exactly what the same read gives on the main
 * thread: the same events, opened with the main thread's keys (two layers, none, redacted once a key is destroyed),
 * upcast, filtered by type, ending at the same position. Runs the built worker (`npm test` builds first).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { schemaVersionOf } from '../../contracts/domain-events';
import { catchUpTogether, type CatchingUp } from '../../projections/catch-up';
import { decodingEventStore, historyStore } from '../../services/eventstore/decoding-event-store';
import type { EventStore, NewEvent } from '../../services/eventstore/event-store.port';
import { logPagesOffThread, type LogPages } from '../../services/eventstore/log-pages';
import type { UserKeys } from '../../services/eventstore/user-keys';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';

const ada = randomUUID();
const bob = randomUUID();

function event(type: string, data: unknown, userId: string | null, schemaVersion = 1): NewEvent {
  return {
    id: randomUUID(), type, data,
    metadata: { userId, correlationId: 'c', causationId: 'c', occurredAt: new Date().toISOString(), schemaVersion },
  };
}

let file: string;
let raw: EventStore;
let store: ReadStore;
let pages: LogPages | null;
let offThread: { events: EventStore; keys: UserKeys };
/** Pages the worker was asked for through `offThread`. */
let trips: number;

beforeEach(async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'log-pages-'));
  file = path.join(dir, 'events.sqlite');
  raw = await openSqliteEventStore(file);
  store = await openEmbeddedReadStore(path.join(dir, 'read.sqlite'));
  pages = logPagesOffThread(file);
  const history = historyStore(raw, store);
  trips = 0;
  const counted: LogPages = {
    get working() {
      return pages!.working;
    },
    get running() {
      return pages!.running;
    },
    readAllOf: (...args) => (trips++, pages!.readAllOf(...args)),
    close: () => pages!.close(),
  };
  offThread = { events: decodingEventStore(raw, history.codec, { pages: counted, keys: history.keys }), keys: history.keys };
  await history.events.append('s-1', [
    event('event.created', { id: randomUUID(), title: 'v1, upcast on read', createdBy: ada }, ada),
    event('event.updated', { id: randomUUID(), title: 'Ada\'s, answered by Bob', createdBy: ada, taskId: null, goalId: null }, bob, 2),
    event('thing.noted', { note: 'nobody\'s' }, null),
    event('thing.noted', { note: 'Bob only' }, bob),
  ], 'no_stream');
  await history.events.append('s-2', [event('other.type', { n: 1 }, ada), event('thing.noted', { note: 'last' }, ada)], 'no_stream');
});
afterEach(async () => {
  await offThread.events.close(); // its worker, and the log
  await store.close();
});

const types = new Set(['event.created', 'event.updated', 'thing.noted']);

it('gives what the main thread reads, opened with the keys it asks the main thread for', async () => {
  expect(pages).not.toBeNull(); // the build's worker exists
  const asked: string[] = [];
  const keys = historyStore(raw, store).keys;
  const page = await pages!.readAllOf(0, 100, types, (user) => (asked.push(user), keys.forReading(user)));
  expect(new Set(asked)).toEqual(new Set([ada, bob]));

  const onMain = await historyStore(raw, store).events.readAllOf!(0, 6, types);
  const read = await offThread.events.readAllOf!(0, 6, types);
  expect(read).toStrictEqual(onMain);
  expect(read.events.map((e) => e.type)).toEqual(['event.created', 'event.updated', 'thing.noted', 'thing.noted', 'thing.noted']);
  expect(read.events[0]).toMatchObject({ data: { title: 'v1, upcast on read', taskId: null, goalId: null, exceptions: [] }, metadata: { schemaVersion: schemaVersionOf('event.created') } });
  expect(read.events[3].data).toEqual({ note: 'Bob only' });
  expect(page.events.map((e) => e.position)).toEqual(read.events.map((e) => e.position));

  const window = await offThread.events.readAllOf!(2, 3, types);
  expect(window).toStrictEqual(await historyStore(raw, store).events.readAllOf!(2, 3, types));
  expect(window.reached).toBe(5);
  expect(trips).toBe(2);
  await offThread.events.readAllOf!(4, 3, types); // less than a page left: read on this thread
  expect(trips).toBe(2);
});

it('redacts what a destroyed key sealed, in either layer, as the main thread does', async () => {
  await offThread.keys.destroy(ada);
  const read = await offThread.events.readAllOf!(0, 6, types);
  expect(trips).toBe(1);
  expect(read).toStrictEqual(await historyStore(raw, store).events.readAllOf!(0, 6, types));
  expect(read.events.map((e) => e.redacted ?? null)).toEqual(['erased', 'erased', null, null, 'erased']);
  expect(read.events[3].data).toEqual({ note: 'Bob only' });
});

it('once closed, the worker answers nothing and says it stopped', async () => {
  await pages!.close();
  expect(pages!.working).toBe(false);
  await expect(pages!.readAllOf(0, 10, types, async () => null)).rejects.toThrow(/stopped/);
});

it('a catch-up far behind reads its pages through the worker, one after another, each event once and in order', async () => {
  const batch: NewEvent[] = [];
  for (let i = 0; i < 1300; i++) batch.push(event('thing.noted', { n: i }, i % 2 ? ada : bob));
  for (let i = 0; i < batch.length; i += 100) await historyStore(raw, store).events.append(`many-${i}`, batch.slice(i, i + 100), 'no_stream');
  const seen: number[] = [];
  const follower: CatchingUp = {
    position: 0,
    handles: new Set(['thing.noted']),
    stopped: false,
    applyPage: async (page) => void seen.push(...page.events.filter((e) => e.data && (e.data as { n?: number }).n !== undefined).map((e) => (e.data as { n: number }).n)),
    pageApplied: async () => undefined,
  };
  await catchUpTogether(offThread.events, store, [follower]);
  expect(trips).toBeGreaterThanOrEqual(2); // 1,306 events: two full pages off the thread, the rest on it
  expect(seen.slice(-1300)).toEqual(batch.map((e) => (e.data as { n: number }).n));
});

it('a worker asked for nothing a while stops, and the next page starts another', async () => {
  const quick = logPagesOffThread(file, 50)!;
  try {
    const keys = historyStore(raw, store).keys;
    const read = () => quick.readAllOf(0, 6, types, (user) => keys.forReading(user));
    const first = await read();
    expect(quick.running).toBe(true);
    for (let i = 0; i < 100 && quick.running; i++) await new Promise((r) => setTimeout(r, 10));
    expect(quick.running).toBe(false);
    expect(await read()).toStrictEqual(first);
    expect(quick.working).toBe(true);
  } finally {
    await quick.close();
  }
});

it('a page ends at an erasure: what follows is opened with the keys as decoding the erasure left them', async () => {
  // offThread's keys hold Ada's, cached when her events were appended; another process erases her meanwhile.
  await historyStore(raw, store).keys.destroy(ada);
  const writer = historyStore(raw, store);
  await raw.append('erasure', [event('user.erased', { userId: ada, erasedAt: 'now' }, null)], 'no_stream');
  await offThread.events.append('late', [event('thing.noted', { note: 'sealed under her stale key', createdBy: ada }, bob)], 'no_stream');
  const wanted = new Set(['thing.noted']);
  const first = await offThread.events.readAllOf!(6, 2, wanted);
  expect(first.events.map((e) => e.type)).toEqual(['user.erased']);
  expect(first.reached).toBe(7);
  const second = await offThread.events.readAllOf!(7, 1, wanted);
  expect(second.events).toHaveLength(1);
  expect(second.events[0]).toMatchObject({ data: null, redacted: 'erased' });
  expect(await writer.events.readAllOf!(7, 1, wanted)).toStrictEqual(second);
  expect(trips).toBe(2);
});

it('readAll (exports) reads full pages of every type through the worker, as the main thread reads them; one event stays here', async () => {
  const onMain = await historyStore(raw, store).events.readAll(0, 6);
  const read = await offThread.events.readAll(0, 6);
  expect(trips).toBe(1);
  expect(read).toStrictEqual(onMain);
  expect(read.map((e) => e.type)).toContain('other.type');
  expect(await offThread.events.readAll(2, 1)).toStrictEqual(onMain.slice(2, 3));
  expect(trips).toBe(1);
});

it('readAll through the worker ends its page at an erasure, and reads what follows with the erased key gone', async () => {
  await historyStore(raw, store).keys.destroy(ada);
  await raw.append('erasure', [event('user.erased', { userId: ada, erasedAt: 'now' }, null)], 'no_stream');
  const late = (note: string) => event('thing.noted', { note, createdBy: ada }, bob);
  await offThread.events.append('late', [late('sealed under her stale key'), late('and again')], 'no_stream');
  const first = await offThread.events.readAll(5, 3);
  expect(first.map((e) => e.type)).toEqual(['thing.noted', 'user.erased']);
  expect(first[0].data).toEqual({ note: 'last' }); // read before the erasure was decoded: Ada's key was still known
  const second = await offThread.events.readAll(7, 2);
  expect(trips).toBe(2);
  expect(second.map((e) => e.redacted)).toEqual(['erased', 'erased']);
  expect(second).toStrictEqual(await historyStore(raw, store).events.readAll(7, 2));
});

it('on a pool of two threads, pages asked for at once each come back as read alone', async () => {
  const pair = logPagesOffThread(file, 5000, 2)!;
  try {
    const keys = historyStore(raw, store).keys;
    const read = (after: number) => pair.readAllOf(after, 2, null, (user) => keys.forReading(user));
    const together = await Promise.all([read(0), read(2), read(4)]);
    expect(together.map((page) => page.events.map((e) => e.position))).toEqual([[1, 2], [3, 4], [5, 6]]);
    for (const [i, page] of together.entries()) expect(await read(i * 2)).toStrictEqual(page);
    await pair.close();
    expect(pair.running).toBe(false);
    await expect(read(0)).rejects.toThrow(/stopped/);
  } finally {
    await pair.close();
  }
});

it('the keys handed over with a read are read when it is asked for: a key destroyed since the page before redacts', async () => {
  const read = () => offThread.events.readAllOf!(0, 6, types);
  const before = await read();
  expect(before.events.map((e) => e.redacted ?? null)).toEqual([null, null, null, null, null]);
  await offThread.keys.destroy(ada);
  const after = await read();
  expect(trips).toBe(2);
  expect(after.events.map((e) => e.redacted ?? null)).toEqual(['erased', 'erased', null, null, 'erased']);
  expect(after).toStrictEqual(await historyStore(raw, store).events.readAllOf!(0, 6, types));
});
