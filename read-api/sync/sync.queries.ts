/**
 * GET /sync: every syncable document carries `_pos`, the log position of its last change. A page holds the rows
 * with positions in (since, watermark], in position order, where the watermark is a position up to which the
 * schedule projection has applied everything; so a change committed "out of order" can never be skipped.
 */
import { SCHEDULE } from '../../projections/schedule.projection';
import { publicView, type ReadModels } from '../../projections/read-models';
import type { Doc, Filter } from '../../services/readstore/read-store.port';
import { spaceIdsOf } from '../spaces/spaces.queries';

export type Since = { position: number } | { time: string };

const SYNCABLE = [
  { type: 'events', collection: 'events', owner: 'spaceId' },
  { type: 'calendars', collection: 'calendars', owner: 'spaceId' },
  { type: 'spaces', collection: 'spaces', owner: 'id' },
] as const;

export interface SyncPage {
  changes: Record<(typeof SYNCABLE)[number]['type'], unknown[]>;
  deleted: Array<{ type: string; id: string }>;
  position: number;
  hasMore: boolean;
}

export async function changesSince(
  models: ReadModels,
  userId: string,
  since: Since,
  watermark: number,
  limit: number,
): Promise<SyncPage> {
  const docs = await models.docs(SCHEDULE);
  const spaceIds = await spaceIdsOf(models, userId);
  const after = 'position' in since ? { _pos: { $gt: since.position, $lte: watermark } } : { _pos: { $lte: watermark }, _changedAt: { $gt: since.time } };
  const rows: Array<{ type: (typeof SYNCABLE)[number]['type']; doc: Doc }> = [];
  if (spaceIds.length > 0) {
    for (const s of SYNCABLE) {
      const filter = { ...after, [s.owner]: { $in: spaceIds } } as Filter;
      for (const doc of await docs(s.collection).find(filter, { sort: [['_pos', 1]], limit: limit + 1 })) {
        rows.push({ type: s.type, doc });
      }
    }
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
  const changes: SyncPage['changes'] = { events: [], calendars: [], spaces: [] };
  for (const r of page) changes[r.type].push(publicView(r.doc));
  const last = page.length ? (page[page.length - 1].doc._pos as number) : null;
  const floor = 'position' in since ? since.position : 0;
  return { changes, deleted: [], position: hasMore ? last! : Math.max(watermark, floor), hasMore };
}
