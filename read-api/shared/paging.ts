/**
 * Keyset paging over one read-model collection. Every paged collection keeps a unique sort key (one string field
 * such as `_sortKey` = `<createdAt>|<id>`), so a page continues strictly after the last key it returned: no row is
 * skipped or repeated when rows are written between two pages, and no page costs more than its size.
 */
import { DEFAULT_PAGE_SIZE, type PageQuery } from '../../contracts/paging';
import { invalid } from '../../services/errors';
import type { Collection, Doc, Filter } from '../../services/readstore/read-store.port';

/** The opaque token of a page that ends at `key` (a unique sort key); lists sorted otherwise build their key string. */
export const encodePageKey = (key: string) => Buffer.from(JSON.stringify({ k: key })).toString('base64url');

/** The sort key a token carries; 400 `invalid_request` for a token this API did not issue. */
export function decodePageKey(token: string): string {
  try {
    const parsed = JSON.parse(Buffer.from(token, 'base64url').toString()) as { k?: unknown };
    if (typeof parsed.k === 'string') return parsed.k;
  } catch {
    // falls through to the 400
  }
  throw invalidPageToken();
}

export const invalidPageToken = () =>
  invalid('pageToken is not one this API issued', [{ path: 'query.pageToken', message: 'unknown page token' }]);

export interface Page<T> {
  items: T[];
  nextPageToken: string | null;
}

/**
 * One page of `filter` sorted by the string field `key` (ascending, or descending with direction -1). `filter` must
 * not constrain `key` itself.
 */
export async function pageOf<T extends Doc>(
  collection: Collection<T>,
  filter: Filter,
  key: string,
  query: PageQuery,
  direction: 1 | -1 = 1,
): Promise<Page<T>> {
  const limit = query.limit ?? DEFAULT_PAGE_SIZE;
  const after = query.pageToken === undefined ? {} : { [key]: direction === 1 ? { $gt: decodePageKey(query.pageToken) } : { $lt: decodePageKey(query.pageToken) } };
  const docs = await collection.find({ ...filter, ...after }, { sort: [[key, direction]], limit: limit + 1 });
  const items = docs.slice(0, limit);
  const next = docs.length > limit ? (items[items.length - 1][key] as string) : null;
  return { items, nextPageToken: next === null ? null : encodePageKey(next) };
}
