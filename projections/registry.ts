/**
 * The projection registry: per projection, the storage that serves (`active`), the one being built, the generation
 * counter and a pending rebuild request. Projector processes and the admin API all write it, so every change is a
 * compare-and-set on the document's revision (`_pos`): a change computed from a read another writer has overtaken is
 * made again on the newer document, and a write that timed out and lands after a later one is refused. With plain
 * replaces, a rebuild requested while a build switched over could put the old storage back as the active one.
 */
import type { ReadStore } from '../services/readstore/read-store.port';
import { changeByRevision, type Revised } from '../services/readstore/revisions';

export const REGISTRY = '_projections';

export interface RegistryDoc {
  _id: string;
  /** The revision: each change writes the next one. */
  _pos?: number;
  active: string | null;
  building: string | null;
  generation: number;
  rebuildRequested?: boolean;
  [k: string]: unknown;
}

export const emptyRegistryDoc = (name: string): RegistryDoc => ({ _id: name, active: null, building: null, generation: 0 });

export const registryDocs = (store: Pick<ReadStore, 'collection'>) => store.collection<RegistryDoc>(REGISTRY);

/**
 * Applies `change` to the stored entry (null when there is none) as one compare-and-set on its revision
 * (changeByRevision); `change` returning null leaves it as it is. Resolves to the entry it replaced and the one now
 * stored.
 */
export function changeRegistry(
  store: Pick<ReadStore, 'collection'>,
  name: string,
  change: (current: RegistryDoc | null) => RegistryDoc | null,
): Promise<Revised<RegistryDoc>> {
  return changeByRevision(registryDocs(store), name, change);
}
