/** What the scale bench reads from a data directory from outside the service: file sizes, the bus's backlog. */
import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';

export const STORE_FILES = { log: 'events.sqlite', readModels: 'read-models.sqlite', bus: 'bus.sqlite' } as const;

/** Bytes of one SQLite database on disk, its WAL and shared-memory files included. */
export function fileBytes(dataDir: string, name: string): number {
  return ['', '-wal', '-shm']
    .map((suffix) => path.join(dataDir, name + suffix))
    .reduce((sum, f) => sum + (existsSync(f) ? statSync(f).size : 0), 0);
}

/** Messages not yet consumed by some group of the embedded bus (0 when there is no bus file yet). */
export function busBacklog(dataDir: string): number {
  const file = path.join(dataDir, STORE_FILES.bus);
  if (!existsSync(file)) return 0;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    return db.prepare('SELECT coalesce(sum(t.next_seq - g.next_seq), 0) FROM group_offsets g JOIN topics t USING (topic)').pluck().get() as number;
  } finally {
    db.close();
  }
}
