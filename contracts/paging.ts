/**
 * The paging convention of every list endpoint: `limit` (default 100, at most 500) and an opaque `pageToken` from
 * the previous page's `nextPageToken` (null on the last page).
 */
import { z } from 'zod';

export const DEFAULT_PAGE_SIZE = 100;
export const MAX_PAGE_SIZE = 500;

export const PageQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional().describe(`Page size (default ${DEFAULT_PAGE_SIZE}, at most ${MAX_PAGE_SIZE})`),
  // Only the server mints page tokens: `x-issued-by-server` tells test tools not to make valid ones up.
  pageToken: z
    .string()
    .min(1)
    .max(512)
    .optional()
    .meta({ description: '`nextPageToken` of the previous page; any other value is 400', 'x-issued-by-server': true }),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const NextPageToken = z.string().nullable().describe('Pass as `pageToken` for the next page; null on the last page');
