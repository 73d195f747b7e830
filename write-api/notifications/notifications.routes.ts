import { notificationOperations } from '../../contracts/notifications';
import { findOperation } from '../../contracts/operation';
import { NOTIFICATIONS } from '../../projections/notifications.projection';
import { unreadCount } from '../../read-api/notifications/notifications.queries';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { notificationsDecider, notificationsStream } from './notifications.decider';

export function notificationsWriteRoutes(app: AppContext) {
  return [
    route(findOperation(notificationOperations, 'patch', '/notifications'), async (input) => {
      const userId = input.principal!.userId;
      // Count on a read model that has every event so far: what is unread now is what the mark makes read.
      const caughtUp = await app.watermarks.waitFor([NOTIFICATIONS], await app.events.headPosition(), app.config.MIN_POSITION_WAIT_MS);
      const unread = await unreadCount(app.readModels, userId);
      if (unread === 0 && caughtUp) return { status: 200, body: { markedRead: 0 } };
      const result = await app.commands.handle(notificationsStream(userId), notificationsDecider, { type: 'MarkAllRead', userId }, {
        userId, commandId: input.commandId, correlationId: input.requestId,
      });
      return { status: 200, body: { markedRead: unread }, position: result.position };
    }),
  ];
}
