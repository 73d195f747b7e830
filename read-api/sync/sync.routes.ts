import type { z } from 'zod';
import { findOperation } from '../../contracts/operation';
import { syncOperations, type SyncQuery } from '../../contracts/sync';
import type { AppContext } from '../../services/app-context';
import { DateTime } from '../../contracts/common';
import { ApiError, invalid } from '../../services/errors';
import { route } from '../../services/http/route';
import { decodeCursor, encodeCursor } from './cursor';
import { ERASURES, type Tombstone } from '../../services/history/erasable-projection';
import { changesSince, syncWatermark, type Since } from './sync.queries';

const expired = () =>
  new ApiError(410, 'cursor_expired', 'This cursor cannot be served; start over from GET /me/bootstrap');

export function syncRoutes(app: AppContext) {
  const parseSince = async (since: string): Promise<Since> => {
    if (/^\d{4}-\d{2}-\d{2}T/.test(since)) {
      if (!DateTime.safeParse(since).success) {
        throw invalid('since is neither a cursor nor a valid ISO date-time', [{ path: 'query.since', message: 'invalid date-time' }]);
      }
      return { time: new Date(since).toISOString() };
    }
    const claims = decodeCursor(app.serverKeys, since);
    if (!claims) throw expired();
    if (Date.now() - claims.issuedAt > app.config.SYNC_CURSOR_TTL_DAYS * 86_400_000) throw expired();
    if (claims.position > (await app.events.headPosition())) throw expired();
    return { position: claims.position };
  };

  return [
    route<unknown, z.infer<typeof SyncQuery>>(findOperation(syncOperations, 'get', '/sync'), async ({ query, principal }) => {
      const since = await parseSince(query.since);
      const watermark = await syncWatermark(app.watermarks);
      const page = await changesSince(app.readModels, app.store.collection<Tombstone>(ERASURES), principal!.userId, since, watermark, query.limit ?? 500);
      return {
        status: 200,
        body: {
          changes: page.changes,
          deleted: page.deleted,
          cursor: encodeCursor(app.serverKeys, page.position),
          hasMore: page.hasMore,
          serverTime: new Date().toISOString(),
        },
      };
    }),
  ];
}
