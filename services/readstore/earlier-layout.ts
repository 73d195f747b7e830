/**
 * Files of the embedded read store made before documents moved to a table per collection: one `docs` table
 * (collection, id, json) and a `collections` table naming each collection's indexes. They are copied into the
 * current layout in one transaction (a crash leaves the old file as it was) and dropped.
 */
import type Database from 'better-sqlite3';
import { tableExists } from '../sqlite/sqlite-file';
import type { Doc } from './read-store.port';

const CHUNK = 1000;

export interface Target {
  put(collection: string, doc: Doc): void;
  declareIndex(collection: string, def: { fields: string[]; unique: boolean }): void;
  /** Makes the collection exist, documents or not. */
  touch(collection: string): void;
}

/** True when there was something to migrate. */
export function migrateEarlierLayout(db: Database.Database, target: Target): boolean {
  if (!tableExists(db, 'docs')) return false;
  db.transaction(() => {
    const read = db.prepare(`SELECT collection, id, json FROM docs WHERE (collection, id) > (?, ?) ORDER BY collection, id LIMIT ${CHUNK}`);
    for (let after = ['', '']; ; ) {
      const rows = read.all(...after) as Array<{ collection: string; id: string; json: string }>;
      for (const row of rows) target.put(row.collection, JSON.parse(row.json) as Doc);
      if (rows.length < CHUNK) break;
      after = [rows[rows.length - 1].collection, rows[rows.length - 1].id];
    }
    for (const row of db.prepare('SELECT name, indexes FROM collections').all() as Array<{ name: string; indexes: string }>) {
      target.touch(row.name);
      for (const def of JSON.parse(row.indexes) as Array<{ fields: string[]; unique: boolean }>) target.declareIndex(row.name, def);
    }
    db.exec('DROP TABLE docs; DROP TABLE collections;');
  })();
  return true;
}
