/** For tests of compare-and-set writers: a second writer that acts at the worst moment. */
import type { ReadStore } from '../../services/readstore/read-store.port';

/**
 * The store as a second writer shares it: `meddle` runs once, right after the first read by id through the returned
 * store (of `only` that collection, when given), before that read returns.
 */
export function withWriterBetweenReadAndWrite(store: ReadStore, meddle: () => Promise<unknown>, only?: string): Pick<ReadStore, 'collection'> {
  let done = false;
  return {
    collection: <T extends { _id: string }>(name: string) => {
      const c = store.collection<T>(name);
      if (only !== undefined && name !== only) return c;
      return {
        ...c,
        async get(id: string) {
          const doc = await c.get(id);
          if (!done) {
            done = true;
            await meddle();
          }
          return doc;
        },
      };
    },
  } as Pick<ReadStore, 'collection'>;
}
