import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { EventStore } from '../../services/eventstore/event-store.port';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import { eventStoreContract, eventually, newEvent, newStream } from './event-store.contract';

const dirs: string[] = [];
const freshFile = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'event-store-'));
  dirs.push(dir);
  return join(dir, 'events.sqlite');
};
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

eventStoreContract('embedded SQLite', () => openSqliteEventStore(freshFile()));

/** Two stores on one file, as two processes (roles, a CLI) have them; both closed after `use`. */
async function twoOnOneFile(use: (one: EventStore, other: EventStore) => Promise<void>): Promise<void> {
  const file = freshFile();
  const [one, other] = [await openSqliteEventStore(file), await openSqliteEventStore(file)];
  try {
    await use(one, other);
  } finally {
    await one.close();
    await other.close();
  }
}

describe('embedded SQLite event store', () => {
  it('reads and writes event types that another process on the same file added (the roles run as processes)', async () => {
    await twoOnOneFile(async (api, projector) => {
      const s = newStream();
      await api.append(s, [newEvent('first.kind')], 'no_stream');
      await projector.append(s, [newEvent('second.kind'), newEvent('first.kind')], 0);
      await api.append(s, [newEvent('second.kind')], 2);
      for (const store of [api, projector]) {
        expect((await store.readStream(s)).map((e) => e.type)).toEqual(['first.kind', 'second.kind', 'first.kind', 'second.kind']);
      }
    });
  });

  it('reads past what it remembers of a stream once another process on the same file appended to it', async () => {
    await twoOnOneFile(async (api, other) => {
      const [s, fresh] = [newStream(), newStream()];
      await api.append(s, [newEvent('a')], 'no_stream');
      expect(await api.readStream(s, 1)).toEqual([]); // remembered: s ends at revision 0
      expect(await api.readStream(fresh)).toEqual([]); // remembered: fresh holds nothing
      await other.append(s, [newEvent('b')], 0);
      await other.append(fresh, [newEvent('c')], 'no_stream');
      expect((await api.readStream(s, 1)).map((e) => e.type)).toEqual(['b']);
      expect((await api.readStream(fresh)).map((e) => e.type)).toEqual(['c']);
      await api.append(s, [newEvent('d')], 1);
      expect((await other.readStream(s, 2)).map((e) => e.type)).toEqual(['d']);
    });
  });

  it('reads by type the events of a type that another process on the same file added after this one last looked', async () => {
    await twoOnOneFile(async (api, other) => {
      const s = newStream();
      const first = await api.append(s, [newEvent('known.kind')], 'no_stream');
      const wanted = new Set(['known.kind', 'brand.new.kind']);
      expect((await api.readAllOf!(0, 10, wanted)).events.map((e) => e.type)).toEqual(['known.kind']);
      await other.append(s, [newEvent('brand.new.kind')], 0);
      const page = await api.readAllOf!(first.position, 10, wanted);
      expect(page.events.map((e) => e.type)).toEqual(['brand.new.kind']);
    });
  });

  it('follows the head across commits of this process and another one on the same file', async () => {
    await twoOnOneFile(async (api, other) => {
      const s = newStream();
      const a = await api.append(s, [newEvent('a')], 'no_stream');
      expect(await api.readAll(a.position, 10)).toEqual([]);
      await other.append(s, [newEvent('b')], 0);
      expect((await api.readAll(a.position, 10)).map((e) => e.type)).toEqual(['b']);
      expect((await api.readAllOf!(a.position, 10, new Set(['b']))).events.map((e) => e.type)).toEqual(['b']);
      const c = await api.append(s, [newEvent('c')], 1);
      expect((await api.readAll(a.position, 10)).map((e) => e.type)).toEqual(['b', 'c']);
      await other.append(s, [newEvent('d')], 2);
      expect((await api.readAll(c.position, 10)).map((e) => e.type)).toEqual(['d']);
      const e = await api.append(s, [newEvent('e'), newEvent('f')], 3);
      expect((await api.readAll(c.position, 10)).map((x) => x.revision)).toEqual([3, 4, 5]);
      expect(await api.readAll(e.position, 10)).toEqual([]);
    });
  });

  it('keeps events and positions across close and reopen', async () => {
    const file = freshFile();
    const s = newStream();
    let store: EventStore = await openSqliteEventStore(file);
    const first = await store.append(s, [newEvent('a', { ü: '→' }), newEvent('b')], 'no_stream');
    const before = await store.readStream(s);
    await store.close();

    store = await openSqliteEventStore(file);
    try {
      expect(await store.readStream(s)).toEqual(before);
      expect(await store.headPosition()).toBe(first.position);
      const next = await store.append(s, [newEvent('c')], 1);
      expect(next).toEqual({ revision: 2, position: first.position + 1, positions: [first.position + 1] });
    } finally {
      await store.close();
    }
  });

  it('commits a group of 200 concurrent appends to different streams', async () => {
    const store = await openSqliteEventStore(freshFile());
    try {
      const streams = Array.from({ length: 200 }, () => newStream());
      const results = await Promise.all(streams.map((s) => store.append(s, [newEvent(), newEvent()], 'no_stream')));
      const positions = results.map((r) => r.position);
      expect(new Set(positions).size).toBe(200);
      expect(results.every((r) => r.revision === 1)).toBe(true);
      const log = await store.readAll(0, 1000);
      expect(log).toHaveLength(400);
      expect(await store.headPosition()).toBe(log[399].position);
      for (const [i, s] of streams.entries()) {
        const events = await store.readStream(s);
        expect(events.map((e) => e.revision)).toEqual([0, 1]);
        expect(events[1].position).toBe(positions[i]);
      }
    } finally {
      await store.close();
    }
  });

  it("answers a retry with 'any' or a newer expected revision with the original result", async () => {
    const store = await openSqliteEventStore(freshFile());
    try {
      const s = newStream();
      const batch = [newEvent()];
      const original = await store.append(s, batch, 'any');
      await store.append(s, [newEvent()], 0);
      expect(await store.append(s, batch, 'any')).toEqual(original);
      expect(await store.append(s, batch, 1)).toEqual(original);
      expect(await store.readStream(s)).toHaveLength(2);
    } finally {
      await store.close();
    }
  });

  it('refuses an event id already stored in another stream, failing alone within its group', async () => {
    const store = await openSqliteEventStore(freshFile());
    try {
      const e = newEvent();
      await store.append(newStream(), [e], 'no_stream');
      const other = newStream();
      const [dup, ok] = await Promise.allSettled([
        store.append(other, [e], 'no_stream'),
        store.append(newStream(), [newEvent()], 'no_stream'),
      ]);
      expect(dup.status).toBe('rejected');
      expect(ok.status).toBe('fulfilled');
      expect(await store.readStream(other)).toEqual([]);
      const x = newEvent();
      await expect(store.append(other, [x, { ...newEvent(), id: x.id }], 'any')).rejects.toThrow(/duplicate/);
    } finally {
      await store.close();
    }
  });

  it('sees events appended through another connection to the same file (poll fallback)', async () => {
    const file = freshFile();
    const reader = await openSqliteEventStore(file);
    const writer = await openSqliteEventStore(file);
    try {
      const s = newStream();
      const got: string[] = [];
      const sub = reader.subscribeAll(0, async (e) => void got.push(e.id));
      const e = newEvent();
      await writer.append(s, [e], 'no_stream');
      await eventually(() => got.length > 0, 2000);
      expect(got).toEqual([e.id]);
      await sub.stop();
    } finally {
      await writer.close();
      await reader.close();
    }
  });

  it('stops subscriptions on close and refuses appends afterwards', async () => {
    const store = await openSqliteEventStore(freshFile());
    const sub = store.subscribeAll(0, async () => undefined);
    await store.close();
    await expect(sub.done).resolves.toBeUndefined();
    await expect(store.append(newStream(), [newEvent()], 'any')).rejects.toThrow(/closed/);
  });

  it('keeps ids that are not canonical UUIDs as they are', async () => {
    const store = await openSqliteEventStore(freshFile());
    try {
      const s = newStream();
      const quoted = { ...newEvent(), id: "it's 'NULL'" };
      quoted.metadata = { ...quoted.metadata, userId: null, correlationId: 'NULL', causationId: "o'clock" };
      const events = [{ ...newEvent(), id: 'evt-1' }, { ...newEvent(), id: newEvent().id.toUpperCase() }, quoted];
      const result = await store.append(s, events, 'no_stream');
      expect((await store.readStream(s)).map((e) => e.id)).toEqual(events.map((e) => e.id));
      expect((await store.readAll(result.position - 1, 1))[0].metadata).toEqual(quoted.metadata);
      expect(await store.append(s, events, 'any')).toEqual(result); // a retry is still recognised by its ids
    } finally {
      await store.close();
    }
  });

  it('migrates a log of the earlier layout, keeping positions, and shows the log as text through the view', async () => {
    const file = freshFile();
    const old = new Database(file);
    old.exec(`CREATE TABLE events (
      position INTEGER PRIMARY KEY AUTOINCREMENT, stream_id TEXT NOT NULL, revision INTEGER NOT NULL, event_id TEXT NOT NULL UNIQUE,
      type TEXT NOT NULL, data TEXT NOT NULL, metadata TEXT NOT NULL, UNIQUE (stream_id, revision))`);
    const s = newStream();
    const written = [newEvent('a', { n: 1 }), newEvent('b', { n: 2 }), newEvent('c', { n: 3 })];
    const insert = old.prepare('INSERT INTO events VALUES (?, ?, ?, ?, ?, ?, ?)');
    written.forEach((e, i) => insert.run([1, 2, 5][i], s, i, e.id, e.type, JSON.stringify(e.data), JSON.stringify(e.metadata)));
    old.close();

    const store = await openSqliteEventStore(file);
    try {
      const read = await store.readStream(s);
      expect(read).toEqual(written.map((e, i) => ({ ...e, streamId: s, revision: i, position: [1, 2, 5][i] })));
      expect((await store.append(s, [newEvent('d')], 2)).position).toBe(6);
      const view = new Database(file, { readonly: true });
      const rows = view.prepare('SELECT position, stream_id, event_id, type, occurred_at, user_id FROM events ORDER BY position').all();
      view.close();
      expect(rows[0]).toEqual({ position: 1, stream_id: s, event_id: written[0].id, type: 'a', occurred_at: written[0].metadata.occurredAt, user_id: 'user-1' });
      expect(rows).toHaveLength(4);
    } finally {
      await store.close();
    }
  });

  it('keeps an event in little more than its data takes', async () => {
    const file = freshFile();
    const store = await openSqliteEventStore(file);
    const data = { title: 'x'.repeat(600), spaceId: newStream(), startsAt: '2030-01-07T09:00:00.000Z' };
    const dataBytes = JSON.stringify(data).length;
    for (let i = 0; i < 20; i++) await store.append(newStream('space'), Array.from({ length: 100 }, () => newEvent('event.created', data)), 'any');
    await store.close();
    expect(statSync(file).size / 2000).toBeLessThan(dataBytes + 250);
  });
});
