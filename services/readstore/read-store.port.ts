/**
 * The read-model store port: named collections of JSON documents written by projections (and a few state
 * collections such as sessions), read by the GET endpoints.
 * Adapters: embedded (embedded-read-store.ts, SQLite: documents on disk, indexed, a bounded cache) and MongoDB
 * (mongo-read-store.ts).
 *
 * Filters are deliberately small so that both adapters implement them identically:
 * top-level fields only, all conditions ANDed; a bare value means equality (null matches a missing field too).
 */
export type Scalar = string | number | boolean;
export type Condition =
  | Scalar
  | null
  | { $in?: Scalar[]; $gt?: Scalar; $gte?: Scalar; $lt?: Scalar; $lte?: Scalar; $ne?: Scalar | null };
export type Filter = Record<string, Condition>;

export interface Doc {
  _id: string;
  /** Global log position of the last event applied to this document (projections); absent on state documents. */
  _pos?: number;
  [field: string]: unknown;
}

export interface FindOptions {
  /** Sort keys in order; 1 ascending, -1 descending. Documents missing a field sort first when ascending. */
  sort?: Array<[field: string, direction: 1 | -1]>;
  limit?: number;
}

export interface IndexOptions {
  unique?: boolean;
  deferred?: boolean;
}

/**
 * Documents returned by `get`/`find` are read-only snapshots: never mutate them (the embedded store hands out
 * frozen shared objects; MongoDB fresh ones). Writing a document never lets later changes to the caller's object leak in.
 */
export interface Collection<T extends Doc = Doc> {
  get(id: string): Promise<T | null>;
  find(filter: Filter, options?: FindOptions): Promise<T[]>;
  count(filter: Filter): Promise<number>;
  /** Insert or replace unconditionally. */
  put(doc: T): Promise<void>;
  /**
   * Insert, or replace only if the stored document's `_pos` is lower than `doc._pos` (which must be set).
   * Returns false when the stored document is already at or past that position (the write is skipped).
   */
  putIfNewer(doc: T): Promise<boolean>;
  /** Insert only if no document has this id; returns false if one exists. */
  insertNew(doc: T): Promise<boolean>;
  delete(id: string): Promise<void>;
  deleteMany(filter: Filter): Promise<number>;
  /**
   * Declares a compound index for equality/range queries on these fields (a no-op where not needed). `deferred`:
   * the store may build it later, at the latest before the collection's next query or when declared again without
   * `deferred` (a projection being rebuilt: one sort at the end costs less than keeping the index up at every write).
   * Answers never depend on it. A unique index is never deferred.
   * `['_id']` declared deferred on a collection that does not exist yet defers even the id key (embedded: until the
   * collection is first read, or written otherwise than by putIfNewer, each putIfNewer is appended, answering true,
   * and the newest document of each id is settled then, by one sort). Otherwise `['_id']` is a no-op: ids are keyed.
   */
  ensureIndex(fields: string[], options?: IndexOptions): Promise<void>;
  drop(): Promise<void>;
}

export interface ReadStore {
  collection<T extends Doc = Doc>(name: string): Collection<T>;
  listCollections(): Promise<string[]>;
  /**
   * Runs `work` with the writes it makes through `grouped` in one group (embedded: one transaction, each write
   * resolving once executed, not committed); resolves once they are all durable, rejects if any was lost. Writes
   * made through `collection` meanwhile resolve once committed, as always. Absent where writes are durable one by one
   * (MongoDB).
   */
  batch?<R>(work: (grouped: Grouped) => Promise<R>): Promise<R>;
  close(): Promise<void>;
}

/** The store a batch's writes go through (ReadStore.batch). */
export type Grouped = Pick<ReadStore, 'collection'>;
