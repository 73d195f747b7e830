import { focusOperations, focusView, type FocusSessionRecord } from '../../contracts/focus';
import { findOperation } from '../../contracts/operation';
import { FOCUS } from '../../projections/focus.projection';
import { publicView } from '../../projections/read-models';
import type { AppContext } from '../../services/app-context';
import { etagOf } from '../../services/http/etag';
import { route } from '../../services/http/route';

export function focusReadRoutes(app: AppContext) {
  return [
    route(findOperation(focusOperations, 'get', '/focus'), async ({ principal }) => {
      const [doc] = await (await app.readModels.docs(FOCUS))('sessions').find(
        { userId: principal!.userId, status: { $in: ['running', 'paused'] } },
        { limit: 1 },
      );
      if (!doc) return { status: 200, body: { session: null } };
      const session = publicView<FocusSessionRecord>(doc);
      return { status: 200, body: { session: focusView(session, Date.now()) }, headers: { ETag: etagOf(session.version) } };
    }),
  ];
}
