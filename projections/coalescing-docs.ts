/**
 * Documents a catch-up page rewrites again and again (a person's weekly totals change with each of their events) are
 * held in memory while the page is applied and written once, before the page's checkpoint, in the same batch.
 * A projection opts in per collection (`coalesce` in its definition). Its own reads see what it wrote; anything but a
 * read by id or a write of a whole document writes what is held first, so queries answer as without it. A document
 * is held as it was given (no copy): such a projection must not change an object after writing it.
 */
import type { Collection, Doc } from '../services/readstore/read-store.port';
import type { ProjectionDocs } from './projection';

export interface CoalescingDocs {
  docs: ProjectionDocs;
  /** Writes what is held; call before the page's checkpoint. */
  flush(): Promise<void>;
}

export function coalescing(docs: ProjectionDocs, coalesced: ReadonlySet<string>): CoalescingDocs {
  if (coalesced.size === 0) return { docs, flush: async () => undefined };
  const held = new Map<string, Map<string, Doc>>();
  const wrapped = new Map<string, Collection>();

  const flushOne = async (logical: string) => {
    const pending = held.get(logical);
    if (!pending?.size) return;
    held.delete(logical);
    const target = docs(logical);
    for (const doc of pending.values()) await target.put(doc); // each was checked against what it replaces
  };

  const wrap = (logical: string): Collection => {
    const inner = docs(logical);
    const pending = () => held.get(logical) ?? held.set(logical, new Map()).get(logical)!;
    const current = async (id: string) => held.get(logical)?.get(id) ?? inner.get(id);
    const first = async <R>(then: () => Promise<R>) => {
      await flushOne(logical);
      return then();
    };
    return {
      get: current,
      async put(doc) {
        pending().set(doc._id, doc);
      },
      // As the stores decide: a document without a numeric position is never replaced.
      async putIfNewer(doc) {
        if (typeof doc._pos !== 'number') throw new Error(`${logical}: putIfNewer needs a numeric _pos`);
        const stored = await current(doc._id);
        if (stored && !(typeof stored._pos === 'number' && stored._pos < doc._pos)) return false;
        pending().set(doc._id, doc);
        return true;
      },
      find: (filter, options) => first(() => inner.find(filter, options)),
      count: (filter) => first(() => inner.count(filter)),
      insertNew: (doc) => first(() => inner.insertNew(doc)),
      delete: (id) => first(() => inner.delete(id)),
      deleteMany: (filter) => first(() => inner.deleteMany(filter)),
      ensureIndex: (fields, options) => first(() => inner.ensureIndex(fields, options)),
      drop: () => first(() => inner.drop()),
    };
  };

  return {
    docs: <T extends Doc = Doc>(logical: string) => {
      if (!coalesced.has(logical)) return docs<T>(logical);
      let c = wrapped.get(logical);
      if (!c) wrapped.set(logical, (c = wrap(logical)));
      return c as unknown as Collection<T>;
    },
    async flush() {
      for (const logical of [...held.keys()]) await flushOne(logical);
    },
  };
}
