/**
 * How other slices (automations' `send_notification`) notify a user: appends `notification.requested` to the user's
 * notification stream through the command handler. The notification's id derives from the event id, which derives
 * from `commandId`: the same commandId (e.g. derived from the automation and its trigger event) never notifies twice.
 */
import { NotificationRequest } from '../../contracts/notifications';
import { notificationIdFor } from '../../projections/notifications.projection';
import type { AppContext } from '../../services/app-context';
import { invalid } from '../../services/errors';
import { notificationsDecider, notificationsStream } from './notifications.decider';

export interface NotificationToSend {
  userId: string;
  title: string;
  body?: string | null;
  /** What it is about, e.g. `{type: 'automation', id: automationId}`. */
  source: { type: string; id: string | null };
}

export async function requestNotification(
  app: Pick<AppContext, 'commands'>,
  notification: NotificationToSend,
  ctx: { commandId: string; correlationId: string },
): Promise<{ notificationId: string; position: number | null }> {
  const parsed = NotificationRequest.safeParse({ ...notification, body: notification.body ?? null });
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
    throw invalid(`Invalid notification: ${issues[0].path} ${issues[0].message}`, issues);
  }
  const request = parsed.data;
  const result = await app.commands.handle(
    notificationsStream(request.userId), notificationsDecider, { type: 'RequestNotification', request },
    { userId: request.userId, commandId: ctx.commandId, correlationId: ctx.correlationId },
  );
  return { notificationId: notificationIdFor(result.eventIds[0], request.userId), position: result.position };
}
