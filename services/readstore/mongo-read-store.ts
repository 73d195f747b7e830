/**
 * MongoDB read store. Uses only single-document writes, find, countDocuments and createIndex, so it runs on
 * MongoDB and on FerretDB v1 alike (no transactions, change streams or bulk writes).
 *
 * Reads and writes are bounded in time: the driver waits without limit on a connection to a server that stopped
 * answering (paused, partitioned), so each call fails with StoreUnavailable after `timeoutMs` instead. As after any
 * network failure, a write that failed so may still be applied once the server answers again. Index creation and
 * drops are left unbounded: they run at start or in a rebuild, and may take long on a big collection.
 */
import { MongoClient, MongoNetworkError, MongoNotConnectedError, MongoServerError, MongoServerSelectionError, MongoTopologyClosedError, type Filter as MongoFilter, type OptionalUnlessRequiredId } from 'mongodb';
import { StoreUnavailable } from '../errors';
import { TimeoutError, withTimeout } from '../timeout';
import type { Collection, Doc, Filter, ReadStore } from './read-store.port';

const DEFAULT_TIMEOUT_MS = 10_000;
const STORE = 'the read store';

/**
 * Failures that say nothing about the request, only that the store cannot take it now: not reachable, or busy
 * (FerretDB on SQLite refuses a write with SQLITE_BUSY when many arrive at once; a write the server marks retryable).
 */
export const unavailable = (e: unknown): e is Error =>
  e instanceof MongoNetworkError || e instanceof MongoServerSelectionError || e instanceof MongoNotConnectedError ||
  e instanceof MongoTopologyClosedError ||
  (e instanceof MongoServerError && (e.hasErrorLabel('RetryableWriteError') || /SQLITE_BUSY|database is locked/.test(e.message)));

/** `work` within `ms`; not answering in time, or unavailable, is StoreUnavailable. */
async function bounded<T>(work: Promise<T>, ms: number): Promise<T> {
  try {
    return await withTimeout(work, ms, STORE);
  } catch (e) {
    if (e instanceof TimeoutError) throw new StoreUnavailable(STORE, `no answer within ${ms} ms`);
    throw unavailable(e) ? new StoreUnavailable(STORE, e.message) : e;
  }
}

const OPERATORS = new Set(['$in', '$gt', '$gte', '$lt', '$lte', '$ne']);

/** The port's filter is a MongoDB subset; this only rejects what the embedded adapter would reject too. */
function toMongo(filter: Filter): MongoFilter<Doc> {
  const out: Record<string, unknown> = {};
  for (const [field, cond] of Object.entries(filter)) {
    if (field.startsWith('$') || field.includes('.')) throw new Error(`filter field "${field}": only top-level fields`);
    if (cond === undefined) continue;
    if (cond === null || typeof cond !== 'object') {
      out[field] = cond;
      continue;
    }
    const ops: Record<string, unknown> = {};
    for (const [op, value] of Object.entries(cond)) {
      if (value === undefined) continue;
      if (!OPERATORS.has(op)) throw new Error(`filter on "${field}": unsupported operator ${op}`);
      if (op === '$in' && !Array.isArray(value)) throw new Error(`filter on "${field}": $in needs an array`);
      ops[op] = value;
    }
    if (Object.keys(ops).length > 0) out[field] = ops;
  }
  return out as MongoFilter<Doc>;
}

/** A stored document a conditional write may replace: one with a lower `_pos` (never one without). */
const olderThan = (stored: Doc, doc: Doc) => typeof stored._pos === 'number' && stored._pos < (doc._pos as number);

function isDuplicateKey(e: unknown): boolean {
  return typeof e === 'object' && e !== null && (e as { code?: unknown }).code === 11000;
}

/** The database named in the URL's path, if any (`mongodb://host:27017/calendar?...`). */
function dbNameFromUrl(url: string): string | undefined {
  const path = /^mongodb(?:\+srv)?:\/\/[^/?]*\/([^?]*)/.exec(url)?.[1];
  return path ? decodeURIComponent(path) : undefined;
}

/**
 * Runs the work given for one key one after another. The conditional writes of one document from this process go
 * through it: MongoDB makes each of them atomic anyway, but FerretDB 1.x (CI's engine) reads and then replaces
 * without a transaction, so two concurrent `_pos` guards could both pass there (FerretDB issue 3040).
 */
function oneAtATime() {
  const tails = new Map<string, Promise<unknown>>();
  return <R>(key: string, work: () => Promise<R>): Promise<R> => {
    const run = (tails.get(key) ?? Promise.resolve()).then(work);
    const tail = run.catch(() => undefined);
    tails.set(key, tail);
    void tail.then(() => tails.get(key) === tail && tails.delete(key));
    return run;
  };
}

export async function openMongoReadStore(url: string, dbName?: string, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<ReadStore> {
  // ignoreUndefined: an undefined field is left out, as JSON.stringify does in the embedded store.
  const client = new MongoClient(url, { ignoreUndefined: true });
  await client.connect();
  const db = client.db(dbName ?? dbNameFromUrl(url) ?? 'calendar');
  const ferretdb = typeof (await db.admin().command({ buildInfo: 1 })).ferretdbVersion === 'string';
  const perDocument = oneAtATime();

  function collection<T extends Doc = Doc>(name: string): Collection<T> {
    const c = db.collection<Doc>(name);
    /** After a duplicate-key error: is the stored document with this id the reason the write was refused? */
    const storedIsNewer = async (doc: Doc) => {
      const current = await c.findOne({ _id: doc._id }, { projection: { _pos: 1 } });
      return current !== null && !olderThan(current, doc);
    };
    /**
     * Replaces the stored document with this id when its `_pos` is older: true when replaced, false when the stored
     * one is as new or newer, null when there is none (deleted meanwhile). MongoDB does it in one atomic conditional
     * replace. FerretDB v1 runs any filter but `{ _id }` alone as a scan of the whole collection, and its conditional
     * replace is a read then a replace anyway (see oneAtATime); there the read and the replace go by id.
     */
    const replaceOlder = async (doc: Doc): Promise<boolean | null> => {
      if (!ferretdb) {
        if ((await c.replaceOne({ _id: doc._id, _pos: { $lt: doc._pos } }, doc)).matchedCount === 1) return true;
        return (await storedIsNewer(doc)) ? false : null;
      }
      const current = await c.findOne({ _id: doc._id }, { projection: { _pos: 1 } });
      if (current === null) return null;
      if (!olderThan(current, doc)) return false;
      return (await c.replaceOne({ _id: doc._id }, doc)).matchedCount === 1 ? true : null;
    };
    /**
     * Insert first, replace only when the id is taken: most documents projections write are new, and on FerretDB v1
     * a conditional write that matches nothing scans the whole collection.
     */
    const insertOrReplaceOlder = async (doc: Doc): Promise<boolean> => {
      for (let attempt = 1; ; attempt++) {
        try {
          await c.insertOne(doc as OptionalUnlessRequiredId<Doc>);
          return true;
        } catch (e) {
          if (!isDuplicateKey(e)) throw e;
          const replaced = await replaceOlder(doc);
          if (replaced !== null) return replaced;
          // Deleted between the two writes, or the duplicate is on another unique index: that one surfaces.
          if (attempt === 3) throw e;
        }
      }
    };
    const calls: Omit<Collection<T>, 'ensureIndex' | 'drop'> = {
      async get(id) {
        return (await c.findOne({ _id: id })) as T | null;
      },
      async find(filter, options = {}) {
        const cursor = c.find(toMongo(filter));
        if (options.sort?.length) cursor.sort(options.sort);
        if (options.limit && options.limit > 0) cursor.limit(options.limit);
        return (await cursor.toArray()) as T[];
      },
      async count(filter) {
        return c.countDocuments(toMongo(filter));
      },
      async put(doc) {
        try {
          await c.replaceOne({ _id: doc._id }, doc, { upsert: true });
        } catch (e) {
          // Two concurrent upserts of a new id can both try to insert; the loser replaces what the winner wrote.
          if (!isDuplicateKey(e)) throw e;
          await c.replaceOne({ _id: doc._id }, doc, { upsert: true });
        }
      },
      async putIfNewer(doc) {
        if (typeof doc._pos !== 'number') throw new Error(`${name}: putIfNewer needs a numeric _pos`);
        return perDocument(`${name}\u0000${doc._id}`, () => insertOrReplaceOlder(doc));
      },
      async insertNew(doc) {
        try {
          await c.insertOne(doc as OptionalUnlessRequiredId<Doc>);
          return true;
        } catch (e) {
          // A duplicate on another unique index must still surface as an error.
          if (isDuplicateKey(e) && (await c.findOne({ _id: doc._id }, { projection: { _id: 1 } })) !== null) return false;
          throw e;
        }
      },
      async delete(id) {
        await c.deleteOne({ _id: id });
      },
      async deleteMany(filter) {
        return (await c.deleteMany(toMongo(filter))).deletedCount;
      },
    };
    const guarded = Object.fromEntries(
      Object.entries(calls).map(([name, call]) => [name, (...args: unknown[]) => bounded((call as (...a: unknown[]) => Promise<unknown>)(...args), timeoutMs)]),
    ) as typeof calls;
    return {
      ...guarded,
      async ensureIndex(fields, options = {}) {
        if (fields.length === 0) throw new Error(`${name}: an index needs at least one field`);
        if (fields.length === 1 && fields[0] === '_id') return; // MongoDB always keys _id
        await c.createIndex(Object.fromEntries(fields.map((f) => [f, 1 as const])), options.unique ? { unique: true } : {});
      },
      async drop() {
        await c.drop();
      },
    };
  }

  return {
    collection,
    async listCollections() {
      const infos = await db.listCollections({}, { nameOnly: true }).toArray();
      return infos.map((info) => info.name).filter((n) => !n.startsWith('system.'));
    },
    async close() {
      await client.close();
    },
  };
}
