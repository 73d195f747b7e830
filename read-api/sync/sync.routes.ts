import type { z } from 'zod';
import { findOperation } from '../../contracts/operation';
import { syncOperations, type SyncQuery } from '../../contracts/sync';
import type { AppContext } from '../../services/app-context';
import { DateTime } from '../../contracts/common';
import { ApiError, invalid } from '../../services/errors';
import { route } from '../../services/http/route';
import { decodeCursor, encodeCursor } from './cursor';
import { ERASURES, type Tombstone } from '../../services/history/erasable-projection';
import { AnswerCache } from '../shared/answer-cache';
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

  const cache = new AnswerCache();
  return [
    route<unknown, z.infer<typeof SyncQuery>>(findOperation(syncOperations, 'get', '/sync'), async ({ query, principal }) => {
      const since = await parseSince(query.since);
      const limit = query.limit ?? 500;
      const { watermark, version } = await syncWatermark(app.watermarks);
      // A cursor is issued at most a minute before it is handed out again from here; serverTime is always now.
      const key = JSON.stringify([principal!.userId, since, limit, Math.floor(Date.now() / 60_000)]);
      let head = cache.get(key, version);
      if (head === undefined) {
        const page = await changesSince(app.readModels, app.store.collection<Tombstone>(ERASURES), principal!.userId, since, watermark, limit);
        const body = { changes: page.changes, deleted: page.deleted, cursor: encodeCursor(app.serverKeys, page.position), hasMore: page.hasMore };
        head = Buffer.from(JSON.stringify(body).slice(0, -1)); // without its closing brace
        cache.set(key, version, head);
      }
      return { status: 200, json: [head, Buffer.from(`,"serverTime":"${new Date().toISOString()}"}`)] };
    }),
  ];
}
