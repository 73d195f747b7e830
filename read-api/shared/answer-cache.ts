/**
 * Serialized answers of a read, kept while the projection it reads has not moved (GET /events: the schedule
 * projection, which every change to events, calendars or memberships moves): an entry is served only if nothing it
 * could contain has changed. Read the position before computing the answer, so an entry is at least that fresh.
 */
export class AnswerCache {
  private readonly entries = new Map<string, { position: number; json: Buffer }>();

  constructor(private readonly capacity = 1000) {}

  get(key: string, position: number): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    if (entry.position !== position) {
      this.entries.delete(key);
      return undefined;
    }
    this.entries.delete(key); // most recently used goes last
    this.entries.set(key, entry);
    return entry.json;
  }

  set(key: string, position: number, json: Buffer): void {
    this.entries.delete(key);
    this.entries.set(key, { position, json });
    if (this.entries.size > this.capacity) this.entries.delete(this.entries.keys().next().value as string);
  }
}
