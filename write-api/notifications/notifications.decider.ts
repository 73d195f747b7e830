/**
 * A user's notification stream: notifications asked for by other parts of the service (automations) and the
 * "mark every one read" marks. Notifications made from other domain events (bookings, tasks, invitations) are not
 * appended here: the notifications projection derives them from those events directly.
 */
import type { DomainEvent } from '../../contracts/domain-events';
import type { NotificationRequest } from '../../contracts/notifications';
import type { Decider } from '../../services/commands/decider';

export type NotificationsCommand =
  | { type: 'RequestNotification'; request: NotificationRequest }
  | { type: 'MarkAllRead'; userId: string };
type NotificationsEvent = Extract<DomainEvent, { type: 'notification.requested' | 'notifications.marked_read' }>;

/** Nothing here depends on earlier events: each request and each mark stands on its own. */
export type NotificationsState = null;

export const notificationsDecider: Decider<NotificationsCommand, NotificationsEvent, NotificationsState> = {
  initialState: () => null,
  decide(command) {
    return command.type === 'RequestNotification'
      ? [{ type: 'notification.requested', data: command.request }]
      : [{ type: 'notifications.marked_read', data: { userId: command.userId } }];
  },
  evolve: (state) => state,
};

export const notificationsStream = (userId: string) => `notifications-${userId}`;
