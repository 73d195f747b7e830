/** People's own event types (GET /event-types adds the built-in kinds). */
import { EventType } from '../contracts/event-types';
import { creationOrderKey } from './creation-order';
import { projection } from './projection';

export const EVENT_TYPES = 'event-types';

export const eventTypesProjection = projection({
  name: EVENT_TYPES,
  version: 2, // v2: erasure stamps on every document
  collections: { types: { indexes: [['_userId', '_sortKey']] } },
  handles: ['event_type.created', 'event_type.updated', 'event_type.deleted'],
  async apply(e, docs) {
    const parsed = EventType.safeParse(e.data);
    if (!parsed.success || !e.metadata.userId) return;
    const type = parsed.data;
    const types = docs('types');
    await types.putIfNewer({
      ...type, _id: type.id, _pos: e.position, _changedAt: e.metadata.occurredAt, _userId: e.metadata.userId,
      _sortKey: await creationOrderKey(types, type.id, e.position),
    });
  },
});
