import type { Device, DeviceRecord } from '../../contracts/devices';
import type { PageQuery } from '../../contracts/paging';
import { DEVICES } from '../../projections/devices.projection';
import type { ReadModels } from '../../projections/read-models';
import type { Doc } from '../../services/readstore/read-store.port';
import type { PushLog } from '../../services/push/push-log';
import { pageOf } from '../shared/paging';

const RECENT_PUSHES = 5;

/** The caller's live device with this id, or null (someone else's or removed ones too). */
export async function ownDevice(models: ReadModels, userId: string, id: string): Promise<DeviceRecord | null> {
  const doc = await (await models.docs(DEVICES))('devices').get(id);
  return doc && doc.userId === userId && !doc.deletedAt ? (doc as unknown as DeviceRecord) : null;
}

export async function deviceView(device: DeviceRecord | Doc, log: PushLog): Promise<Device> {
  const d = device as DeviceRecord;
  const pushes = await log.recent(d.id, RECENT_PUSHES);
  return {
    id: d.id, platform: d.platform, name: d.name, pushToken: d.pushToken,
    lastPush: pushes[0] ?? null, pushes, createdAt: d.createdAt, updatedAt: d.updatedAt,
  };
}

export async function devicesPage(models: ReadModels, log: PushLog, userId: string, query: PageQuery) {
  const collection = (await models.docs(DEVICES))('devices');
  const page = await pageOf(collection, { userId, deletedAt: null }, '_sortKey', query);
  return { devices: await Promise.all(page.items.map((d) => deviceView(d, log))), nextPageToken: page.nextPageToken };
}
