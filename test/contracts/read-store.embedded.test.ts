import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { BuildingRows } from '../../services/readstore/building-rows';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { Doc, Filter } from '../../services/readstore/read-store.port';
import { readStoreContract } from './read-store.contract';

const dir = mkdtempSync(join(tmpdir(), 'read-store-'));
let files = 0;
const newFile = () => join(dir, `store-${++files}.db`);
const ids = (docs: Doc[]) => docs.map((d) => d._id);
/** Integers below n, the same sequence for a seed (a multiply-xorshift mix of 32-bit state). */
const seeded = (seed: number) => (n: number) => ((seed = (Math.imul(seed ^ (seed >>> 15), 0x2c1b3c6d) + 0x6d2b79f5) >>> 0), seed % n);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

readStoreContract('embedded', () => openEmbeddedReadStore(newFile()));

describe('embedded read store', () => {
  it('finds everything again after reopening the file: documents, collections, indexes, drops', async () => {
    const file = newFile();
    const first = await openEmbeddedReadStore(file);
    const users = first.collection('users');
    await users.ensureIndex(['email'], { unique: true });
    await users.put({ _id: 'u1', email: 'a@example.com', profile: { name: 'Ada' } });
    await users.putIfNewer({ _id: 'u2', _pos: 3, email: 'b@example.com' });
    await users.put({ _id: 'u3', email: 'c@example.com' });
    await users.delete('u3');
    await first.collection('gone').put({ _id: 'x' });
    await first.collection('gone').drop();
    await first.collection('emptied').put({ _id: 'y' });
    await first.collection('emptied').delete('y');
    await first.close();

    const second = await openEmbeddedReadStore(file);
    const again = second.collection('users');
    expect((await second.listCollections()).sort()).toEqual(['emptied', 'users']);
    expect(await again.find({}, { sort: [['_id', 1]] })).toEqual([
      { _id: 'u1', email: 'a@example.com', profile: { name: 'Ada' } },
      { _id: 'u2', _pos: 3, email: 'b@example.com' },
    ]);
    expect(await again.putIfNewer({ _id: 'u2', _pos: 3, email: 'b@example.com' })).toBe(false);
    await expect(again.put({ _id: 'u9', email: 'a@example.com' })).rejects.toThrow(/duplicate key/);
    expect(await again.find({ email: 'b@example.com' })).toHaveLength(1);
    await second.close();
  });

  it('appends the writes of a collection whose id key is deferred, across a reopening, and keys it once read', async () => {
    const file = newFile();
    const indexesOf = () => {
      const db = new Database(file, { readonly: true });
      const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name GLOB 'c[0-9]*'").pluck().all();
      db.close();
      return names;
    };
    const first = await openEmbeddedReadStore(file);
    await first.collection('built').ensureIndex(['_id'], { deferred: true });
    await first.collection('built').putIfNewer({ _id: 'a', _pos: 1, v: 1 });
    await first.close(); // as a build stopped half way
    const second = await openEmbeddedReadStore(file);
    const built = second.collection('built');
    await built.ensureIndex(['_id'], { deferred: true }); // declared again on resuming: still unkeyed
    await built.putIfNewer({ _id: 'a', _pos: 2, v: 2 });
    await built.putIfNewer({ _id: 'b', _pos: 3, v: 3 });
    expect(indexesOf()).toEqual([]);
    expect(await built.find({}, { sort: [['_id', 1]] })).toEqual([{ _id: 'a', _pos: 2, v: 2 }, { _id: 'b', _pos: 3, v: 3 }]);
    expect(indexesOf()).toHaveLength(1);
    await second.close();
  });

  describe('a collection being built, read and rewritten as it is built', () => {
    /** The SQLite indexes of one collection's table. */
    const indexesOf = (file: string, name: string) => {
      const db = new Database(file, { readonly: true });
      const table = `c${db.prepare('SELECT tbl FROM collection_meta WHERE name = ?').pluck().get(name)}`;
      const names = db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ?").pluck().all(table);
      db.close();
      return names;
    };
    /** Random reads and writes of a few ids, each checked against a keyed collection given the same. */
    async function build(rows: BuildingRows | undefined, between?: (file: string) => Promise<void>) {
      const file = newFile();
      const store = await openEmbeddedReadStore(file, { buildingRows: rows });
      const built = store.collection('built');
      const keyed = store.collection('keyed');
      await built.ensureIndex(['_id'], { deferred: true });
      await built.ensureIndex(['grp'], { deferred: true });
      await keyed.ensureIndex(['grp']);
      const random = seeded(7);
      for (let step = 1; step <= 600; step++) {
        if (step === 300) await between?.(file);
        const id = `d${random(40)}`;
        const doc = { _id: id, _pos: random(step + 1), grp: `g${random(3)}`, step };
        const op = random(4);
        if (op === 0) expect(await built.putIfNewer(doc)).toBe(await keyed.putIfNewer(doc));
        else if (op === 1) expect(await built.insertNew(doc)).toBe(await keyed.insertNew(doc));
        else if (op === 2) await Promise.all([built.put(doc), keyed.put(doc)]);
        expect(await built.get(id)).toEqual(await keyed.get(id));
      }
      const unkeyedWhileBuilt = indexesOf(file, 'built').length === 0;
      for (const grp of ['g0', 'g1', 'g2']) {
        expect(await built.find({ grp }, { sort: [['_id', 1]] })).toEqual(await keyed.find({ grp }, { sort: [['_id', 1]] }));
      }
      expect(await built.count({})).toBe(await keyed.count({}));
      await store.close();
      return unkeyedWhileBuilt;
    }

    it('answers as a keyed collection, and stays unkeyed until queried', async () => {
      expect(await build(undefined)).toBe(true);
    });

    it('tells apart ids whose hashes collide', async () => {
      expect(await build(new BuildingRows(undefined, () => 1))).toBe(true);
    });

    it('answers the same once its rows pass the budget (read by id, it is keyed then)', async () => {
      expect(await build(new BuildingRows(10))).toBe(false);
    });

    it('answers the same after another connection committed to the file half way', async () => {
      const other = async (file: string) => {
        const db = new Database(file);
        db.exec('CREATE TABLE other_work (x)');
        db.close();
        await new Promise((r) => setTimeout(r, 300)); // past the store's next look for other connections' commits
      };
      expect(await build(undefined, other)).toBe(false);
    });
  });

    it('keeps indexes right through many random puts, deletes and putIfNewer calls', async () => {
    const store = await openEmbeddedReadStore(newFile());
    const indexed = store.collection('indexed');
    const plain = store.collection('plain');
    await indexed.ensureIndex(['cal', 'at']);
    await indexed.ensureIndex(['tags']);
    await indexed.ensureIndex(['code'], { unique: true });

    const random = seeded(42);
    const cals = ['a', 'b', 'c', null, undefined];
    const docFor = (i: number, pos: number): Doc => {
      const cal = cals[random(cals.length)];
      const doc: Doc = { _id: `d${i}`, _pos: pos, at: random(100), tags: [`t${random(4)}`, `t${random(4)}`], code: `c${i}` };
      if (cal !== undefined) doc.cal = cal;
      return doc;
    };
    for (let step = 1; step <= 3000; step++) {
      const i = random(200);
      const op = random(4);
      if (op === 0) {
        await indexed.delete(`d${i}`);
        await plain.delete(`d${i}`);
      } else if (op === 1) {
        const doc = docFor(i, random(step + 1));
        expect(await indexed.putIfNewer(doc)).toBe(await plain.putIfNewer(doc));
      } else {
        const doc = docFor(i, step);
        await indexed.put(doc);
        await plain.put(doc);
      }
    }
    const filters: Filter[] = [
      { cal: 'a' },
      { cal: null },
      { cal: { $in: ['b', 'c'] } },
      { cal: { $in: ['a', 'c'] }, at: { $gte: 50 } },
      { tags: 't1' },
      { tags: { $in: ['t0', 't3'] }, cal: { $ne: 'a' } },
      { code: 'c7' },
    ];
    for (const filter of filters) {
      const expected = await plain.find(filter, { sort: [['_id', 1]] });
      expect(await indexed.find(filter, { sort: [['_id', 1]] })).toEqual(expected);
      expect(await indexed.count(filter)).toBe(expected.length);
    }
    expect(await indexed.deleteMany({ cal: 'a' })).toBe(await plain.deleteMany({ cal: 'a' }));
    expect(await indexed.find({ cal: 'a' })).toEqual([]);
    expect(await indexed.count({ cal: { $in: ['b', 'c'] } })).toBe(await plain.count({ cal: { $in: ['b', 'c'] } }));
    await store.close();
  });

  it('builds a deferred index once, before the first query that could use it or when declared again', async () => {
    const file = newFile();
    const store = await openEmbeddedReadStore(file, { requireIndexes: true });
    const sqliteIndexes = () => {
      const db = new Database(file, { readonly: true });
      try {
        return db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name GLOB 'i*'").pluck().all();
      } finally {
        db.close();
      }
    };
    try {
      const a = store.collection('a');
      const b = store.collection('b');
      for (const c of [a, b]) {
        await c.ensureIndex(['owner'], { deferred: true });
        await c.ensureIndex(['owner', 'at'], { deferred: true });
        for (let i = 0; i < 10; i++) await c.put({ _id: `d${i}`, owner: `u${i % 2}`, at: i });
      }
      expect(sqliteIndexes()).toEqual([]);
      // Checking mode refuses a scan: the query is served, so the indexes were built first.
      expect(ids(await a.find({ owner: 'u1' }, { sort: [['at', -1]], limit: 2 }))).toEqual(['d9', 'd7']);
      expect(sqliteIndexes().length).toBe(2);
      await b.ensureIndex(['owner']);
      expect(sqliteIndexes().length).toBe(3); // only the one declared again
    } finally {
      await store.close();
    }
    const reopened = await openEmbeddedReadStore(file, { requireIndexes: true });
    try {
      expect(await reopened.collection('b').count({ owner: 'u0', at: { $gte: 4 } })).toBe(3);
      expect(sqliteIndexes().length).toBe(4);
    } finally {
      await reopened.close();
    }
  });

  describe('index checking mode', () => {
    const checked = async () => {
      const store = await openEmbeddedReadStore(newFile(), { requireIndexes: true });
      const c = store.collection('c');
      for (let i = 0; i < 20; i++) await c.put({ _id: `d${i}`, owner: `u${i % 3}`, at: i, kind: i % 2 ? 'odd' : 'even' });
      return { store, c };
    };

    it('refuses a find, count or deleteMany that no index serves', async () => {
      const { store, c } = await checked();
      await expect(c.find({ owner: 'u1' })).rejects.toThrow(/not served by an index/);
      await expect(c.count({ kind: 'odd' })).rejects.toThrow(/not served by an index/);
      await expect(c.deleteMany({ owner: 'u1' })).rejects.toThrow(/not served by an index/);
      await expect(c.find({}, { sort: [['at', 1]] })).rejects.toThrow(/not served by an index/);
      expect(await c.count({ owner: 'u1' }).catch(() => 'refused')).toBe('refused');
      await store.close();
    });

    it('lets through what an index serves, by a prefix of its fields too, and reads by id without one', async () => {
      const { store, c } = await checked();
      await c.ensureIndex(['owner', 'at']);
      expect(ids(await c.find({ owner: 'u1' }))).toHaveLength(7);
      expect(ids(await c.find({ owner: 'u1', kind: 'odd', at: { $gte: 10 } }, { sort: [['at', -1]], limit: 2 }))).toEqual(['d19', 'd13']);
      expect(ids(await c.find({ owner: { $in: ['u0', 'u2'] } }, { sort: [['at', 1]], limit: 3 }))).toEqual(['d0', 'd2', 'd3']);
      expect(await c.count({ owner: 'u2', at: { $lt: 10 } })).toBe(3);
      expect(ids(await c.find({ _id: { $in: ['d1', 'd2'] } }))).toEqual(['d1', 'd2']);
      expect((await c.get('d5'))?.at).toBe(5);
      expect(await c.find({}, { limit: 2 })).toHaveLength(2); // everything, a bounded page of it
      expect(await c.deleteMany({ owner: 'u0' })).toBe(7);
      await store.close();
    });

    it('refuses a limited page sorted outside the index, and allows the same sort of a whole (bounded) answer', async () => {
      const { store, c } = await checked();
      await c.ensureIndex(['owner']);
      await expect(c.find({ owner: 'u1' }, { sort: [['at', -1]], limit: 2 })).rejects.toThrow(/sort/);
      expect(ids(await c.find({ owner: 'u1' }, { sort: [['at', -1]] }))).toEqual(['d19', 'd16', 'd13', 'd10', 'd7', 'd4', 'd1']);
      await store.close();
    });

    it('allows the newest page of a whole collection in an index\'s order, but not the whole collection in that order', async () => {
      const { store, c } = await checked();
      await c.ensureIndex(['at']);
      expect(ids(await c.find({}, { sort: [['at', -1]], limit: 3 }))).toEqual(['d19', 'd18', 'd17']);
      await expect(c.find({}, { sort: [['at', -1]] })).rejects.toThrow(/not served by an index/);
      await expect(c.find({ kind: 'odd' }, { sort: [['at', -1]], limit: 3 })).rejects.toThrow(/not served by an index/);
      await store.close();
    });
  });

  it('answers from its cache and from disk alike, with a cache far smaller than the documents', async () => {
    const store = await openEmbeddedReadStore(newFile(), { cacheBytes: 2000 });
    const c = store.collection('c');
    await c.ensureIndex(['n']);
    for (let i = 0; i < 200; i++) await c.put({ _id: `d${i}`, n: i % 10, text: 'x'.repeat(100) });
    for (let round = 0; round < 2; round++) {
      expect((await c.get('d7'))?.n).toBe(7);
      expect(await c.find({ n: 3 })).toHaveLength(20);
      await c.put({ _id: 'd7', n: 7, text: `round ${round}` });
      expect((await c.get('d7'))?.text).toBe(`round ${round}`);
    }
    await store.close();
  });

  it('answers a query sorted in memory whose reads push out of the cache what it found cached', async () => {
    const store = await openEmbeddedReadStore(newFile(), { cacheBytes: 2000 });
    const c = store.collection('c');
    for (let i = 0; i < 100; i++) await c.put({ _id: `d${String(i).padStart(3, '0')}`, n: i, text: 'x'.repeat(100) });
    await c.find({ n: { $gte: 90 } }); // the last ten are cached now
    // Sorted by SQLite in memory: should it check the cache for every row before the first comes back, reading the
    // first ones into the cache would push out the ten it found cached (the store reads those again).
    const sorted = await c.find({}, { sort: [['text', 1], ['n', -1]] });
    expect(sorted.map((d) => d.n)).toEqual(Array.from({ length: 100 }, (_, i) => 99 - i));
    expect(sorted.every((d) => d.text === 'x'.repeat(100))).toBe(true);
    await store.close();
  });

  it('sees what another connection to the file committed', async () => {
    const file = newFile();
    const mine = await openEmbeddedReadStore(file);
    const other = await openEmbeddedReadStore(file);
    await mine.collection('c').put({ _id: 'a', v: 1 });
    expect((await mine.collection('c').get('a'))?.v).toBe(1);
    await other.collection('c').put({ _id: 'a', v: 2 });
    await other.collection('d').put({ _id: 'b' });
    for (let i = 0; (await mine.collection('c').get('a'))?.v !== 2; i++) {
      if (i > 100) throw new Error('the other connection\'s write never showed');
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(await mine.listCollections()).toContain('d');
    await other.close();
    await mine.close();
  });

  it('gives a dropped collection\'s space back to the file system', async () => {
    const file = newFile();
    const first = await openEmbeddedReadStore(file);
    const big = first.collection('big');
    await big.ensureIndex(['n']);
    for (let i = 0; i < 3000; i++) await big.put({ _id: `d${i}`, n: i, text: 'x'.repeat(1000) });
    await first.collection('small').put({ _id: 'kept', n: 1 });
    await first.close();
    const full = statSync(file).size;

    const second = await openEmbeddedReadStore(file);
    await second.collection('big').drop();
    await second.reclaimSpace();
    await second.close();
    expect(full).toBeGreaterThan(3_000_000);
    expect(statSync(file).size).toBeLessThan(full / 10);
    const third = await openEmbeddedReadStore(file);
    expect(await third.collection('small').get('kept')).toEqual({ _id: 'kept', n: 1 });
    expect(await third.collection('big').find({ n: 1 })).toEqual([]);
    await third.close();
  });

  it('migrates a file of the earlier layout (one table of documents), indexes included', async () => {
    const file = newFile();
    const old = new Database(file);
    old.exec(`
      CREATE TABLE collections (name TEXT PRIMARY KEY, indexes TEXT NOT NULL DEFAULT '[]');
      CREATE TABLE docs (collection TEXT NOT NULL, id TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (collection, id)) WITHOUT ROWID;
    `);
    old.prepare('INSERT INTO collections VALUES (?, ?)').run('users', JSON.stringify([{ fields: ['email'], unique: true }]));
    old.prepare('INSERT INTO collections VALUES (?, ?)').run('empty', '[]');
    const insert = old.prepare('INSERT INTO docs VALUES (?, ?, ?)');
    insert.run('users', 'u1', JSON.stringify({ _id: 'u1', email: 'a@example.com', _pos: 3 }));
    insert.run('users', 'u2', JSON.stringify({ _id: 'u2', email: 'b@example.com' }));
    insert.run('_settings', 'server-secret', JSON.stringify({ _id: 'server-secret', value: 'kept' }));
    old.close();

    const store = await openEmbeddedReadStore(file, { requireIndexes: true });
    expect((await store.listCollections()).sort()).toEqual(['_settings', 'empty', 'users']);
    expect(await store.collection('_settings').get('server-secret')).toEqual({ _id: 'server-secret', value: 'kept' });
    expect(ids(await store.collection('users').find({ email: 'b@example.com' }))).toEqual(['u2']);
    await expect(store.collection('users').put({ _id: 'u3', email: 'a@example.com' })).rejects.toThrow(/duplicate key/);
    expect(await store.collection('users').putIfNewer({ _id: 'u1', _pos: 3, email: 'x' })).toBe(false);
    await store.close();
  });
});
