/**
 * Changes to state documents (webhooks, deliveries, automation runs, the projection registry) made as compare-and-set
 * on their revision, `_pos`: a change read from a document is stored only if nobody wrote it since, else made again
 * on a fresh read. Two writers never lose each other's change.
 */
import type { Collection, Doc } from './read-store.port';

/** Fresh reads a change is made on before it gives up: only a document rewritten without pause can take them all. */
const ATTEMPTS = 20;

export interface Revised<T> {
  /** The document the change was made on (null: none was stored). */
  before: T | null;
  /** The document now stored; `before` when the change left it alone. */
  after: T | null;
}

/**
 * Applies `change` to the stored document `id` and stores what it returns as the next revision; `change` returning
 * null leaves the document as it is. A document stored before revisions were kept (no `_pos`) takes its first one
 * plainly, once: no conditional write would ever replace it.
 */
export async function changeByRevision<T extends Doc>(docs: Collection<T>, id: string, change: (current: T | null) => T | null): Promise<Revised<T>> {
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const before = await docs.get(id);
    const next = change(before);
    if (next === null) return { before, after: before };
    const revision = before?._pos;
    const after = { ...next, _id: id, _pos: (revision ?? 0) + 1 };
    if (before !== null && typeof revision !== 'number') {
      await docs.put(after);
      return { before, after };
    }
    if (await docs.putIfNewer(after)) return { before, after };
  }
  throw new Error(`${id} kept changing under ${ATTEMPTS} attempts`);
}
