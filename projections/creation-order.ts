import type { Collection } from '../services/readstore/read-store.port';

/**
 * A unique list key that follows creation exactly: the log position of the item's first event, kept across its
 * later changes (timestamps of two items can be equal; positions never are).
 */
export async function creationOrderKey(collection: Collection, id: string, position: number): Promise<string> {
  const existing = await collection.get(id);
  return (existing?._sortKey as string | undefined) ?? String(position).padStart(16, '0');
}
