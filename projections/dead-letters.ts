/**
 * Events a projection could not apply. Each is recorded (projection, storage, event id, position, type, error, time)
 * before the projection moves past it, so the checkpoint never passes an event that was neither applied nor recorded.
 * Records belong to one storage generation: a rebuild starts with none, and dropping a storage drops its records.
 */
import type { RecordedEvent } from '../services/eventstore/event-store.port';
import type { Doc, ReadStore } from '../services/readstore/read-store.port';

export const DEAD_LETTERS = '_dead_letters';

export interface DeadLetter extends Doc {
  projection: string;
  storage: string;
  eventId: string;
  position: number;
  type: string;
  error: string;
  at: string;
}

export class DeadLetters {
  constructor(private readonly store: ReadStore) {}

  private get collection() {
    return this.store.collection<DeadLetter>(DEAD_LETTERS);
  }

  ensureIndexes(): Promise<void> {
    return this.collection.ensureIndex(['storage', 'position']);
  }

  record(projection: string, storage: string, event: RecordedEvent, err: unknown): Promise<void> {
    const error = (err instanceof Error ? err.message : String(err)).slice(0, 2000);
    return this.collection.put({
      _id: `${storage}:${event.position}`, projection, storage, eventId: event.id, position: event.position, type: event.type,
      error, at: new Date().toISOString(),
    });
  }

  count(storage: string): Promise<number> {
    return this.collection.count({ storage });
  }

  /** The latest records of a storage, newest first. */
  async latest(storage: string, limit = 20): Promise<Omit<DeadLetter, '_id'>[]> {
    const docs = await this.collection.find({ storage }, { sort: [['position', -1]], limit });
    return docs.map(({ _id, ...letter }) => letter);
  }

  async drop(storage: string): Promise<void> {
    await this.collection.deleteMany({ storage });
  }
}
