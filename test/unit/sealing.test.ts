/**
 * The crypto decorator around the event store: data sealed per user on append, opened on every read path while
 * the key exists, redacted (data null + marker) once it is destroyed; the key store caches and is bounded.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { historyStore } from '../../services/eventstore/decoding-event-store';
import type { EventStore, NewEvent, RecordedEvent } from '../../services/eventstore/event-store.port';
import { keyOwners, SEALED } from '../../services/eventstore/sealing';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import { USER_KEYS, UserErasedError, UserKeys } from '../../services/eventstore/user-keys';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';

const ada = randomUUID();
const bob = randomUUID();

function event(type: string, data: unknown, userId: string | null): NewEvent {
  return {
    id: randomUUID(), type, data,
    metadata: { userId, correlationId: 'c', causationId: 'c', occurredAt: new Date().toISOString(), schemaVersion: 1 },
  };
}

let dir: string;
let raw: EventStore;
let store: ReadStore;
let history: ReturnType<typeof historyStore>;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'sealing-'));
  raw = await openSqliteEventStore(path.join(dir, 'events.sqlite'));
  store = await openEmbeddedReadStore(path.join(dir, 'read.sqlite'));
  history = historyStore(raw, store);
});
afterEach(async () => {
  await raw.close();
  await store.close();
});

describe('sealing decorator', () => {
  it('stores an author\'s data sealed, and every read path gives it back in clear', async () => {
    const data = { id: randomUUID(), title: 'Dentist with Dr Moreau', createdBy: ada };
    await history.events.append('s-1', [event('thing.noted', data, ada)], 'no_stream');

    const [stored] = await raw.readStream('s-1');
    expect(Object.keys(stored.data as object)).toEqual([SEALED]);
    expect((stored.data as Record<string, string>)[SEALED].startsWith(`${ada}.`)).toBe(true);
    expect(readFileSync(path.join(dir, 'events.sqlite')).includes('Dentist')).toBe(false);

    expect((await history.events.readStream('s-1'))[0].data).toEqual(data);
    expect((await history.events.readAll(0, 10))[0].data).toEqual(data);
    const followed: RecordedEvent[] = [];
    const sub = history.events.subscribeAll(0, async (e) => void followed.push(e));
    for (let i = 0; i < 50 && followed.length === 0; i++) await new Promise((r) => setTimeout(r, 20));
    await sub.stop();
    expect(followed.map((e) => e.data)).toEqual([data]);
    expect(await history.codec.decode(stored)).toEqual((await history.events.readAll(0, 1))[0]);
  });

  it('hands the bus\'s consumers the event the log\'s readers decoded, until an erasure passes', async () => {
    await history.events.append('s-6', [event('thing.noted', { secret: 'x' }, ada)], 'no_stream');
    const [stored] = await raw.readAll(0, 1);
    const [read] = await history.events.readAll(0, 1);
    expect(await history.codec.decode(stored)).toBe(read);
    expect(await history.codec.decode(JSON.parse(JSON.stringify(stored)))).toBe(read);

    expect(await history.keys.destroy(ada)).toBe(true);
    await history.events.append('erasure', [event('user.erased', { userId: ada, erasedAt: 'now' }, null)], 'no_stream');
    const [, erasure] = await raw.readAll(0, 2);
    await history.codec.decode(erasure);
    expect(await history.codec.decode(stored)).toMatchObject({ data: null, redacted: 'erased' });
  });

  it('seals under the author and the owner the data names, so destroying either key redacts it', async () => {
    const answer = {
      id: randomUUID(), title: 'Ada\'s review', createdBy: ada, taskId: null, goalId: null, reminders: [], exceptions: [], icalUid: null, icalRecurrenceId: null,
    };
    expect(keyOwners(event('event.updated', answer, bob))).toEqual([ada, bob]);
    expect(keyOwners(event('email.claimed', { email: 'a@example.com', userId: ada }, null))).toEqual([ada]);
    expect(keyOwners(event('user.erased', { userId: ada }, null))).toEqual([]);
    expect(keyOwners(event('thing.noted', { n: 1 }, null))).toEqual([]);

    await history.events.append('s-2', [event('event.updated', answer, bob), event('thing.noted', { note: 'Bob only' }, bob)], 'no_stream');
    expect((await history.events.readStream('s-2')).map((e) => e.data)).toEqual([answer, { note: 'Bob only' }]);

    expect(await history.keys.destroy(ada)).toBe(true);
    const [both, bobs] = await history.events.readStream('s-2');
    expect(both).toMatchObject({ data: null, redacted: 'erased', type: 'event.updated', revision: 0 });
    expect(bobs).toMatchObject({ data: { note: 'Bob only' } });
    expect(bobs.redacted).toBeUndefined();
  });

  it('upcasts after opening', async () => {
    const v1 = event('event.created', { id: randomUUID(), title: 'Old', createdBy: ada }, ada);
    await history.events.append('s-3', [v1], 'no_stream');
    const [read] = await history.events.readStream('s-3');
    expect(read.data).toEqual({ ...(v1.data as object), taskId: null, goalId: null, reminders: [], exceptions: [], icalUid: null, icalRecurrenceId: null });
    expect(read.metadata.schemaVersion).toBe(4);
  });

  it('an erased user\'s key is gone from the store for good and nothing new is sealed for them', async () => {
    await history.events.append('s-4', [event('thing.noted', { secret: 'x' }, ada)], 'no_stream');
    expect((await store.collection(USER_KEYS).get(ada))?.key).toEqual(expect.any(String));
    expect(await history.keys.destroy(ada)).toBe(true);
    expect(await history.keys.destroy(ada)).toBe(false);
    expect(await store.collection(USER_KEYS).get(ada)).toEqual({ _id: ada, erasedAt: expect.any(String) });
    await expect(history.events.append('s-4', [event('thing.noted', { secret: 'y' }, ada)], 0)).rejects.toBeInstanceOf(UserErasedError);
    expect(await raw.readStream('s-4')).toHaveLength(1);
  });

  it('another process forgets its cached key when it reads the user.erased event', async () => {
    const other = historyStore(raw, store); // a second process: its own key cache
    await history.events.append('s-5', [event('thing.noted', { secret: 'x' }, ada)], 'no_stream');
    expect((await other.events.readStream('s-5'))[0].data).toEqual({ secret: 'x' }); // cached now
    await store.collection(USER_KEYS).put({ _id: ada, erasedAt: new Date().toISOString() }); // erased elsewhere
    expect((await other.events.readStream('s-5'))[0].data).toEqual({ secret: 'x' }); // until it learns
    await history.events.append('erasure', [event('user.erased', { userId: ada, erasedAt: 'now' }, null)], 'no_stream');
    const log = await other.events.readAll(0, 10);
    expect(log.map((e) => e.type)).toEqual(['thing.noted', 'user.erased']);
    expect(log[1].data).toEqual({ userId: ada, erasedAt: 'now' });
    expect((await other.events.readStream('s-5'))[0]).toMatchObject({ data: null, redacted: 'erased' });
  });
});

describe('user key store', () => {
  it('keeps at most `limit` keys in memory and reads a key once while cached', async () => {
    let reads = 0;
    const counting: ReadStore = {
      ...store,
      collection: ((name: string) => {
        const c = store.collection(name);
        return { ...c, get: (id: string) => ((reads += 1), c.get(id)) };
      }) as ReadStore['collection'],
    };
    const keys = new UserKeys(counting, 2);
    const users = [randomUUID(), randomUUID(), randomUUID()];
    const made = await Promise.all(users.map((u) => keys.forWriting(u)));
    expect(new Set(made.map((k) => k.toString('hex'))).size).toBe(3);
    reads = 0;
    expect(await keys.forReading(users[2])).toEqual(made[2]);
    expect(await keys.forReading(users[1])).toEqual(made[1]);
    expect(reads).toBe(0);
    expect(await keys.forReading(users[0])).toEqual(made[0]); // evicted: read again
    expect(reads).toBe(1);
  });
});
