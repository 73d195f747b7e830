/**
 * The embedded read store's cache of parsed documents: least recently used first out, bounded by the bytes of the
 * documents' JSON. Entries are frozen snapshots shared by every reader.
 */
import type { Doc } from './read-store.port';

interface Entry {
  doc: Doc;
  bytes: number;
}

export class DocCache {
  private readonly entries = new Map<string, Entry>();
  private bytes = 0;

  constructor(private readonly maxBytes: number) {}

  private static key(table: number, id: string): string {
    return `${table}\0${id}`;
  }

  get(table: number, id: string): Doc | undefined {
    const key = DocCache.key(table, id);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key); // re-inserted: the most recently used go last
    this.entries.set(key, entry);
    return entry.doc;
  }

  /** Whether `id` is held, without counting as a use. */
  has(table: number, id: string): boolean {
    return this.entries.has(DocCache.key(table, id));
  }

  set(table: number, id: string, doc: Doc, bytes: number): void {
    if (bytes > this.maxBytes / 8) return; // one document never crowds out the rest
    this.delete(table, id);
    this.entries.set(DocCache.key(table, id), { doc, bytes });
    this.bytes += bytes;
    for (const [key, entry] of this.entries) {
      if (this.bytes <= this.maxBytes) break;
      this.entries.delete(key);
      this.bytes -= entry.bytes;
    }
  }

  delete(table: number, id: string): void {
    const key = DocCache.key(table, id);
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.bytes -= entry.bytes;
  }

  clear(): void {
    this.entries.clear();
    this.bytes = 0;
  }
}
