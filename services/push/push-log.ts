/**
 * Every push to a device, as state in the read store: claimed (`pending`) before it is sent, so a push that may
 * have gone out is never sent twice, then its outcome. Kept for 30 days.
 */
import type { PushRecord } from '../../contracts/devices';
import type { ReadStore } from '../readstore/read-store.port';

const KEEP_MS = 30 * 86_400_000;

type PushDoc = PushRecord & { _id: string; _sortKey: string; deviceId: string; userId: string };

/** Orders pushes claimed in one millisecond by this process in claim order. */
let claims = 0;

export class PushLog {
  private readonly pushes;
  private indexed: Promise<void> | null = null;

  constructor(store: ReadStore) {
    this.pushes = store.collection<PushDoc>('_pushes');
  }

  private ensureIndexes(): Promise<void> {
    return (this.indexed ??= this.pushes.ensureIndex(['deviceId', '_sortKey']));
  }

  /** Stores the push as pending; false when a push with this id exists already. */
  async claim(record: PushRecord, device: { id: string; userId: string }): Promise<boolean> {
    await this.ensureIndexes();
    const sortKey = `${record.at}|${String(++claims % 1e12).padStart(12, '0')}|${record.id}`;
    return this.pushes.insertNew({ ...record, _id: record.id, _sortKey: sortKey, deviceId: device.id, userId: device.userId });
  }

  async finish(record: PushRecord): Promise<void> {
    const claimed = await this.pushes.get(record.id);
    if (!claimed) return;
    await this.pushes.put({ ...claimed, ...record });
    await this.pushes.deleteMany({ deviceId: claimed.deviceId, _sortKey: { $lt: new Date(Date.now() - KEEP_MS).toISOString() } });
  }

  async get(id: string): Promise<PushRecord | null> {
    const doc = await this.pushes.get(id);
    return doc ? view(doc) : null;
  }

  /** The latest pushes to a device, newest first. */
  async recent(deviceId: string, limit: number): Promise<PushRecord[]> {
    await this.ensureIndexes();
    const docs = await this.pushes.find({ deviceId }, { sort: [['_sortKey', -1]], limit });
    return docs.map(view);
  }
}

const view = ({ id, kind, notificationId, provider, outcome, status, error, at }: PushDoc): PushRecord =>
  ({ id, kind, notificationId, provider, outcome, status, error, at });
