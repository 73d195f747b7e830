import { publicView, type ReadModels } from '../../projections/read-models';
import type { Filter } from '../../services/readstore/read-store.port';
import { BOOTSTRAP_LIMIT, ownerOf, SYNCABLES } from './syncables';

/** The live rows of every syncable type that bootstrap lists, by type (oldest change first, bounded). */
export async function bootstrapLists(models: ReadModels, userId: string): Promise<Record<string, unknown[]>> {
  const owner = await ownerOf(models, userId);
  const out: Record<string, unknown[]> = {};
  for (const s of SYNCABLES.filter((x) => x.bootstrap)) {
    const owned = s.owned(owner);
    const docs = owned
      ? await (await models.docs(s.projection))(s.collection).find({ ...owned, deletedAt: null } as Filter, {
          sort: [['_pos', 1]],
          limit: BOOTSTRAP_LIMIT,
        })
      : [];
    out[s.type] = docs.map((d) => publicView(d));
  }
  return out;
}
