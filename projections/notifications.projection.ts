/**
 * Notifications: domain events turned into one record per user they concern (bookings to the host, task
 * assignments to the assignee, invitations to each newly invited user, requested ones to their user, reminders that
 * fired to the event's owner).
 *
 * A notification's id derives from (domain event id, user id), so one domain event makes at most one notification
 * per user however often it is replayed. Read state is a per-user mark: every notification whose event comes
 * before the user's last `notifications.marked_read` in the log is read, so marking all read writes one document.
 */
import type { DomainEventData, OccurrenceChange } from '../contracts/domain-events';
import { attendeesOf, type Event } from '../contracts/events';
import type { RecordedEvent } from '../services/eventstore/event-store.port';
import { deterministicUuid } from '../services/ids';
import { calendarEventOf } from './event-time';
import { bookingNotification, invitationContent, reminderNotification, taskAssignedNotification, type NotificationContent } from './notification-messages';
import { projection, type ProjectionDocs } from './projection';

export const NOTIFICATIONS = 'notifications';

export const notificationIdFor = (eventId: string, userId: string) => deterministicUuid('notification', eventId, userId);

/** Newest first is descending order of this key: log position, then id. */
const sortKey = (position: number, id: string) => `${String(position).padStart(20, '0')}|${id}`;

export const NOTIFYING_TYPES = [
  'booking.created', 'booking.cancelled', 'booking.rescheduled', 'task.assigned', 'event.created', 'event.updated',
  'event.occurrence.changed', 'notification.requested', 'reminder.fired',
] as const;

async function notify(docs: ProjectionDocs, e: RecordedEvent, userId: string, content: NotificationContent): Promise<void> {
  const id = notificationIdFor(e.id, userId);
  await docs('notifications').putIfNewer({
    _id: id, _pos: e.position, _sortKey: sortKey(e.position, id), userId, sourceEventId: e.id,
    id, ...content, createdAt: e.metadata.occurredAt,
  });
}

/**
 * Users invited by this version of the event (to the series or one of its occurrences) who were not invited by the
 * one before; one invited by an occurrence's change is told of that occurrence.
 */
async function invite(docs: ProjectionDocs, e: RecordedEvent): Promise<void> {
  const event = calendarEventOf(e.type, e.data) as Event;
  if (!event || typeof event.id !== 'string' || !Array.isArray(event.attendees)) return;
  const shown = e.type === 'event.occurrence.changed' ? (e.data as OccurrenceChange).occurrence : event;
  const invitees = docs('invitees');
  const stored = await invitees.get(event.id);
  if (stored && stored._pos! >= e.position) return; // replayed: its notifications were written before this mark
  const before = new Set((stored?.userIds as string[] | undefined) ?? []);
  const now = event.status === 'confirmed'
    ? [...new Set(attendeesOf(event).map((a) => a.userId).filter((id): id is string => !!id && id !== event.createdBy))]
    : [];
  for (const userId of now) if (!before.has(userId)) await notify(docs, e, userId, invitationContent(shown));
  // No document is no one invited: most events invite no other user, and then nothing is written.
  if (stored || now.length) await invitees.putIfNewer({ _id: event.id, _pos: e.position, userIds: now });
}

export const notificationsProjection = projection({
  name: NOTIFICATIONS,
  version: 2, // v2: erasure stamps on every document
  collections: {
    notifications: { indexes: [['userId', '_sortKey'], ['userId', '_pos'], ['sourceEventId']] },
    invitees: { indexes: [] },
    reads: { indexes: [] },
  },
  handles: [...NOTIFYING_TYPES, 'notifications.marked_read'],
  async apply(e, docs) {
    switch (e.type) {
      case 'event.created':
      case 'event.updated':
      case 'event.occurrence.changed':
        return invite(docs, e);
      case 'task.assigned': {
        const found = taskAssignedNotification(e.data);
        return found ? notify(docs, e, found.userId, found.content) : undefined;
      }
      case 'reminder.fired': {
        const found = reminderNotification(e.data);
        return found ? notify(docs, e, found.userId, found.content) : undefined;
      }
      case 'notification.requested': {
        const r = e.data as DomainEventData<'notification.requested'> | null;
        if (typeof r?.userId !== 'string' || typeof r.title !== 'string') return;
        return notify(docs, e, r.userId, { kind: 'message', title: r.title, body: r.body ?? null, source: r.source ?? { type: 'service', id: null } });
      }
      case 'notifications.marked_read': {
        const userId = (e.data as Partial<DomainEventData<'notifications.marked_read'>> | null)?.userId;
        if (typeof userId === 'string') await docs('reads').putIfNewer({ _id: userId, _pos: e.position, readThrough: e.position });
        return;
      }
      default: {
        const found = bookingNotification(e.type, e.data);
        return found ? notify(docs, e, found.userId, found.content) : undefined;
      }
    }
  },
});
