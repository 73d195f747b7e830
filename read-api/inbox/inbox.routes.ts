import { inboxOperations } from '../../contracts/inbox';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { inboxCount, inboxItems } from './inbox.queries';

export function inboxReadRoutes(app: AppContext) {
  return [
    route(findOperation(inboxOperations, 'get', '/inbox'), async ({ principal }) => ({
      status: 200, body: { items: await inboxItems(app.readModels, principal!.userId, Date.now()) },
    })),
    route(findOperation(inboxOperations, 'get', '/inbox/count'), async ({ principal }) => ({
      status: 200, body: { count: await inboxCount(app.readModels, principal!.userId, Date.now()) },
    })),
  ];
}
