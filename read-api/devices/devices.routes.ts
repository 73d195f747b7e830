import { deviceOperations } from '../../contracts/devices';
import { findOperation } from '../../contracts/operation';
import type { PageQuery } from '../../contracts/paging';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import type { PushService } from '../../services/push/push-service';
import { devicesPage } from './devices.queries';

export function devicesReadRoutes(app: AppContext, push: PushService) {
  return [
    route<unknown, PageQuery>(findOperation(deviceOperations, 'get', '/devices'), async ({ principal, query }) => {
      const [page, keys] = await Promise.all([devicesPage(app.readModels, push.log, principal!.userId, query), push.vapid()]);
      return { status: 200, body: { ...page, webPush: { vapidPublicKey: keys.publicKey } } };
    }),
  ];
}
