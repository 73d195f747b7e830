/** Invitations: events whose attendees include a user of the service, until that user answers. */
import type { Event } from '../contracts/events';
import { projection } from './projection';

export const INBOX = 'inbox';

export const inboxProjection = projection({
  name: INBOX,
  version: 2, // v2: erasure stamps on every document
  collections: { invitations: { indexes: [['userId'], ['eventId']] } },
  handles: ['event.created', 'event.updated', 'event.cancelled'],
  async apply(e, docs) {
    const event = e.data as Event;
    const invitations = docs('invitations');
    const invited = new Set(
      event.status === 'confirmed'
        ? event.attendees
            .filter((a) => a.userId && a.userId !== event.createdBy && a.response === 'needs_action')
            .map((a) => a.userId as string)
        : [],
    );
    for (const stale of await invitations.find({ eventId: event.id })) {
      if (!invited.has(stale.userId as string)) await invitations.delete(stale._id);
    }
    for (const userId of invited) {
      const id = `${event.id}:${userId}`;
      const existing = await invitations.get(id);
      await invitations.putIfNewer({
        _id: id,
        _pos: e.position,
        userId,
        eventId: event.id,
        event,
        createdAt: (existing?.createdAt as string | undefined) ?? e.metadata.occurredAt,
      });
    }
  },
});
