/**
 * GET /sync: every syncable document carries `_pos`, the log position of its last change. A page holds the rows
 * with positions in (since, watermark], in position order, where the watermark is a position up to which every
 * projection that sync reads has applied everything; so a change committed "out of order" can never be skipped.
 */
import { publicView, type ReadModels } from '../../projections/read-models';
import type { Watermarks } from '../../projections/watermarks';
import type { Tombstone } from '../../services/history/erasable-projection';
import type { Collection, Doc, Filter } from '../../services/readstore/read-store.port';
import { ownerOf, SYNC_PROJECTIONS, SYNCABLES } from './syncables';

export type Since = { position: number } | { time: string };

export interface SyncPage {
  changes: Record<string, unknown[]>;
  deleted: Array<{ type: string; id: string }>;
  position: number;
  hasMore: boolean;
}

/**
 * A position up to which every projection sync reads has applied the log (read it before querying), and the version
 * of what those projections hold: their positions, which move whenever any of them changes a document.
 */
export async function syncWatermark(watermarks: Watermarks): Promise<{ watermark: number; version: string }> {
  const positions = await Promise.all(SYNC_PROJECTIONS.map((name) => watermarks.position(name)));
  return { watermark: Math.min(...positions), version: positions.join() };
}

export async function changesSince(
  models: ReadModels,
  /** Tombstones of erased items (services/history/erasable-projection.ts): reported in `deleted`. */
  erasures: Collection<Tombstone>,
  userId: string,
  since: Since,
  watermark: number,
  limit: number,
): Promise<SyncPage> {
  const owner = await ownerOf(models, userId);
  const after = 'position' in since ? { _pos: { $gt: since.position, $lte: watermark } } : { _pos: { $lte: watermark }, _changedAt: { $gt: since.time } };
  const rows: Array<{ type: string; doc: Doc; erased?: true }> = [];
  for (const s of SYNCABLES) {
    const owned = s.owned(owner);
    if (!owned) continue;
    const docs = await models.docs(s.projection);
    const filter = { ...after, ...owned } as Filter;
    const page = { sort: [['_pos', 1]] as Array<[string, 1]>, limit: limit + 1 };
    for (const doc of await docs(s.collection).find(filter, page)) rows.push({ type: s.type, doc });
    const gone = { ...filter, projection: s.projection, collection: s.collection } as Filter;
    for (const doc of await erasures.find(gone, page)) rows.push({ type: s.type, doc, erased: true });
  }
  rows.sort((a, b) => (a.doc._pos as number) - (b.doc._pos as number));
  let page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  if (hasMore) {
    // Never cut between rows of the same position: the cursor must mean "everything up to here".
    const cut = page[page.length - 1].doc._pos as number;
    if ((rows[limit].doc._pos as number) === cut) {
      const before = page.filter((r) => (r.doc._pos as number) < cut);
      page = before.length ? before : rows.filter((r) => (r.doc._pos as number) <= cut);
    }
  }
  const changes: SyncPage['changes'] = Object.fromEntries(SYNCABLES.map((s) => [s.type, [] as unknown[]]));
  const deleted: SyncPage['deleted'] = [];
  for (const r of page) {
    if (r.erased) deleted.push({ type: r.type, id: r.doc.id as string });
    else changes[r.type].push(publicView(r.doc));
  }
  const last = page.length ? (page[page.length - 1].doc._pos as number) : null;
  const floor = 'position' in since ? since.position : 0;
  return { changes, deleted, position: hasMore ? last! : Math.max(watermark, floor), hasMore };
}
