/** Devices per user: what GET /devices lists and whom the push consumer pushes to. Removed ones keep a row. */
import type { DomainEventData } from '../contracts/domain-events';
import { projection } from './projection';

export const DEVICES = 'devices';

export const devicesProjection = projection({
  name: DEVICES,
  version: 2, // v2: erasure stamps on every document
  collections: { devices: { indexes: [['userId', '_sortKey']] } },
  handles: ['device.registered', 'device.updated', 'device.removed'],
  async apply(e, docs) {
    const device = (e.data as Partial<DomainEventData<'device.registered'>> | null)?.device;
    if (!device || typeof device.id !== 'string') return;
    const devices = docs('devices');
    const existing = await devices.get(device.id);
    await devices.putIfNewer({
      ...device,
      _id: device.id,
      _pos: e.position,
      _changedAt: e.metadata.occurredAt,
      _sortKey: `${device.createdAt}|${device.id}`,
      // Pushes reach a device only for notifications that came after it was registered.
      _registeredPos: (existing?._registeredPos as number | undefined) ?? e.position,
      deletedAt: e.type === 'device.removed' ? e.metadata.occurredAt : null,
    });
  },
});
