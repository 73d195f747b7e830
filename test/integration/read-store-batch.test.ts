import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { openEmbeddedReadStore, type EmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { Grouped } from '../../services/readstore/read-store.port';

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

describe('embedded read store batch: what it writes', () => {
  let store: EmbeddedReadStore;
  let names = 0;
  const freshName = (label: string) => `${label}${++names}`;
  beforeAll(async () => {
    store = await openEmbeddedReadStore(join(dir, 'semantics.db'));
  });
  afterAll(() => store.close());

  const batch = (work: (grouped: Grouped) => Promise<void>) => store.batch!(work);

  it('writes what the batch wrote, as last written; its reads see its writes', async () => {
    const name = freshName('batch');
    const outside = store.collection(name);
    await outside.put({ _id: 'stored', _pos: 5, v: 'before' });
    await outside.put({ _id: 'gone', v: 'x' });
    await batch(async (grouped) => {
      const c = grouped.collection(name);
      expect(await c.putIfNewer({ _id: 'stored', _pos: 4, v: 'stale' })).toBe(false);
      expect(await c.putIfNewer({ _id: 'stored', _pos: 6, v: 'newer' })).toBe(true);
      expect(await c.putIfNewer({ _id: 'stored', _pos: 6, v: 'same position' })).toBe(false);
      for (let i = 1; i <= 5; i++) await c.putIfNewer({ _id: 'fresh', _pos: i, v: `v${i}` });
      await c.delete('gone');
      await c.put({ _id: 'put', v: 1 });
      await c.delete('put');
      await c.put({ _id: 'put', v: 2 });
      expect(await c.get('stored')).toMatchObject({ v: 'newer' });
      expect(await c.get('fresh')).toMatchObject({ _pos: 5, v: 'v5' });
      expect(await c.get('gone')).toBeNull();
      expect((await c.find({})).map((d) => d._id).sort()).toEqual(['fresh', 'put', 'stored']);
      expect(await c.count({ v: 'newer' })).toBe(1);
      await c.put({ _id: 'after-find', v: 3 });
    });
    expect(await outside.find({}, { sort: [['_id', 1]] })).toEqual([
      { _id: 'after-find', v: 3 },
      { _id: 'fresh', _pos: 5, v: 'v5' },
      { _id: 'put', v: 2 },
      { _id: 'stored', _pos: 6, v: 'newer' },
    ]);
  });

  it('a putIfNewer after a delete in the same batch writes the document again', async () => {
    const name = freshName('batch');
    const outside = store.collection(name);
    await outside.putIfNewer({ _id: 'a', _pos: 9, v: 'old' });
    await batch(async (grouped) => {
      const c = grouped.collection(name);
      await c.delete('a');
      expect(await c.putIfNewer({ _id: 'a', _pos: 3, v: 'again' })).toBe(true);
    });
    expect(await outside.get('a')).toEqual({ _id: 'a', _pos: 3, v: 'again' });
  });

  it('keeps what was written, not the object the caller changes afterwards', async () => {
    const name = freshName('batch');
    const outside = store.collection(name);
    await batch(async (grouped) => {
      const doc = { _id: 'a', _pos: 1, tags: ['one'] };
      await grouped.collection(name).putIfNewer(doc);
      doc.tags.push('two');
    });
    expect(await outside.get('a')).toEqual({ _id: 'a', _pos: 1, tags: ['one'] });
  });

  it('fails as a whole when a write breaks a unique index: nothing after it is written', async () => {
    const dataName = freshName('batch');
    const data = store.collection(dataName);
    const marksName = freshName('marks');
    const marks = store.collection(marksName);
    await data.ensureIndex(['email'], { unique: true });
    await data.put({ _id: 'u1', email: 'a@example.com' });
    await expect(
      batch(async (grouped) => {
        await grouped.collection(dataName).put({ _id: 'u2', email: 'a@example.com' });
        await grouped.collection(marksName).putIfNewer({ _id: 'page', _pos: 10 });
      }),
    ).rejects.toThrow();
    expect(await marks.get('page')).toBeNull();
    expect((await data.find({ email: 'a@example.com' })).map((d) => d._id)).toEqual(['u1']);
  });
});
