import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';

const dir = mkdtempSync(join(tmpdir(), 'read-store-batch-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Documents another connection to the file sees committed in the collection's table. */
function committed(file: string): number {
  const db = new Database(file, { readonly: true });
  try {
    const row = db.prepare("SELECT tbl FROM collection_meta WHERE name = 'docs'").get() as { tbl: number } | undefined;
    return row ? (db.prepare(`SELECT count(*) AS n FROM c${row.tbl}`).get() as { n: number }).n : 0;
  } finally {
    db.close();
  }
}

describe('embedded read store batch', () => {
  it('runs a batch\'s writes in one transaction, readable inside it, committed when it resolves', async () => {
    const file = join(dir, 'batch.db');
    const store = await openEmbeddedReadStore(file);
    const seenOutside: number[] = [];
    await store.batch!(async (grouped) => {
      const docs = grouped.collection('docs');
      for (let i = 0; i < 300; i++) {
        await docs.putIfNewer({ _id: `d${i % 100}`, _pos: i + 1, n: i });
        if (i % 100 === 99) seenOutside.push(committed(file));
      }
      expect(await docs.get('d5')).toMatchObject({ n: 205 });
    });
    expect(seenOutside).toEqual([0, 0, 0]);
    expect(committed(file)).toBe(100);
    await store.close();
  });

  it('waits for writes of others made during the batch as before: they resolve once committed', async () => {
    const file = join(dir, 'others.db');
    const store = await openEmbeddedReadStore(file);
    const docs = store.collection('docs');
    const other = docs.put({ _id: 'outside' }).then(() => committed(file));
    let seenByInner = -1;
    await store.batch!(async (grouped) => {
      await grouped.collection('docs').put({ _id: 'inside' });
      // Not through the batch's store: resolves only once committed, even while the batch runs.
      await docs.put({ _id: 'inner-ungrouped' });
      seenByInner = committed(file);
    });
    expect(await other).toBeGreaterThanOrEqual(1);
    expect(seenByInner).toBe(3);
    expect(committed(file)).toBe(3);
    await store.close();
  });

  it('holds the write lock from its start, so its writes after reads are never refused for another process\'s commit', async () => {
    const file = join(dir, 'lock.db');
    const store = await openEmbeddedReadStore(file);
    await store.collection('docs').put({ _id: 'a', _pos: 1 });
    const other = new Database(file, { timeout: 0 });
    let otherWrite: unknown = null;
    await store.batch!(async (grouped) => {
      const docs = grouped.collection('docs');
      expect(await docs.get('a')).toMatchObject({ _pos: 1 });
      try {
        other.prepare('UPDATE collection_meta SET meta = meta').run();
      } catch (e) {
        otherWrite = e;
      }
      expect(await docs.putIfNewer({ _id: 'a', _pos: 2 })).toBe(true);
    });
    expect((otherWrite as { code?: string } | null)?.code).toBe('SQLITE_BUSY');
    other.prepare('UPDATE collection_meta SET meta = meta').run(); // free again once the batch committed
    other.close();
    expect(await store.collection('docs').get('a')).toMatchObject({ _pos: 2 });
    await store.close();
  });
});
