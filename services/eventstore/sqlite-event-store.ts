/**
 * Embedded event store on one SQLite file (better-sqlite3): WAL, synchronous=FULL, so a resolved append survived an
 * fsync. Appends are group-committed: everything queued before the next setImmediate goes into one transaction, one
 * fsync. Each append is checked in queue order inside that transaction and fails alone.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  Subscription,
  WrongExpectedRevisionError,
} from './event-store.port';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS events (
  position  INTEGER PRIMARY KEY AUTOINCREMENT,
  stream_id TEXT    NOT NULL,
  revision  INTEGER NOT NULL,
  event_id  TEXT    NOT NULL UNIQUE,
  type      TEXT    NOT NULL,
  data      TEXT    NOT NULL,
  metadata  TEXT    NOT NULL,
  UNIQUE (stream_id, revision)
);`;

/** Live subscribers poll this often too, so commits by another process on the same file are seen. */
const POLL_MS = 200;
const PAGE = 500;

interface Row {
  position: number;
  stream_id: string;
  revision: number;
  event_id: string;
  type: string;
  data: string;
  metadata: string;
}

interface Pending {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

const toRecorded = (row: Row): RecordedEvent => ({
  id: row.event_id,
  type: row.type,
  data: JSON.parse(row.data),
  metadata: JSON.parse(row.metadata),
  streamId: row.stream_id,
  revision: row.revision,
  position: row.position,
});

export async function openSqliteEventStore(file: string): Promise<EventStore> {
  mkdirSync(dirname(file), { recursive: true });
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.exec(SCHEMA);

  const insert = db.prepare(
    'INSERT INTO events (stream_id, revision, event_id, type, data, metadata) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const lastRevision = db.prepare('SELECT MAX(revision) FROM events WHERE stream_id = ?').pluck();
  const byEventId = db.prepare('SELECT stream_id, revision, position FROM events WHERE event_id = ?');
  const streamFrom = db.prepare('SELECT * FROM events WHERE stream_id = ? AND revision >= ? ORDER BY revision LIMIT ?');
  const allAfter = db.prepare('SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ?');
  const head = db.prepare('SELECT COALESCE(MAX(position), 0) FROM events').pluck();

  /** Checks and writes one append; throws before writing anything when it must fail. */
  const appendOne = db.transaction((p: Pending): AppendResult => {
    const ids = p.events.map((e) => e.id);
    if (new Set(ids).size !== ids.length) throw new Error(`stream ${p.streamId}: duplicate event ids in one append`);
    const existing = ids.map((id) => byEventId.get(id) as Pick<Row, 'stream_id' | 'revision' | 'position'> | undefined);
    const found = existing.filter((row) => row !== undefined);
    if (found.length > 0) {
      if (found.length === ids.length && found.every((row) => row.stream_id === p.streamId)) {
        const last = found[found.length - 1];
        return { revision: last.revision, position: last.position, positions: found.map((row) => row.position) };
      }
      throw new Error(`stream ${p.streamId}: some event ids of this append are already stored (partial retry?)`);
    }
    const current = lastRevision.get(p.streamId) as number | null;
    const actual = current ?? 'no_stream';
    if (p.expected !== 'any' && p.expected !== actual) {
      throw new WrongExpectedRevisionError(p.streamId, p.expected, actual);
    }
    let revision = current ?? -1;
    const positions: number[] = [];
    for (const e of p.events) {
      revision += 1;
      const info = insert.run(p.streamId, revision, e.id, e.type, JSON.stringify(e.data ?? null), JSON.stringify(e.metadata));
      positions.push(Number(info.lastInsertRowid));
    }
    return { revision, position: positions[positions.length - 1], positions };
  });

  type Outcome = { ok: true; result: AppendResult } | { ok: false; error: unknown };
  const appendGroup = db.transaction((batch: Pending[]): Outcome[] =>
    batch.map((p) => {
      try {
        return { ok: true, result: appendOne(p) };
      } catch (error) {
        return { ok: false, error };
      }
    }),
  );

  let queue: Pending[] = [];
  let scheduled = false;
  let closed = false;
  const wakers = new Set<() => void>();

  /** One transaction for the whole queue: each append runs in a nested savepoint so a failing one rolls back alone. */
  function flush(): void {
    scheduled = false;
    const batch = queue;
    queue = [];
    if (batch.length === 0) return;
    let outcomes: Outcome[];
    try {
      outcomes = appendGroup.immediate(batch);
    } catch (error) {
      for (const p of batch) p.reject(error);
      return;
    }
    batch.forEach((p, i) => {
      const o = outcomes[i];
      if (o.ok) p.resolve(o.result);
      else p.reject(o.error);
    });
    if (outcomes.some((o) => o.ok)) for (const wake of wakers) wake();
  }

  const stops = new Set<() => Promise<void>>();

  function subscribeAll(after: number, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    let stopped = false;
    let signalled = false;
    let interrupt: (() => void) | null = null;
    const waker = (): void => {
      signalled = true;
      interrupt?.();
    };
    wakers.add(waker);

    /** Waits for a commit in this process, stop(), or the poll interval, whichever comes first. */
    const idle = (): Promise<void> =>
      signalled
        ? Promise.resolve()
        : new Promise((resolve) => {
            const timer = setTimeout(() => {
              interrupt = null;
              resolve();
            }, POLL_MS);
            interrupt = () => {
              clearTimeout(timer);
              interrupt = null;
              resolve();
            };
          });

    const run = async (): Promise<void> => {
      let cursor = after;
      while (!stopped) {
        signalled = false;
        const rows = allAfter.all(cursor, PAGE) as Row[];
        for (const row of rows) {
          if (stopped) return;
          await handler(toRecorded(row));
          cursor = row.position;
        }
        if (rows.length < PAGE && !stopped) await idle();
      }
    };

    const finish = (): void => {
      stopped = true;
      wakers.delete(waker);
      stops.delete(stop);
      waker();
    };
    const done = run().then(finish, (error) => {
      finish();
      throw error;
    });
    async function stop(): Promise<void> {
      finish();
      await done.catch(() => undefined);
    }
    stops.add(stop);
    return { stop, done };
  }

  return {
    append(streamId, events, expected) {
      if (closed) return Promise.reject(new Error('event store is closed'));
      if (events.length === 0) return Promise.reject(new Error(`stream ${streamId}: append needs at least one event`));
      return new Promise((resolve, reject) => {
        queue.push({ streamId, events, expected, resolve, reject });
        if (!scheduled) {
          scheduled = true;
          setImmediate(flush);
        }
      });
    },
    async readStream(streamId, fromRevision = 0, limit = -1) {
      return (streamFrom.all(streamId, fromRevision, limit) as Row[]).map(toRecorded);
    },
    async readAll(after, limit) {
      return (allAfter.all(after, limit) as Row[]).map(toRecorded);
    },
    subscribeAll,
    async headPosition() {
      return head.get() as number;
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...stops].map((stop) => stop()));
      flush();
      db.close();
    },
  };
}
