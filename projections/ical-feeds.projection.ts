/** Feed addresses by the hash of their token: what GET /ical/{token}.ics looks up. Retired ones keep a row. */
import type { DomainEventData } from '../contracts/domain-events';
import { projection } from './projection';

export const ICAL_FEEDS = 'ical-feeds';

export const icalFeedsProjection = projection({
  name: ICAL_FEEDS,
  version: 1,
  collections: { feeds: { indexes: [] } },
  handles: ['calendar.feed_issued', 'calendar.feed_revoked'],
  async apply(e, docs) {
    const feeds = docs('feeds');
    const at = e.metadata.occurredAt;
    if (e.type === 'calendar.feed_issued') {
      const d = e.data as DomainEventData<'calendar.feed_issued'>;
      if (d.previousTokenHash) await feeds.putIfNewer({ _id: d.previousTokenHash, _pos: e.position, calendarId: d.calendarId, spaceId: d.spaceId, revokedAt: at });
      await feeds.putIfNewer({
        _id: d.tokenHash, _pos: e.position, _changedAt: at, calendarId: d.calendarId, spaceId: d.spaceId, generation: d.generation,
        createdAt: d.createdAt, revokedAt: null,
      });
      return;
    }
    const d = e.data as DomainEventData<'calendar.feed_revoked'>;
    await feeds.putIfNewer({ _id: d.tokenHash, _pos: e.position, _changedAt: at, calendarId: d.calendarId, spaceId: d.spaceId, revokedAt: d.revokedAt });
  },
});
