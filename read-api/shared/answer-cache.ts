/**
 * Serialized answers of a read, kept while the projections it reads have not moved (`version`: a position, or the
 * positions of several projections) (GET /events: the schedule
 * projection, which every change to events, calendars or memberships moves): an entry is served only if nothing it
 * could contain has changed. Read the position before computing the answer, so an entry is at least that fresh.
 * Bounded by entries and by bytes (a page of a heavy series is megabytes); an answer over an eighth of the bytes is
 * not kept.
 */
type Version = number | string;

export class AnswerCache {
  private readonly entries = new Map<string, { version: Version; json: Buffer }>();
  private bytes = 0;

  constructor(
    private readonly capacity = 1000,
    private readonly maxBytes = 64 * 1024 * 1024,
  ) {}

  get(key: string, version: Version): Buffer | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.delete(key);
    if (entry.version !== version) return undefined;
    this.insert(key, entry); // most recently used goes last
    return entry.json;
  }

  set(key: string, version: Version, json: Buffer): void {
    this.delete(key);
    if (json.length > this.maxBytes / 8) return;
    this.insert(key, { version, json });
    while (this.entries.size > this.capacity || this.bytes > this.maxBytes) this.delete(this.entries.keys().next().value as string);
  }

  private insert(key: string, entry: { version: Version; json: Buffer }): void {
    this.entries.set(key, entry);
    this.bytes += entry.json.length;
  }

  private delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.json.length;
  }
}
