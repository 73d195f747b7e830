/**
 * Embedded read store on one SQLite file, documents on disk first: each collection is a table of JSON rows, each
 * indexed field a key column (keyOf: SQLite's order becomes MongoDB's across types) with real SQLite indexes over
 * them, and filters compile to SQL over those (sql-filter.ts). What a column cannot decide (fields without an index,
 * or holding arrays) is checked in JavaScript with MongoDB's rules, so this adapter and the MongoDB one pass the same
 * contract suite. A bounded LRU cache keeps hot documents parsed.
 *
 * Writes are group-committed on one connection (WAL, synchronous=NORMAL): those of one event-loop turn share a
 * transaction, and each resolves once that is committed, so an acknowledged write survives a killed process, and a
 * checkpoint written after its documents never survives without them. A dropped collection's table is emptied and dropped in the background a slice at a time, and the freed pages
 * go back to the file system (auto_vacuum=INCREMENTAL). Files in the earlier layout (one `docs` table) are migrated
 * when opened.
 */
import type Database from 'better-sqlite3';
import { checkpointInBackground } from '../sqlite/background-checkpoint';
import { openSqliteFile, reclaimingFreePages, returnFreePages } from '../sqlite/sqlite-file';
import { BuildingRows } from './building-rows';
import { DocCache } from './doc-cache';
import { checkField, compileFilter, keyOf, sortDocs, storedValue, type Key } from './doc-values';
import type { Collection, Doc, Filter, FindOptions, ReadStore } from './read-store.port';
import { GroupCommit } from './group-commit';
import { migrateEarlierLayout } from './earlier-layout';
import { chooseIndex, planQuery, splitIn, type QueryPlan } from './sql-filter';

export interface EmbeddedReadStoreOptions {
  /** Bytes of document JSON kept parsed in memory (least recently used out first). */
  cacheBytes?: number;
  /**
   * Checking mode: a find, count or deleteMany whose SQL plan scans a collection (no index serves its filter), or
   * that sorts a limited page outside an index, throws instead of running.
   */
  requireIndexes?: boolean;
  /** Where rows are in collections being built (building-rows.ts); given here only to set its budget or hash. */
  buildingRows?: BuildingRows;
}

export interface EmbeddedReadStore extends ReadStore {
  /** Empties and drops dropped collections' tables and returns the freed pages to the file system now. */
  reclaimSpace(): Promise<void>;
}

interface IndexDef {
  fields: string[];
  unique: boolean;
  /** Declared deferred and not built yet: its key columns are kept up, its SQLite index is made before a query. */
  pending?: true;
}

interface Meta {
  /** Field -> key column (`k<n>`); `_id` and `_pos` have the fixed columns `id` and `pos`. */
  columns: Record<string, string>;
  indexes: IndexDef[];
  /** Indexed fields that have held an array: MongoDB matches their elements, so their column answers nothing. */
  arrays: string[];
  /**
   * Made with its id index deferred (storage being built): no key on `id` yet. While this process tracks its rows
   * (building-rows.ts), each id has one row, found by rowid; otherwise each putIfNewer appends a row, several rows
   * may hold one id until the collection is keyed, and anything else keys it first (`keyed`).
   */
  unkeyed?: true;
}

interface State {
  table: number;
  meta: Meta;
  /** Fields with a key column of their own, in column order. */
  fields: string[];
  /** The write statements' SQL, made once per column layout. */
  upserts: Partial<Record<WriteMode, string>>;
}

type WriteMode = 'put' | 'newer' | 'new' | 'append' | 'replaceRow' | 'replaceOlderRow';

const DEFAULT_CACHE_BYTES = 8 * 2 ** 20;
/** Rows a background reclaim step deletes from a dropped table, and pages it returns to the file system. */
const RECLAIM_ROWS = 500;
const RECLAIM_PAGES = 256;
const RECLAIM_EVERY_MS = 25;
/** Rows read per step when a new key column is filled. */
const CHUNK = 1000;

/** How often a read or write looks for commits made by another connection. */
const VERSION_CHECK_MS = 250;

const emptyMeta = (): Meta => ({ columns: {}, indexes: [], arrays: [] });
const tableName = (table: number) => `c${table}`;

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

function duplicateKeyError(name: string, e: unknown): unknown {
  const code = (e as { code?: unknown })?.code;
  if (code !== 'SQLITE_CONSTRAINT_UNIQUE') return e;
  return new Error(`duplicate key in ${name}: a unique index already holds this value (${(e as Error).message})`);
}

export async function openEmbeddedReadStore(file: string, options: EmbeddedReadStoreOptions = {}): Promise<EmbeddedReadStore> {
  const db = openSqliteFile(file, 'NORMAL', 8000);
  db.exec(`CREATE TABLE IF NOT EXISTS collection_meta (
    tbl INTEGER PRIMARY KEY AUTOINCREMENT, name TEXT NOT NULL UNIQUE, meta TEXT NOT NULL
  )`);

  const cache = new DocCache(options.cacheBytes ?? DEFAULT_CACHE_BYTES);
  // A query reads the text of the documents the cache does not hold, and only their id otherwise: turning a large
  // document's text into a string costs more than finding it.
  db.function('doc_cached', { deterministic: false }, (table: number, id: string) => (cache.has(table, id) ? 1 : 0));
  const building = options.buildingRows ?? new BuildingRows();
  const statements = new Map<string, Database.Statement>();
  /** Prepares once; an index SQLite cannot use for a query (INDEXED BY) is left to its own choice instead. */
  const compile = (sql: string): Database.Statement => {
    try {
      return db.prepare(sql);
    } catch (e) {
      if (!/no query solution/.test(String(e))) throw e;
      return db.prepare(sql.replace(/ INDEXED BY \w+/, ''));
    }
  };
  const prepared = (sql: string): Database.Statement => {
    let stmt = statements.get(sql);
    if (!stmt) {
      if (statements.size > 1000) statements.clear();
      stmt = compile(sql);
      statements.set(sql, stmt);
    }
    return stmt;
  };

  // ---- collections ----

  const states = new Map<string, State>();
  const stateOf = (table: number, meta: Meta): State => ({ table, meta, fields: Object.keys(meta.columns), upserts: {} });
  const loadStates = () => {
    states.clear();
    for (const row of db.prepare('SELECT tbl, name, meta FROM collection_meta').all() as Array<{ tbl: number; name: string; meta: string }>) {
      states.set(row.name, stateOf(row.tbl, JSON.parse(row.meta) as Meta));
    }
  };
  const saveMeta = (state: State) => prepared('UPDATE collection_meta SET meta = ? WHERE tbl = ?').run(JSON.stringify(state.meta), state.table);

  /** Mirrors MongoDB: a collection exists once something was written to it or an index declared on it. */
  const createState = db.transaction((name: string, unkeyed = false): State => {
    const meta: Meta = unkeyed ? { ...emptyMeta(), unkeyed } : emptyMeta();
    const table = Number(prepared('INSERT INTO collection_meta (name, meta) VALUES (?, ?)').run(name, JSON.stringify(meta)).lastInsertRowid);
    db.exec(`CREATE TABLE ${tableName(table)} (id ${unkeyed ? '' : 'PRIMARY KEY '}NOT NULL, pos, doc TEXT NOT NULL)`);
    if (unkeyed) building.track(table);
    const state = stateOf(table, meta);
    states.set(name, state);
    return state;
  });
  const existing = (name: string): State => states.get(name) ?? createState(name);

  const columnOf = (state: State, field: string): string | null => {
    if (state.meta.arrays.includes(field)) return null;
    if (field === '_id') return 'id';
    if (field === '_pos') return 'pos';
    return state.meta.columns[field] ?? null;
  };
  /** The column an index uses, whatever the field holds (arrays included: a unique index compares whole values). */
  const indexColumn = (state: State, field: string) => (field === '_id' ? 'id' : field === '_pos' ? 'pos' : state.meta.columns[field]);

  const markArrays = (state: State, values: unknown[]) => {
    const fresh = state.fields.filter((f, i) => Array.isArray(values[i]) && !state.meta.arrays.includes(f));
    if (fresh.length === 0) return;
    state.meta = { ...state.meta, arrays: [...state.meta.arrays, ...fresh] };
    saveMeta(state);
  };

  // ---- other processes ----

  // Another connection (a CLI on the same file) may have changed collections: what is held in memory is reloaded
  // when its commits are noticed, looked for at most every VERSION_CHECK_MS.
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  let seenVersion = dataVersion.get();
  let nextVersionCheck = 0;
  loadStates();
  let closed = false;
  const forget = () => {
    loadStates();
    cache.clear();
    building.clear();
  };
  const ready = () => {
    if (closed) throw new Error('read store is closed');
    const now = performance.now();
    if (now < nextVersionCheck) return;
    nextVersionCheck = now + VERSION_CHECK_MS;
    const version = dataVersion.get();
    if (version === seenVersion) return;
    seenVersion = version;
    forget();
  };

  const commits = new GroupCommit(db, forget);
  const mutateIn = <R>(change: () => R, grouped = false): Promise<R> => {
    ready();
    return commits.run(change, grouped);
  };

  // ---- documents ----

  /** The document of a row; `json` is null when the query found it cached (and it may have left the cache since). */
  const parse = (state: State, id: string, json: string | null, rowid?: number): Doc => {
    const cached = cache.get(state.table, id);
    if (cached) return cached;
    json ??= prepared(`SELECT doc FROM ${tableName(state.table)} WHERE rowid = ?`).pluck().get(rowid) as string;
    const doc = deepFreeze(JSON.parse(json) as Doc);
    cache.set(state.table, id, doc, json.length);
    return doc;
  };

  const upsertSql = (state: State, mode: WriteMode) => (state.upserts[mode] ??= buildUpsert(state, mode));
  const buildUpsert = (state: State, mode: WriteMode) => {
    const t = tableName(state.table);
    const cols = ['id', 'pos', 'doc', ...state.fields.map((f) => state.meta.columns[f])];
    if (mode === 'replaceRow' || mode === 'replaceOlderRow') {
      // Parameters in the order of an insert's, then the row's rowid (and the position again: as putIfNewer, older only).
      const set = cols.map((c) => `${c} = ?`).join(', ');
      return `UPDATE ${t} SET ${set} WHERE rowid = ?${mode === 'replaceOlderRow' ? ' AND pos < ?' : ''}`;
    }
    const insert = `INSERT INTO ${t} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`;
    if (mode === 'append') return insert;
    if (mode === 'new') return `${insert} ON CONFLICT (id) DO NOTHING`;
    const set = cols.slice(1).map((c) => `${c} = excluded.${c}`).join(', ');
    // As with MongoDB's `_pos: {$lt: pos}`: a stored document whose position is not a number is never replaced.
    return `${insert} ON CONFLICT (id) DO UPDATE SET ${set}${mode === 'newer' ? ` WHERE ${t}.pos < excluded.pos` : ''}`;
  };

  const write = (name: string, doc: Doc, mode: WriteMode): boolean => {
    if (typeof doc?._id !== 'string') throw new Error(`${name}: a document needs a string _id`);
    if (mode === 'newer' && typeof doc._pos !== 'number') throw new Error(`${name}: putIfNewer needs a numeric _pos`);
    const json = JSON.stringify(doc);
    let state = existing(name);
    let row: number | undefined;
    if (state.meta.unkeyed && building.tracks(state.table)) {
      row = rowOf(state, doc._id);
      if (row !== undefined && mode === 'new') return false;
      mode = row === undefined ? 'append' : mode === 'newer' ? 'replaceOlderRow' : 'replaceRow';
    } else if (state.meta.unkeyed) {
      if (mode === 'newer') mode = 'append'; // which of an id's rows is the newest is settled once, by `keyed`
      else state = keyed(name)!;
    }
    const values = state.fields.map((f) => storedValue(doc[f]));
    markArrays(state, values);
    try {
      const params = [doc._id, keyOf(storedValue(doc._pos)), json, ...values.map(keyOf)];
      if (row !== undefined) params.push(row, ...(mode === 'replaceOlderRow' ? [params[1]] : []));
      const info = prepared(upsertSql(state, mode)).run(...params);
      cache.delete(state.table, doc._id);
      if (mode === 'append') building.added(state.table, doc._id, Number(info.lastInsertRowid));
      return info.changes > 0;
    } catch (e) {
      throw duplicateKeyError(name, e);
    }
  };

  /** The rowid of `id`'s row in a table being built whose rows are tracked (building-rows.ts), if it has one. */
  const rowOf = (state: State, id: string): number | undefined => {
    const candidates = building.candidates(state.table, id);
    if (candidates.length === 0) return undefined; // most writes of a build: a new id, no statement to look up
    const idAt = prepared(`SELECT id FROM ${tableName(state.table)} WHERE rowid = ?`).pluck();
    return candidates.find((row) => idAt.get(row) === id);
  };

  /**
   * The collection with its id index: an unkeyed one keeps, of each id's rows, the one of the highest position (of
   * equal ones, the first written, as putIfNewer keeps it), then gets its unique index, made by one sort.
   */
  const keyed = (name: string): State | undefined => {
    const state = states.get(name);
    if (!state?.meta.unkeyed) return state;
    makeKeyed(name, state);
    return states.get(name);
  };
  const makeKeyed = db.transaction((name: string, state: State) => {
    const t = tableName(state.table);
    // A tracked table holds one row per id already.
    if (!building.tracks(state.table)) {
      db.exec(`DELETE FROM ${t} WHERE rowid IN (SELECT r FROM (
        SELECT rowid AS r, row_number() OVER (PARTITION BY id ORDER BY pos DESC, rowid) AS n FROM ${t}) WHERE n > 1)`);
    }
    building.forget(state.table);
    db.exec(`CREATE UNIQUE INDEX id${state.table} ON ${t} (id)`);
    const { unkeyed: _, ...meta } = state.meta;
    const next = stateOf(state.table, meta);
    saveMeta(next);
    states.set(name, next);
  });

  // ---- queries ----

  const verified = new Set<string>();
  /** Checking mode: refuses a plan that reads a whole collection, or sorts a limited page in memory. */
  const checkPlan = (name: string, sql: string, params: Key[], what: () => string, limited = false, stopsAtLimit = false) => {
    if (!options.requireIndexes || verified.has(sql)) return;
    const steps = (compile(`EXPLAIN QUERY PLAN ${sql}`).all(...params) as Array<{ detail: string }>).map((r) => r.detail);
    // An unfiltered, limited page walked in an index's order stops at the limit: that scan is what the index is for.
    const walksIndex = (s: string) => stopsAtLimit && !sql.includes(' WHERE ') && /^SCAN c\d+ USING (COVERING )?INDEX /.test(s);
    const scan = steps.find((s) => (/^SCAN c\d+\b/.test(s) && !walksIndex(s)) || (limited && s === 'USE TEMP B-TREE FOR ORDER BY'));
    if (scan) throw new Error(`read store index check: ${what()} on ${name} is not served by an index (${steps.join('; ')}); declare one`);
    verified.add(sql);
  };
  const queryText = (op: string, filter: Filter, options: FindOptions = {}) => `${op}(${JSON.stringify(filter)}${options.sort ? `, sort ${JSON.stringify(options.sort)}` : ''})`;

  /** `FROM <table> [INDEXED BY <the index chosen>] [WHERE …]` */
  const fromWhere = (state: State, plan: QueryPlan, findOptions: FindOptions = {}) => {
    const index = chooseIndex(state.meta.indexes, plan, findOptions);
    const indexed = index === -1 ? '' : ` INDEXED BY i${state.table}_${index + 1}`;
    return ` FROM ${tableName(state.table)}${indexed}${plan.where.length ? ` WHERE ${plan.where.join(' AND ')}` : ''}`;
  };

  /** Rows matching `filter` in the asked order, at most `limit` (0: all). */
  const select = (name: string, state: State, filter: Filter, findOptions: FindOptions): Doc[] => {
    const plan = planQuery(filter, findOptions, (f) => columnOf(state, f));
    if (plan.never) return [];
    const limit = findOptions.limit && findOptions.limit > 0 ? findOptions.limit : 0;
    const sqlLimit = limit && !plan.residual && !plan.sortInJs ? ` LIMIT ${limit}` : '';
    const docColumn = `CASE WHEN doc_cached(${state.table}, id) THEN NULL ELSE doc END AS doc`;
    const sql = `SELECT id, rowid AS row, ${docColumn}${fromWhere(state, plan, findOptions)}${plan.orderBy ? ` ${plan.orderBy}` : ''}${sqlLimit}`;
    const unbounded = Object.keys(filter).length === 0 && !findOptions.sort?.length && limit > 0;
    if (!unbounded) checkPlan(name, sql, plan.params, () => queryText('find', filter, findOptions), limit > 0, sqlLimit !== '');
    if (options.requireIndexes && plan.sortInJs && limit) {
      throw new Error(`read store index check: ${queryText('find', filter, findOptions)} on ${name} sorts a limited page in memory; declare an index for the sort`);
    }
    const out: Doc[] = [];
    for (const row of prepared(sql).iterate(...plan.params) as Iterable<{ id: string; row: number; doc: string | null }>) {
      const doc = parse(state, row.id, row.doc, row.row);
      if (plan.residual && !plan.residual(doc)) continue;
      out.push(doc);
      if (limit && !plan.sortInJs && out.length >= limit) break;
    }
    if (plan.sortInJs) sortDocs(out, findOptions.sort!);
    return limit && out.length > limit ? out.slice(0, limit) : out;
  };

  /**
   * A query of a collection that does not exist matches nothing. It is checked all the same (the same errors for a
   * bad filter; in checking mode, refused unless it reads by `_id`), since no index was ever declared for it.
   */
  const nothingStored = (name: string, op: string, filter: Filter, findOptions: FindOptions = {}): true => {
    compileFilter(filter);
    const byId = Object.keys(filter).every((f) => f === '_id' || filter[f] === undefined) && Object.keys(filter).length > 0;
    const unbounded = Object.keys(filter).length === 0 && !findOptions.sort?.length && (findOptions.limit ?? 0) > 0;
    if (options.requireIndexes && !byId && !unbounded) {
      throw new Error(`read store index check: ${queryText(op, filter, findOptions)} on ${name} is not served by an index (no index was declared for it)`);
    }
    return true;
  };

  const find = (name: string, filter: Filter, findOptions: FindOptions): Doc[] => {
    const state = queried(name);
    if (!state) return nothingStored(name, 'find', filter, findOptions) && [];
    const parts = splitIn(filter, findOptions, (f) => columnOf(state, f));
    if (!parts) return select(name, state, filter, findOptions);
    const merged = parts.flatMap((part) => select(name, state, part, findOptions));
    return sortDocs(merged, findOptions.sort!).slice(0, findOptions.limit);
  };

  const count = (name: string, filter: Filter): number => {
    const state = queried(name);
    if (!state) return nothingStored(name, 'count', filter) && 0;
    const plan = planQuery(filter, {}, (f) => columnOf(state, f));
    if (plan.never) return 0;
    if (plan.residual) return select(name, state, filter, {}).length;
    const sql = `SELECT count(*)${fromWhere(state, plan)}`;
    checkPlan(name, sql, plan.params, () => queryText('count', filter));
    return prepared(sql).pluck().get(...plan.params) as number;
  };

  const deleteMany = (name: string, filter: Filter): number => {
    const state = queried(name);
    if (!state) return nothingStored(name, 'deleteMany', filter) && 0;
    const t = tableName(state.table);
    const plan = planQuery(filter, {}, (f) => columnOf(state, f));
    if (plan.never) return 0;
    let ids: string[];
    if (plan.residual) {
      ids = select(name, state, filter, {}).map((d) => d._id);
      const remove = prepared(`DELETE FROM ${t} WHERE id = ?`);
      db.transaction(() => ids.forEach((id) => remove.run(id)))();
    } else {
      checkPlan(name, `SELECT id${fromWhere(state, plan)}`, plan.params, () => queryText('deleteMany', filter));
      ids = prepared(`DELETE${fromWhere(state, plan)} RETURNING id`).pluck().all(...plan.params) as string[];
    }
    for (const id of ids) cache.delete(state.table, id);
    return ids.length;
  };

  // ---- indexes ----

  /** Adds a key column for `field` and fills it from the stored documents. */
  const addColumn = (state: State, field: string): State => {
    const column = `k${Object.keys(state.meta.columns).length + 1}`;
    const t = tableName(state.table);
    db.exec(`ALTER TABLE ${t} ADD COLUMN ${column}`);
    const next = stateOf(state.table, { ...state.meta, columns: { ...state.meta.columns, [field]: column } });
    const read = db.prepare(`SELECT rowid AS r, doc FROM ${t} WHERE rowid > ? ORDER BY rowid LIMIT ${CHUNK}`);
    const update = db.prepare(`UPDATE ${t} SET ${column} = ? WHERE rowid = ?`);
    for (let after = 0; ; ) {
      const rows = read.all(after) as Array<{ r: number; doc: string }>;
      for (const row of rows) {
        const value = storedValue((JSON.parse(row.doc) as Doc)[field]);
        if (Array.isArray(value) && !next.meta.arrays.includes(field)) next.meta.arrays = [...next.meta.arrays, field];
        update.run(keyOf(value), row.r);
        after = row.r;
      }
      if (rows.length < CHUNK) return next;
    }
  };

  const createIndex = db.transaction((name: string, def: IndexDef) => {
    let state = existing(name);
    for (const f of def.fields) if (indexColumn(state, f) === undefined) state = addColumn(state, f);
    state = { ...state, meta: { ...state.meta, indexes: [...state.meta.indexes, def] } };
    if (!def.pending) buildIndex(state, state.meta.indexes.length - 1);
    saveMeta(state);
    return state;
  });

  /** Makes the SQLite index of the collection's index number `i`; the caller saves the meta. */
  const buildIndex = (state: State, i: number) => {
    const { fields, unique } = state.meta.indexes[i];
    const cols = fields.map((f) => indexColumn(state, f));
    const t = tableName(state.table);
    db.exec(`CREATE INDEX i${state.table}_${i + 1} ON ${t} (${cols.join(', ')})`);
    // SQLite lets NULLs repeat in a unique index; MongoDB counts a missing field as one null value.
    if (unique) db.exec(`CREATE UNIQUE INDEX u${state.table}_${i + 1} ON ${t} (${cols.map((c) => `ifnull(${c}, X'00')`).join(', ')})`);
  };

  /** Builds deferred indexes (all of the collection's, or number `only`): one sort over the rows there are. */
  const buildPending = db.transaction((name: string, only?: number) => {
    const state = states.get(name)!;
    const indexes = state.meta.indexes.map((def, i) => {
      if (!def.pending || (only !== undefined && i !== only)) return def;
      buildIndex(state, i);
      return { fields: def.fields, unique: def.unique };
    });
    const built = { ...state, meta: { ...state.meta, indexes } };
    saveMeta(built);
    states.set(name, built);
  });

  /** The collection's state for a query: deferred indexes are built first, so its plan can use them. */
  const queried = (name: string): State | undefined => {
    const state = keyed(name);
    if (state?.meta.indexes.some((d) => d.pending)) {
      buildPending(name);
      return states.get(name);
    }
    return state;
  };

  const ensureIndex = (name: string, fields: string[], unique: boolean, deferred: boolean) => {
    if (fields.length === 0) throw new Error(`${name}: an index needs at least one field`);
    fields.forEach(checkField);
    if (fields.length === 1 && fields[0] === '_id') {
      if (!deferred || unique) keyed(name);
      else if (!states.has(name)) createState(name, true);
      return;
    }
    if (!deferred || unique) keyed(name);
    const indexes = states.get(name)?.meta.indexes ?? [];
    const same = indexes.findIndex((d) => d.fields.join('\0') === fields.join('\0'));
    if (same !== -1) {
      if (indexes[same].unique !== unique) throw new Error(`${name}: an index on (${fields.join(', ')}) already exists with other options`);
      if (indexes[same].pending && !deferred) buildPending(name, same);
      return;
    }
    try {
      states.set(name, createIndex(name, { fields: [...fields], unique, ...(deferred && !unique ? { pending: true as const } : {}) }));
    } catch (e) {
      loadStates(); // the transaction rolled back; so does what this process holds
      const code = (e as { code?: unknown })?.code;
      if (code === 'SQLITE_CONSTRAINT_UNIQUE') throw new Error(`cannot create unique index (${fields.join(', ')}) on ${name}: duplicate key`);
      throw e;
    }
  };

  // ---- dropping and reclaiming space ----

  const orphanTables = () =>
    db
      .prepare(
        `SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'c[0-9]*'
         AND CAST(substr(name, 2) AS INTEGER) NOT IN (SELECT tbl FROM collection_meta)`,
      )
      .pluck()
      .all() as string[];

  /** One bounded step: part of a dropped table deleted, or some free pages given back. False once nothing is left. */
  const reclaimStep = (): boolean => {
    const [orphan] = orphanTables();
    if (orphan) {
      const deleted = db.prepare(`DELETE FROM ${orphan} WHERE rowid IN (SELECT rowid FROM ${orphan} LIMIT ${RECLAIM_ROWS})`).run().changes;
      if (deleted === 0) db.exec(`DROP TABLE ${orphan}`);
      return true;
    }
    return returnFreePages(db, RECLAIM_PAGES);
  };

  let reclaimTimer: NodeJS.Timeout | null = null;
  const scheduleReclaim = () => {
    if (reclaimTimer || closed) return;
    reclaimTimer = setTimeout(() => {
      reclaimTimer = null;
      if (!closed && reclaimStep()) scheduleReclaim();
    }, RECLAIM_EVERY_MS);
    reclaimTimer.unref();
  };

  const drop = (name: string) => {
    const state = states.get(name);
    if (!state) return;
    prepared('DELETE FROM collection_meta WHERE tbl = ?').run(state.table);
    states.delete(name);
    building.forget(state.table);
    scheduleReclaim();
  };

  migrateEarlierLayout(db, {
    put: (collection, doc) => write(collection, doc, 'put'),
    declareIndex: (collection, def) => states.set(collection, createIndex(collection, def)),
    touch: existing,
  });
  reclaimingFreePages(db);
  seenVersion = dataVersion.get();
  scheduleReclaim();
  const stopCheckpoints = await checkpointInBackground(file);

  /** The collection's state if it is being built with its rows tracked: read by rowid, not keyed for a read. */
  const buildingState = (name: string): State | undefined => {
    const state = states.get(name);
    return state?.meta.unkeyed && building.tracks(state.table) ? state : undefined;
  };
  const docAt = (state: State, row: number | undefined) =>
    row === undefined ? undefined : prepared(`SELECT doc FROM ${tableName(state.table)} WHERE rowid = ?`).pluck().get(row);

  /** A collection; `grouped`, its writes are those of a batch (they resolve once executed). */
  function collection<T extends Doc = Doc>(name: string, grouped = false): Collection<T> {
    const mutate = <R>(change: () => R) => mutateIn(change, grouped);
    return {
      async get(id) {
        ready();
        const inBuild = buildingState(name);
        const state = inBuild ?? keyed(name);
        if (!state) return null;
        const cached = cache.get(state.table, id);
        if (cached) return cached as T;
        const json = (
          inBuild ? docAt(inBuild, rowOf(inBuild, id)) : prepared(`SELECT doc FROM ${tableName(state.table)} WHERE id = ?`).pluck().get(id)
        ) as string | undefined;
        return json === undefined ? null : (parse(state, id, json) as T);
      },
      async find(filter, findOptions = {}) {
        ready();
        return find(name, filter, findOptions) as T[];
      },
      async count(filter) {
        ready();
        return count(name, filter);
      },
      async put(doc) {
        await mutate(() => write(name, doc, 'put'));
      },
      putIfNewer: (doc) => mutate(() => write(name, doc, 'newer')),
      insertNew: (doc) => mutate(() => write(name, doc, 'new')),
      delete: (id) =>
        mutate(() => {
          const state = keyed(name);
          if (!state) return;
          prepared(`DELETE FROM ${tableName(state.table)} WHERE id = ?`).run(id);
          cache.delete(state.table, id);
        }),
      deleteMany: (filter) => mutate(() => deleteMany(name, filter)),
      ensureIndex: (fields, indexOptions = {}) =>
        mutate(() => ensureIndex(name, fields, indexOptions.unique === true, indexOptions.deferred === true)),
      drop: () => mutate(() => drop(name)),
    };
  }

  return {
    collection,
    async listCollections() {
      ready();
      return [...states.keys()];
    },
    batch: (work) => {
      ready();
      const grouped = { collection: <T extends Doc = Doc>(name: string) => collection<T>(name, true) };
      return commits.batch(() => work(grouped));
    },
    async reclaimSpace() {
      await mutateIn(() => undefined); // what is pending first
      while (reclaimStep());
    },
    async close() {
      if (closed) return;
      commits.close();
      closed = true;
      if (reclaimTimer) clearTimeout(reclaimTimer);
      await stopCheckpoints();
      db.close();
    },
  };
}
