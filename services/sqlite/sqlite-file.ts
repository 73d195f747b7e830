/** Opening an embedded store's SQLite file, and giving the pages it no longer uses back to the file system. */
import Database from 'better-sqlite3';
import { WRITER_PRAGMAS } from './background-checkpoint';

/**
 * WAL at the given durability; checkpoints are left to the background worker. A new file returns freed pages to
 * the file system as it goes (auto_vacuum=INCREMENTAL, which can only be chosen before the first table).
 */
export function openSqliteFile(file: string, synchronous: 'NORMAL' | 'FULL', cacheKb?: number): Database.Database {
  const db = new Database(file);
  const fresh = (db.prepare("SELECT count(*) FROM sqlite_master WHERE type = 'table'").pluck().get() as number) === 0;
  if (fresh) db.pragma('auto_vacuum = INCREMENTAL');
  db.pragma('journal_mode = WAL');
  db.pragma(`synchronous = ${synchronous}`);
  if (cacheKb) db.pragma(`cache_size = -${cacheKb}`);
  for (const pragma of WRITER_PRAGMAS) db.pragma(pragma);
  return db;
}

export const tableExists = (db: Database.Database, name: string): boolean =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;

/** For a file made before incremental vacuum: switches it on, which takes one full VACUUM. */
export function reclaimingFreePages(db: Database.Database): void {
  if ((db.pragma('auto_vacuum', { simple: true }) as number) === 2) return;
  db.pragma('auto_vacuum = INCREMENTAL');
  db.exec('VACUUM');
}

/** Gives up to `pages` free pages back to the file system; false when there were none. */
export function returnFreePages(db: Database.Database, pages: number): boolean {
  if ((db.pragma('freelist_count', { simple: true }) as number) === 0) return false;
  db.pragma(`incremental_vacuum(${pages})`);
  return true;
}
