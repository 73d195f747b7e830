/**
 * Embedded event store on one SQLite file (better-sqlite3): WAL, synchronous=FULL, so a resolved append survived an
 * fsync. Appends are group-committed: everything queued before the next setImmediate goes into one transaction, one
 * fsync. Each append is checked in queue order inside that transaction and fails alone. WAL checkpoints run on a
 * worker thread (services/sqlite/background-checkpoint.ts). A file of the earlier layout is migrated when opened.
 */
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import type Database from 'better-sqlite3';
import { checkpointInBackground } from '../sqlite/background-checkpoint';
import { limitedStatements } from '../sqlite/limited';
import { logTail } from './log-tail';
import { AT, oncePerTurn, raw, SELECT, sqliteLogReader, type Row } from './sqlite-log-reader';
import { openSqliteFile, reclaimingFreePages, tableExists } from '../sqlite/sqlite-file';
import {
  AppendResult,
  EventStore,
  ExpectedRevision,
  NewEvent,
  RecordedEvent,
  Subscription,
  WrongExpectedRevisionError,
} from './event-store.port';
import { encodeId, encodeMetadata, METADATA_COLUMNS } from './sqlite-event-codec';

/**
 * One row per event, small: the stream and the type are integers naming rows of their own tables, ids and metadata
 * go through sqlite-event-codec.ts, the data stays JSON. The view `events` shows the log as text for outside tools
 * (sqlite3, DuckDB): position, stream_id, revision, event_id, type, data, occurred_at, user_id.
 */
const SCHEMA = `
CREATE TABLE IF NOT EXISTS streams (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS event_types (id INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE);
CREATE TABLE IF NOT EXISTS log (
  position INTEGER PRIMARY KEY AUTOINCREMENT,
  stream INTEGER NOT NULL,
  revision INTEGER NOT NULL,
  event_id NOT NULL,
  type INTEGER NOT NULL,
  data TEXT NOT NULL,
  ${METADATA_COLUMNS.join(', ')},
  metadata_extra TEXT
);
CREATE UNIQUE INDEX IF NOT EXISTS log_event_id ON log (event_id);
CREATE UNIQUE INDEX IF NOT EXISTS log_stream_revision ON log (stream, revision);`;

const uuidText = (col: string) =>
  `CASE WHEN typeof(${col}) = 'blob' THEN lower(substr(hex(${col}), 1, 8) || '-' || substr(hex(${col}), 9, 4) || '-' || ` +
  `substr(hex(${col}), 13, 4) || '-' || substr(hex(${col}), 17, 4) || '-' || substr(hex(${col}), 21)) ELSE ${col} END`;

const VIEW = `
CREATE VIEW IF NOT EXISTS events AS
SELECT l.position, s.name AS stream_id, l.revision, ${uuidText('l.event_id')} AS event_id, t.name AS type, l.data,
  CASE WHEN typeof(l.occurred_at) IN ('integer', 'real') THEN strftime('%Y-%m-%dT%H:%M:%fZ', l.occurred_at / 1000.0, 'unixepoch')
    ELSE l.occurred_at END AS occurred_at,
  ${uuidText('l.user_id')} AS user_id
FROM log l JOIN streams s ON s.id = l.stream JOIN event_types t ON t.id = l.type;`;

/** Live subscribers poll this often too, so commits by another process on the same file are seen. */
const POLL_MS = 200;
const PAGE = 500;
/** Streams whose last revision is remembered (streamHeads): the most recently written or read ones. */
const HEADS_LIMIT = 20_000;
/** Rows copied per step when a file of the earlier layout (one `events` table of text) is migrated. */
const MIGRATE_CHUNK = 5000;

interface Pending {
  streamId: string;
  events: NewEvent[];
  expected: ExpectedRevision;
  resolve: (result: AppendResult) => void;
  reject: (error: unknown) => void;
}

/** Copies a log of the earlier layout into this one, keeping every position; the file then shrinks once. */
function migrate(db: Database.Database, insert: (streamId: string, revision: number, e: NewEvent, position: number) => void): void {
  if (!tableExists(db, 'events')) return;
  db.transaction(() => {
    const read = db.prepare(`SELECT * FROM events WHERE position > ? ORDER BY position LIMIT ${MIGRATE_CHUNK}`);
    for (let after = 0; ; ) {
      const rows = read.all(after) as Array<{ position: number; stream_id: string; revision: number; event_id: string; type: string; data: string; metadata: string }>;
      for (const r of rows) {
        insert(r.stream_id, r.revision, { id: r.event_id, type: r.type, data: JSON.parse(r.data), metadata: JSON.parse(r.metadata) }, r.position);
        after = r.position;
      }
      if (rows.length < MIGRATE_CHUNK) break;
    }
    db.exec('DROP TABLE events');
  })();
  reclaimingFreePages(db);
}

export async function openSqliteEventStore(file: string): Promise<EventStore> {
  mkdirSync(dirname(file), { recursive: true });
  const db = openSqliteFile(file, 'FULL');
  db.exec(SCHEMA);

  const sql = {
    insert: db.prepare(
      `INSERT INTO log (position, stream, revision, event_id, type, data, ${METADATA_COLUMNS.join(', ')}, metadata_extra)
       VALUES (${Array.from({ length: 7 + METADATA_COLUMNS.length }, () => '?').join(', ')})`,
    ),
    streamId: db.prepare('SELECT id FROM streams WHERE name = ?').pluck(),
    newStream: db.prepare('INSERT INTO streams (name) VALUES (?)'),
    lastRevision: db.prepare('SELECT max(revision) FROM log WHERE stream = ?').pluck(),
    byEventId: db.prepare('SELECT s.name AS stream, l.revision, l.position FROM log l JOIN streams s ON s.id = l.stream WHERE l.event_id = ?'),
    streamFrom: limitedStatements(db, (limit) => `${SELECT} WHERE l.stream = ? AND l.revision >= ? ORDER BY l.revision${limit}`, raw),
    head: db.prepare('SELECT coalesce(max(position), 0) FROM log').pluck(),
  };

  const log = sqliteLogReader(db);
  const streamKey = (name: string): number => (sql.streamId.get(name) as number | undefined) ?? Number(sql.newStream.run(name).lastInsertRowid);
  const insert = (streamId: string, revision: number, e: NewEvent, position: number | null): number => {
    const meta = encodeMetadata(e.metadata);
    const info = sql.insert.run(position, streamKey(streamId), revision, encodeId(e.id), log.typeId(e.type), JSON.stringify(e.data ?? null), ...meta.columns, meta.extra);
    return Number(info.lastInsertRowid);
  };
  // Not `log.toRecorded` passed to map: its second parameter is the data, and map would pass the index there.
  const toRecorded = (row: Row) => log.toRecorded(row);

  migrate(db, insert);
  db.exec(VIEW);
  const foreignCommits = oncePerTurn(log.foreignCommits);
  const heads = streamHeads(foreignCommits);
  const headNow = () => sql.head.get() as number;
  const tail = logTail(foreignCommits, headNow());
  const stopCheckpoints = await checkpointInBackground(file);

  /** Checks and writes one append; throws before writing anything when it must fail. */
  const appendOne = db.transaction((p: Pending): AppendResult => {
    const ids = p.events.map((e) => e.id);
    if (new Set(ids).size !== ids.length) throw new Error(`stream ${p.streamId}: duplicate event ids in one append`);
    const existing = ids.map((id) => sql.byEventId.get(encodeId(id)) as { stream: string; revision: number; position: number } | undefined);
    const found = existing.filter((row) => row !== undefined);
    if (found.length > 0) {
      if (found.length === ids.length && found.every((row) => row.stream === p.streamId)) {
        const last = found[found.length - 1];
        return { revision: last.revision, position: last.position, positions: found.map((row) => row.position) };
      }
      throw new Error(`stream ${p.streamId}: some event ids of this append are already stored (partial retry?)`);
    }
    const stream = sql.streamId.get(p.streamId) as number | undefined;
    const current = stream === undefined ? null : (sql.lastRevision.get(stream) as number | null);
    const actual = current ?? 'no_stream';
    if (p.expected !== 'any' && p.expected !== actual) {
      throw new WrongExpectedRevisionError(p.streamId, p.expected, actual);
    }
    let revision = current ?? -1;
    const positions: number[] = [];
    for (const e of p.events) positions.push(insert(p.streamId, ++revision, e, null));
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
      log.loadTypes();
      for (const p of batch) p.reject(error);
      return;
    }
    tail.committed(headNow, (after, limit) => log.readAll(after, limit).map(toRecorded));
    if (outcomes.some((o) => !o.ok)) log.loadTypes();
    batch.forEach((p, i) => {
      const o = outcomes[i];
      if (o.ok) {
        heads.note(p.streamId, o.result.revision);
        p.resolve(o.result);
      } else p.reject(o.error);
    });
    if (outcomes.some((o) => o.ok)) for (const wake of wakers) wake();
  }

  const stops = new Set<() => Promise<void>>();
  const readAll = (after: number, limit: number): RecordedEvent[] => tail.readAll(after, limit) ?? log.readAll(after, limit).map(toRecorded);

  /** Resolves at the next commit of this process, after POLL_MS (another process may append), or when `signal` aborts. */
  function waitForAppend(after: number, signal?: AbortSignal): Promise<void> {
    // The tail's head, when it can tell: what a follower read from the tail was read at that head.
    if (closed || signal?.aborted || (tail.head() ?? headNow()) > after) return Promise.resolve();
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        wakers.delete(done);
        signal?.removeEventListener('abort', done);
        resolve();
      };
      const timer = setTimeout(done, POLL_MS);
      wakers.add(done);
      signal?.addEventListener('abort', done, { once: true });
    });
  }

  function subscribeAll(after: number, handler: (event: RecordedEvent) => Promise<void>): Subscription {
    const stopping = new AbortController();
    const run = async (): Promise<void> => {
      let cursor = after;
      while (!stopping.signal.aborted) {
        const events = readAll(cursor, PAGE);
        for (const event of events) {
          if (stopping.signal.aborted) return;
          await handler(event);
          cursor = event.position;
        }
        if (events.length < PAGE) await waitForAppend(cursor, stopping.signal);
      }
    };
    const finish = (): void => {
      stopping.abort();
      stops.delete(stop);
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
      if (heads.before(streamId, fromRevision)) return [];
      const stream = sql.streamId.get(streamId) as number | undefined;
      const rows = stream === undefined ? [] : (sql.streamFrom(limit).all(stream, fromRevision) as Row[]);
      if (limit < 0 || rows.length < limit) heads.note(streamId, rows.length ? rows[rows.length - 1][AT.revision] : fromRevision - 1);
      return rows.map(toRecorded);
    },
    readAll: async (after, limit) => readAll(after, limit),
    // Rows of other types are skipped inside SQLite, never parsed here.
    async readAllOf(after, limit, types) {
      const recent = tail.readAllOf(after, limit, types);
      if (recent) return recent;
      const { rows, reached } = log.rowsOf(after, limit, types);
      return { events: rows.map(toRecorded), reached };
    },
    subscribeAll,
    waitForAppend,
    async headPosition() {
      return tail.head() ?? headNow();
    },
    async close() {
      if (closed) return;
      closed = true;
      await Promise.all([...stops].map((stop) => stop()));
      for (const wake of wakers) wake();
      flush();
      await stopCheckpoints();
      db.close();
    },
  };
}

/**
 * The last revision of recently appended or read streams, so that reading a stream from past its end (a command
 * handler refreshing a cached state: most reads) answers without a query. What is noted is an upper bound of the
 * stream's last revision; it holds while no other connection commits (checked on each use).
 */
function streamHeads(foreignCommits: () => number) {
  let checked = foreignCommits();
  const last = new Map<string, number>();
  return {
    /** True when the stream surely ends before `revision`. */
    before(streamId: string, revision: number): boolean {
      const commits = foreignCommits();
      if (commits !== checked) {
        checked = commits;
        last.clear();
        return false;
      }
      const head = last.get(streamId);
      return head !== undefined && head < revision;
    },
    note(streamId: string, revision: number): void {
      last.delete(streamId);
      last.set(streamId, revision);
      if (last.size > HEADS_LIMIT) last.delete(last.keys().next().value as string);
    },
  };
}
