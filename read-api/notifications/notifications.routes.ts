import type { ListNotificationsQuery } from '../../contracts/notifications';
import { notificationOperations } from '../../contracts/notifications';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { notificationsPage } from './notifications.queries';

export function notificationsReadRoutes(app: AppContext) {
  return [
    route<unknown, ListNotificationsQuery>(findOperation(notificationOperations, 'get', '/notifications'), async ({ principal, query }) => ({
      status: 200,
      body: await notificationsPage(app.readModels, principal!.userId, query),
    })),
  ];
}
