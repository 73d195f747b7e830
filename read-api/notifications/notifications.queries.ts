import type { ListNotificationsQuery, Notification } from '../../contracts/notifications';
import { NOTIFICATIONS } from '../../projections/notifications.projection';
import type { ReadModels } from '../../projections/read-models';
import type { Filter } from '../../services/readstore/read-store.port';
import { pageOf } from '../shared/paging';

/** Log position up to which the user marked everything read (0: never). */
async function readThrough(models: ReadModels, userId: string): Promise<number> {
  const mark = await (await models.docs(NOTIFICATIONS))('reads').get(userId);
  return (mark?.readThrough as number | undefined) ?? 0;
}

export async function unreadCount(models: ReadModels, userId: string): Promise<number> {
  const through = await readThrough(models, userId);
  return (await models.docs(NOTIFICATIONS))('notifications').count({ userId, _pos: { $gt: through } });
}

export async function notificationsPage(models: ReadModels, userId: string, query: ListNotificationsQuery) {
  const through = await readThrough(models, userId);
  const unreadOnly = query.unread === '1' || query.unread === 'true';
  const collection = (await models.docs(NOTIFICATIONS))('notifications');
  const unread: Filter = { userId, _pos: { $gt: through } };
  const filter: Filter = unreadOnly ? unread : { userId };
  const [page, unreadCount] = await Promise.all([
    pageOf(collection, filter, '_sortKey', query, -1),
    collection.count(unread),
  ]);
  const notifications: Notification[] = page.items.map((d) => ({
    id: d.id as string,
    kind: d.kind as Notification['kind'],
    title: d.title as string,
    body: (d.body as string | null) ?? null,
    source: d.source as Notification['source'],
    // Invitations carry the event as their source only (they came before this field).
    eventId: (d.eventId as string | undefined) ?? (d.kind === 'invitation' ? (d.source as Notification['source']).id : null),
    occurrenceStartsAt: (d.occurrenceStartsAt as string | undefined) ?? null,
    read: d._pos! <= through,
    createdAt: d.createdAt as string,
  }));
  return { notifications, unreadCount, nextPageToken: page.nextPageToken };
}
