/**
 * Embedded read store: every collection lives in memory and is written through to one SQLite file, loaded at open.
 * Filters and sorting follow MongoDB's rules for the port's subset (comparisons only between values of the same
 * type, a field holding an array matches when one of its elements does), so this adapter and the MongoDB one pass
 * the same contract suite.
 */
import Database from 'better-sqlite3';
import type { Collection, Condition, Doc, Filter, FindOptions, ReadStore, Scalar } from './read-store.port';

interface Entry {
  doc: Doc;
  /** The stored form: results are parsed from it, so callers never hold the store's own objects. */
  json: string;
}

interface IndexDef {
  fields: string[];
  unique: boolean;
}

interface State {
  docs: Map<string, Entry>;
  defs: IndexDef[];
  /** Equality indexes on the first field of each declared index: value -> ids. */
  eq: Map<string, Map<unknown, Set<string>>>;
  /** Per unique index: key of the field values -> id of the document holding it. */
  unique: Array<{ def: IndexDef; owners: Map<string, string> }>;
}

const RANGE: Record<string, (order: number) => boolean> = {
  $gt: (order) => order > 0,
  $gte: (order) => order >= 0,
  $lt: (order) => order < 0,
  $lte: (order) => order <= 0,
};

// ---- values: MongoDB's comparison rules for the types JSON documents hold ----

/** MongoDB's order across types: null/missing < numbers < strings < objects < arrays < booleans. */
function typeRank(v: unknown): number {
  if (v === undefined || v === null) return 0;
  if (typeof v === 'number') return 1;
  if (typeof v === 'string') return 2;
  if (typeof v === 'boolean') return 5;
  return Array.isArray(v) ? 4 : 3;
}

/** Code-point order, i.e. the UTF-8 byte order MongoDB uses (JS `<` compares UTF-16 units). */
function compareStrings(a: string, b: string): number {
  if (a === b) return 0;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) - utf8Rank(y);
  }
  return a.length - b.length;
}

/** Moves surrogates (astral code points) above U+E000..U+FFFF. */
function utf8Rank(unit: number): number {
  if (unit >= 0xd800 && unit <= 0xdfff) return unit + 0x2000;
  return unit >= 0xe000 ? unit - 0x800 : unit;
}

/** Objects and arrays are not ordered among themselves (nothing here sorts on them). */
function compareValues(a: unknown, b: unknown): number {
  const ra = typeRank(a);
  const rb = typeRank(b);
  if (ra !== rb) return ra - rb;
  if (ra === 1 || ra === 5) return a === b ? 0 : (a as number) < (b as number) ? -1 : 1;
  if (ra === 2) return compareStrings(a as string, b as string);
  return 0;
}

function equals(v: unknown, c: Scalar | null): boolean {
  if (c === null) return v === null || v === undefined || (Array.isArray(v) && v.includes(null));
  return v === c || (Array.isArray(v) && v.includes(c));
}

/** A range operator matches values of the operand's type only (MongoDB's type bracketing). */
function inRange(v: unknown, c: Scalar, ok: (order: number) => boolean): boolean {
  const one = (x: unknown) => typeRank(x) === typeRank(c) && ok(compareValues(x, c));
  return one(v) || (Array.isArray(v) && v.some(one));
}

/** The keys under which an equality index finds a value: exactly the `c` for which equals(value, c) holds. */
function indexKeys(v: unknown): unknown[] {
  if (v === undefined || v === null) return [null];
  if (Array.isArray(v)) return v.filter((e) => e === null || typeof e !== 'object');
  return typeof v === 'object' ? [] : [v];
}

// ---- filters and sorting ----

function checkField(field: string): void {
  if (field.startsWith('$') || field.includes('.')) throw new Error(`filter field "${field}": only top-level fields`);
}

function compileCondition(field: string, cond: Condition): ((doc: Doc) => boolean) | null {
  checkField(field);
  if (cond === undefined) return null;
  if (cond === null || typeof cond !== 'object') return (doc) => equals(doc[field], cond);
  const tests: Array<(v: unknown) => boolean> = [];
  for (const [op, c] of Object.entries(cond)) {
    if (c === undefined) continue;
    if (op === '$in') {
      if (!Array.isArray(c)) throw new Error(`filter on "${field}": $in needs an array`);
      tests.push((v) => c.some((x) => equals(v, x)));
    } else if (op === '$ne') {
      tests.push((v) => !equals(v, c as Scalar | null));
    } else if (Object.hasOwn(RANGE, op)) {
      tests.push((v) => inRange(v, c as Scalar, RANGE[op]));
    } else {
      throw new Error(`filter on "${field}": unsupported operator ${op}`);
    }
  }
  return (doc) => tests.every((test) => test(doc[field]));
}

function compileFilter(filter: Filter): (doc: Doc) => boolean {
  const parts = Object.entries(filter)
    .map(([field, cond]) => compileCondition(field, cond))
    .filter((p): p is (doc: Doc) => boolean => p !== null);
  return (doc) => parts.every((p) => p(doc));
}

/** An array sorts by its smallest element ascending and its largest descending, as in MongoDB. */
function sortValue(v: unknown, dir: 1 | -1): unknown {
  if (!Array.isArray(v)) return v;
  if (v.length === 0) return undefined;
  return v.reduce((best, x) => (compareValues(x, best) * dir < 0 ? x : best));
}

function sortEntries(entries: Entry[], sort: NonNullable<FindOptions['sort']>): Entry[] {
  const keyed = entries.map((e) => ({ e, keys: sort.map(([f, dir]) => sortValue(e.doc[f], dir)) }));
  keyed.sort((a, b) => {
    for (let i = 0; i < sort.length; i++) {
      const c = compareValues(a.keys[i], b.keys[i]);
      if (c !== 0) return c * sort[i][1];
    }
    return 0;
  });
  return keyed.map((k) => k.e);
}

// ---- indexes ----

function newState(): State {
  return { docs: new Map(), defs: [], eq: new Map(), unique: [] };
}

function uniqueKey(def: IndexDef, doc: Doc): string {
  return JSON.stringify(def.fields.map((f) => doc[f] ?? null));
}

function addToIndex(index: Map<unknown, Set<string>>, doc: Doc, field: string): void {
  for (const key of indexKeys(doc[field])) {
    const ids = index.get(key);
    if (ids) ids.add(doc._id);
    else index.set(key, new Set([doc._id]));
  }
}

function indexEntry(state: State, entry: Entry, add: boolean): void {
  for (const [field, index] of state.eq) {
    if (add) addToIndex(index, entry.doc, field);
    else {
      for (const key of indexKeys(entry.doc[field])) {
        const ids = index.get(key);
        ids?.delete(entry.doc._id);
        if (ids?.size === 0) index.delete(key);
      }
    }
  }
  for (const { def, owners } of state.unique) {
    if (add) owners.set(uniqueKey(def, entry.doc), entry.doc._id);
    else owners.delete(uniqueKey(def, entry.doc));
  }
}

function checkUnique(name: string, state: State, doc: Doc): void {
  for (const { def, owners } of state.unique) {
    const key = uniqueKey(def, doc);
    const owner = owners.get(key);
    if (owner !== undefined && owner !== doc._id) {
      throw new Error(`duplicate key in ${name}: unique index (${def.fields.join(', ')}) already has ${key} (document ${owner})`);
    }
  }
}

/** Builds the structures of an index without attaching them, so a failure (duplicates) changes nothing. */
function buildIndex(name: string, state: State, def: IndexDef) {
  const eq = state.eq.has(def.fields[0]) ? undefined : new Map<unknown, Set<string>>();
  const owners = def.unique ? new Map<string, string>() : undefined;
  for (const { doc } of state.docs.values()) {
    if (eq) addToIndex(eq, doc, def.fields[0]);
    if (owners) {
      const key = uniqueKey(def, doc);
      if (owners.has(key)) throw new Error(`cannot create unique index (${def.fields.join(', ')}) on ${name}: duplicate key ${key}`);
      owners.set(key, doc._id);
    }
  }
  return () => {
    state.defs.push(def);
    if (eq) state.eq.set(def.fields[0], eq);
    if (owners) state.unique.push({ def, owners });
  };
}

/** Documents that may match: from an equality index when the filter has equality or $in on an indexed field. */
function candidates(state: State, filter: Filter): Iterable<Entry> {
  for (const [field, cond] of Object.entries(filter)) {
    const index = state.eq.get(field);
    if (!index || cond === undefined) continue;
    const keys = cond === null || typeof cond !== 'object' ? [cond] : Array.isArray(cond.$in) ? cond.$in : null;
    if (!keys) continue;
    const out = new Map<string, Entry>();
    for (const key of keys) for (const id of index.get(key) ?? []) out.set(id, state.docs.get(id)!);
    return out.values();
  }
  return state.docs.values();
}

// ---- the store ----

function deepFreeze<T>(value: T): T {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}

export async function openEmbeddedReadStore(file: string): Promise<ReadStore> {
  const db = new Database(file);
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = NORMAL');
  db.exec(`
    CREATE TABLE IF NOT EXISTS collections (name TEXT PRIMARY KEY, indexes TEXT NOT NULL DEFAULT '[]');
    CREATE TABLE IF NOT EXISTS docs (
      collection TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (collection, id)
    ) WITHOUT ROWID;
  `);
  const sql = {
    create: db.prepare('INSERT OR IGNORE INTO collections (name) VALUES (?)'),
    setIndexes: db.prepare('UPDATE collections SET indexes = ? WHERE name = ?'),
    put: db.prepare(
      'INSERT INTO docs (collection, id, json) VALUES (?, ?, ?) ON CONFLICT (collection, id) DO UPDATE SET json = excluded.json',
    ),
    delete: db.prepare('DELETE FROM docs WHERE collection = ? AND id = ?'),
    dropDocs: db.prepare('DELETE FROM docs WHERE collection = ?'),
    dropCollection: db.prepare('DELETE FROM collections WHERE name = ?'),
  };

  const states = new Map<string, State>();
  const load = db.transaction(() => {
    for (const row of db.prepare('SELECT collection, id, json FROM docs').iterate() as Iterable<{ collection: string; json: string }>) {
      if (!states.has(row.collection)) states.set(row.collection, newState());
      const doc = deepFreeze(JSON.parse(row.json) as Doc);
      states.get(row.collection)!.docs.set(doc._id, { doc, json: row.json });
    }
    for (const row of db.prepare('SELECT name, indexes FROM collections').all() as Array<{ name: string; indexes: string }>) {
      const state = states.get(row.name) ?? newState();
      states.set(row.name, state);
      for (const def of JSON.parse(row.indexes) as IndexDef[]) buildIndex(row.name, state, def)();
    }
  });
  load();

  let closed = false;
  const open = () => {
    if (closed) throw new Error('read store is closed');
  };

  /** Mirrors MongoDB: a collection exists once something was written to it or an index declared on it. */
  const existing = (name: string): State => {
    let state = states.get(name);
    if (!state) {
      sql.create.run(name);
      states.set(name, (state = newState()));
    }
    return state;
  };

  const write = (name: string, doc: Doc): void => {
    if (typeof doc?._id !== 'string') throw new Error(`${name}: a document needs a string _id`);
    const json = JSON.stringify(doc);
    const entry: Entry = { doc: deepFreeze(JSON.parse(json) as Doc), json };
    const state = states.get(name);
    if (state) checkUnique(name, state, entry.doc);
    const target = existing(name);
    sql.put.run(name, entry.doc._id, json);
    const old = target.docs.get(entry.doc._id);
    if (old) indexEntry(target, old, false);
    target.docs.set(entry.doc._id, entry);
    indexEntry(target, entry, true);
  };

  const remove = (name: string, state: State, ids: string[]): void => {
    db.transaction(() => ids.forEach((id) => sql.delete.run(name, id)))();
    for (const id of ids) {
      const old = state.docs.get(id);
      if (!old) continue;
      indexEntry(state, old, false);
      state.docs.delete(id);
    }
  };

  const matching = (name: string, filter: Filter): Entry[] => {
    const match = compileFilter(filter);
    const state = states.get(name);
    if (!state) return [];
    const out: Entry[] = [];
    for (const entry of candidates(state, filter)) if (match(entry.doc)) out.push(entry);
    return out;
  };

  // Stored documents are deep-frozen once, when written, so readers share them without copying.
  const copy = <T>(entry: Entry): T => entry.doc as T;

  function collection<T extends Doc = Doc>(name: string): Collection<T> {
    return {
      async get(id) {
        open();
        const entry = states.get(name)?.docs.get(id);
        return entry ? copy<T>(entry) : null;
      },
      async find(filter, options = {}) {
        open();
        let hits = matching(name, filter);
        if (options.sort?.length) hits = sortEntries(hits, options.sort);
        if (options.limit && options.limit > 0) hits = hits.slice(0, options.limit);
        return hits.map((e) => copy<T>(e));
      },
      async count(filter) {
        open();
        return matching(name, filter).length;
      },
      async put(doc) {
        open();
        write(name, doc);
      },
      async putIfNewer(doc) {
        open();
        if (typeof doc._pos !== 'number') throw new Error(`${name}: putIfNewer needs a numeric _pos`);
        const current = states.get(name)?.docs.get(doc._id)?.doc;
        // As with MongoDB's `_pos: {$lt: pos}`: a stored document without a position is never replaced.
        if (current && !(typeof current._pos === 'number' && current._pos < doc._pos)) return false;
        write(name, doc);
        return true;
      },
      async insertNew(doc) {
        open();
        if (states.get(name)?.docs.has(doc._id)) return false;
        write(name, doc);
        return true;
      },
      async delete(id) {
        open();
        const state = states.get(name);
        if (state?.docs.has(id)) remove(name, state, [id]);
      },
      async deleteMany(filter) {
        open();
        const ids = matching(name, filter).map((e) => e.doc._id);
        if (ids.length) remove(name, states.get(name)!, ids);
        return ids.length;
      },
      async ensureIndex(fields, options = {}) {
        open();
        if (fields.length === 0) throw new Error(`${name}: an index needs at least one field`);
        fields.forEach(checkField);
        const def: IndexDef = { fields: [...fields], unique: options.unique === true };
        const state = existing(name);
        const same = state.defs.find((d) => d.fields.join('\0') === def.fields.join('\0'));
        if (same) {
          if (same.unique === def.unique) return;
          throw new Error(`${name}: an index on (${fields.join(', ')}) already exists with other options`);
        }
        const attach = buildIndex(name, state, def);
        sql.setIndexes.run(JSON.stringify([...state.defs, def]), name);
        attach();
      },
      async drop() {
        open();
        db.transaction(() => {
          sql.dropDocs.run(name);
          sql.dropCollection.run(name);
        })();
        states.delete(name);
      },
    };
  }

  return {
    collection,
    async listCollections() {
      open();
      return [...states.keys()];
    },
    async close() {
      if (closed) return;
      closed = true;
      db.close();
    },
  };
}
