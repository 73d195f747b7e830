import { INBOX_LIMIT } from '../../contracts/inbox';
import { INBOX } from '../../projections/inbox.projection';
import type { ReadModels } from '../../projections/read-models';

/** Booking requests stay until their start: the filter both the list and the count use. */
const pendingRequests = (userId: string, now: number) => ({ userId, _startMs: { $gt: now } });

export async function inboxItems(models: ReadModels, userId: string, now: number) {
  const docs = await models.docs(INBOX);
  const [invitations, requests] = await Promise.all([
    docs('invitations').find({ userId }, { sort: [['createdAt', -1], ['_id', 1]], limit: INBOX_LIMIT }),
    docs('bookings').find(pendingRequests(userId, now), { sort: [['_startMs', 1]], limit: INBOX_LIMIT }),
  ]);
  return [
    ...invitations.map((d) => ({ id: d._id, type: 'invitation' as const, event: d.event, createdAt: d.createdAt as string })),
    ...requests.map((d) => ({ id: d._id, type: 'booking' as const, booking: d.booking, createdAt: d.createdAt as string })),
  ].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || a.id.localeCompare(b.id));
}

export async function inboxCount(models: ReadModels, userId: string, now: number): Promise<number> {
  const docs = await models.docs(INBOX);
  const [invitations, requests] = await Promise.all([docs('invitations').count({ userId }), docs('bookings').count(pendingRequests(userId, now))]);
  return Math.min(invitations, INBOX_LIMIT) + Math.min(requests, INBOX_LIMIT);
}
