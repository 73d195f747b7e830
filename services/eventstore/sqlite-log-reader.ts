/**
 * Reading the embedded log (sqlite-event-store.ts), on any connection to its file: the store's own, and the read-only
 * one of the worker thread that reads and opens catch-up pages (log-pages-worker.ts).
 */
import type Database from 'better-sqlite3';
import { limitedStatements } from '../sqlite/limited';
import type { RecordedEvent } from './event-store.port';
import { decodeMetadata, METADATA_COLUMNS, unquoteId, type Stored } from './sqlite-event-codec';

/**
 * Ids come back quoted by SQLite (unquoteId): a Buffer per id per row cost more than the rest of a read, and building
 * the UUID text in SQL cost every query ~13 µs per id column even when it found no row.
 */
const ID_COLUMNS = new Set(['event_id', 'user_id', 'space_id', 'correlation_id', 'causation_id']);
const column = (c: string) => (ID_COLUMNS.has(c) ? `quote(l.${c}) AS ${c}` : `l.${c}`);
const SELECTED = ['event_id', 'type', 'data', ...METADATA_COLUMNS, 'metadata_extra'];
/** The log's events with their stream's name; prepare it with `raw`, so that its rows come back as `Row`s. */
export const SELECT = `SELECT l.position, s.name AS stream, l.revision, ${SELECTED.map(column).join(', ')}
  FROM log l JOIN streams s ON s.id = l.stream`;

/**
 * A row of SELECT as better-sqlite3's raw mode gives it, an array in column order: a row read as an object cost
 * about 60 % more than the query itself. Ids are quoted (unquoteId).
 */
export type Row = [position: number, stream: string, revision: number, eventId: string, type: number, data: string, ...metadata: Stored[]];
/** Where each column is in a Row. */
export const AT = { position: 0, stream: 1, revision: 2, eventId: 3, type: 4, data: 5 } as const;
const METADATA_AT = 6;
const IS_ID = METADATA_COLUMNS.map((c) => ID_COLUMNS.has(c));
const EXTRA_AT = METADATA_AT + METADATA_COLUMNS.length;
export const raw = (statement: Database.Statement) => statement.raw();

/** How many times commits by another connection to the file were noticed so far (PRAGMA data_version, one query). */
export function commitsByOthers(db: Database.Database): () => number {
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seen = dataVersion.get();
  let noticed = 0;
  return () => {
    const version = dataVersion.get();
    if (version !== seen) {
      seen = version;
      noticed++;
    }
    return noticed;
  };
}

/**
 * `count` asked at most once per event-loop turn, for checks made on every read (every follower reads after each
 * commit): within one turn they all see the file as it was at the first. Not for reads that must see the types a
 * commit they just read added (rowsOf).
 */
export function oncePerTurn(count: () => number): () => number {
  let value: number | null = null;
  return () => {
    if (value === null) {
      value = count();
      setImmediate(() => (value = null));
    }
    return value;
  };
}

export function sqliteLogReader(db: Database.Database) {
  const sql = {
    newType: db.prepare('INSERT INTO event_types (name) VALUES (?)'),
    typeByName: db.prepare('SELECT id FROM event_types WHERE name = ?').pluck(),
    allAfter: limitedStatements(db, (limit) => `${SELECT} WHERE l.position > ? ORDER BY l.position${limit}`, raw),
    windowEnd: limitedStatements(
      db,
      (limit) => `SELECT max(position) FROM (SELECT position FROM log WHERE position > ? ORDER BY position${limit})`,
      (s) => s.pluck(),
    ),
    ofTypesIn: raw(db.prepare(`${SELECT} WHERE l.position > ? AND l.position <= ? AND l.type IN (SELECT value FROM json_each(?)) ORDER BY l.position`)),
  };

  // Event types are few: both directions are kept in memory (read again after a rollback, and when another
  // connection to this file added one).
  const typeIds = new Map<string, number>();
  const typeNames = new Map<number, string>();
  const loadTypes = () => {
    typeIds.clear();
    typeNames.clear();
    for (const t of db.prepare('SELECT id, name FROM event_types').all() as Array<{ id: number; name: string }>) {
      typeIds.set(t.name, t.id);
      typeNames.set(t.id, t.name);
    }
  };
  loadTypes();
  const typeName = (id: number): string => {
    if (!typeNames.has(id)) loadTypes();
    return typeNames.get(id)!;
  };
  const foreignCommits = commitsByOthers(db);
  let typesLoadedAt = foreignCommits();

  /** The event of a row; its data as given (the row's, parsed, unless the caller handles it). */
  const toRecorded = (row: Row, data: unknown = JSON.parse(row[AT.data])): RecordedEvent => ({
    id: unquoteId(row[AT.eventId])!,
    type: typeName(row[AT.type]),
    data,
    metadata: decodeMetadata(
      IS_ID.map((isId, i) => (isId ? unquoteId(row[METADATA_AT + i] as string) : row[METADATA_AT + i])),
      row[EXTRA_AT] as string | null,
    ),
    streamId: row[AT.stream],
    revision: row[AT.revision],
    position: row[AT.position],
  });

  return {
    toRecorded,
    foreignCommits,
    loadTypes,
    /** The type's id, added on first use (writers only). */
    typeId(name: string): number {
      let id = typeIds.get(name);
      if (id === undefined) {
        id = (sql.typeByName.get(name) as number | undefined) ?? Number(sql.newType.run(name).lastInsertRowid);
        typeIds.set(name, id);
        typeNames.set(id, name);
      }
      return id;
    },
    readAll: (after: number, limit: number): Row[] => sql.allAfter(limit).all(after) as Row[],
    /** Rows of the given types among the next `limit` of the log; rows of other types are skipped inside SQLite. */
    rowsOf(after: number, limit: number, types: Iterable<string>): { rows: Row[]; reached: number } {
      const reached = (sql.windowEnd(limit).get(after) as number | null) ?? after;
      // Types another connection added are loaded first; checked after `reached`, since an event commits with its type.
      const commits = foreignCommits();
      if (commits !== typesLoadedAt) {
        typesLoadedAt = commits;
        loadTypes();
      }
      const ids = [...types].map((name) => typeIds.get(name)).filter((id) => id !== undefined);
      const rows = reached > after && ids.length ? (sql.ofTypesIn.all(after, reached, JSON.stringify(ids)) as Row[]) : [];
      return { rows, reached };
    },
  };
}
