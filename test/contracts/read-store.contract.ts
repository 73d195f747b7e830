/**
 * What every read store adapter must do alike. Collections get a random suffix and are dropped afterwards, so the
 * suite can run against a shared server.
 */
import { randomUUID } from 'node:crypto';
import type { Collection, Doc, Filter, ReadStore } from '../../services/readstore/read-store.port';

export function readStoreContract(name: string, open: () => Promise<ReadStore>): void {
  describe(`read store contract: ${name}`, () => {
    let store: ReadStore;
    let used: string[] = [];

    const fresh = <T extends Doc = Doc>(label = 'c'): Collection<T> => {
      const collectionName = `contract_${label}_${randomUUID().slice(0, 8)}`;
      used.push(collectionName);
      return store.collection<T>(collectionName);
    };
    const ids = (docs: Doc[]) => docs.map((d) => d._id);
    const sortedIds = (docs: Doc[]) => ids(docs).sort();

    beforeAll(async () => {
      store = await open();
    });
    afterEach(async () => {
      for (const n of used) await store.collection(n).drop();
      used = [];
    });
    afterAll(async () => {
      await store?.close();
    });

    it('puts, gets, replaces and deletes by id', async () => {
      const c = fresh();
      expect(await c.get('a')).toBeNull();
      await c.put({ _id: 'a', title: 'one', n: 1 });
      expect(await c.get('a')).toEqual({ _id: 'a', title: 'one', n: 1 });
      await c.put({ _id: 'a', title: 'two' });
      expect(await c.get('a')).toEqual({ _id: 'a', title: 'two' });
      await c.delete('a');
      await c.delete('never-there');
      expect(await c.get('a')).toBeNull();
    });

    it('round-trips values: nested objects, arrays, unicode, booleans, null, numbers', async () => {
      const c = fresh();
      const doc = {
        _id: 'ü-🗓-日本',
        nested: { a: { b: [1, 'two', { three: 3 }] }, empty: {} },
        list: [],
        text: 'Grüße, 日本語, emoji 🎉, quotes "\' and \\ backslash\nnewline',
        empty: '',
        yes: true,
        no: false,
        nothing: null,
        int: 42,
        negative: -7,
        float: 3.25,
        big: 2 ** 40,
        _pos: 17,
      };
      await c.put(doc);
      expect(await c.get(doc._id)).toEqual(doc);
      expect(await c.find({ _id: doc._id })).toEqual([doc]);
    });

    it('returns read-only snapshots: mutating a result (refused or not) or the written document changes nothing stored', async () => {
      const c = fresh();
      const written = { _id: 'a', tags: ['x'], inner: { v: 1 } };
      await c.put(written);
      written.tags.push('mutated');
      written.inner.v = 99;
      const tryTo = (mutate: () => void) => {
        try {
          mutate();
        } catch (err) {
          expect(err).toBeInstanceOf(TypeError); // a frozen snapshot refuses the change
        }
      };
      const got = (await c.get('a'))!;
      tryTo(() => (got.tags as string[]).push('y'));
      tryTo(() => ((got.inner as { v: number }).v = 2));
      const [found] = await c.find({});
      tryTo(() => (found.extra = true));
      expect(await c.get('a')).toEqual({ _id: 'a', tags: ['x'], inner: { v: 1 } });
    });

    describe('find', () => {
      let c: Collection;
      beforeEach(async () => {
        c = fresh();
        const docs: Doc[] = [
          { _id: 'a', n: 1, s: '2026-01-05T09:00:00.000Z', cal: 'work', tag: 'x', tags: ['x', 'y'] },
          { _id: 'b', n: 5, s: '2026-01-20T09:00:00.000Z', cal: 'work', tag: null, tags: [] },
          { _id: 'c', n: 10, s: '2026-02-01T00:00:00.000Z', cal: 'home', tags: ['z'] },
          { _id: 'd', n: -3, s: '2025-12-31T23:59:59.999Z', cal: 'home', tag: 'y' },
          { _id: 'e', n: '7', s: 20260110, cal: 'work', tag: true },
        ];
        for (const d of docs) await c.put(d);
      });
      const expectIds = async (filter: Filter, expected: string[]) => {
        expect(sortedIds(await c.find(filter))).toEqual(expected);
        expect(await c.count(filter)).toBe(expected.length);
      };

      it('matches everything with an empty filter', () => expectIds({}, ['a', 'b', 'c', 'd', 'e']));
      it('ANDs bare-value equality on several fields', () => expectIds({ cal: 'work', n: 5 }, ['b']));
      it('treats null as "missing or null"', () => expectIds({ tag: null }, ['b', 'c']));
      it('$ne matches missing and null fields', () => expectIds({ tag: { $ne: 'x' } }, ['b', 'c', 'd', 'e']));
      it('$ne: null means present and not null', () => expectIds({ tag: { $ne: null } }, ['a', 'd', 'e']));
      it('$in matches any listed value, of any type', () => expectIds({ tag: { $in: ['y', true] } }, ['d', 'e']));
      it('$in with an empty list matches nothing', () => expectIds({ tag: { $in: [] } }, []));
      it('$in does not match a missing field', () => expectIds({ tag: { $in: ['x', 'y'] } }, ['a', 'd']));
      it('compares numbers numerically, never with strings', async () => {
        await expectIds({ n: { $gt: 1 } }, ['b', 'c']);
        await expectIds({ n: { $gte: 1, $lte: 5 } }, ['a', 'b']);
        await expectIds({ n: { $lt: 2 } }, ['a', 'd']);
        await expectIds({ n: { $gt: '1' } }, ['e']);
      });
      it('ranges over ISO date strings, ignoring values of other types', async () => {
        await expectIds({ s: { $gte: '2026-01-01T00:00:00.000Z', $lt: '2026-02-01T00:00:00.000Z' } }, ['a', 'b']);
        await expectIds({ s: { $lte: '2026-02-01T00:00:00.000Z' } }, ['a', 'b', 'c', 'd']);
      });
      it('a comparison against a missing field does not match', () => expectIds({ tag: { $gt: 'a' } }, ['a', 'd']));
      it('combines operators with equality', () => expectIds({ cal: 'home', n: { $gt: 0 } }, ['c']));
      it('an array field matches when one element does, as in MongoDB', async () => {
        await expectIds({ tags: 'y' }, ['a']);
        await expectIds({ tags: { $in: ['z', 'q'] } }, ['c']);
        await expectIds({ tags: { $ne: 'x' } }, ['b', 'c', 'd', 'e']);
      });
      it('rejects operators outside the port', async () => {
        await expect(c.find({ n: { $regex: 'x' } } as unknown as Filter)).rejects.toThrow();
        await expect(c.find({ 'a.b': 1 })).rejects.toThrow();
      });

      it('sorts on two keys, ascending and descending', async () => {
        expect(ids(await c.find({}, { sort: [['cal', 1], ['_id', -1]] }))).toEqual(['d', 'c', 'e', 'b', 'a']);
        expect(ids(await c.find({ cal: 'work' }, { sort: [['s', -1]] }))).toEqual(['b', 'a', 'e']);
      });
      it('sorts across types like MongoDB: missing and null first, then numbers, strings, booleans', async () => {
        const m = fresh();
        const values: Array<[string, unknown]> = [['s2', 'b'], ['t', true], ['n2', 3], ['missing', undefined], ['s1', 'a'], ['f', false], ['nul', null], ['n1', -1]];
        for (const [id, v] of values) await m.put(v === undefined ? { _id: id } : { _id: id, v });
        expect(ids(await m.find({}, { sort: [['v', 1], ['_id', 1]] }))).toEqual(['missing', 'nul', 'n1', 'n2', 's1', 's2', 'f', 't']);
        expect(ids(await m.find({}, { sort: [['v', -1], ['_id', 1]] }))).toEqual(['t', 'f', 's2', 's1', 'n2', 'n1', 'missing', 'nul']);
      });
      it('limits after sorting', async () => {
        expect(ids(await c.find({ n: { $gt: -100 } }, { sort: [['n', -1]], limit: 2 }))).toEqual(['c', 'b']);
        expect(await c.find({}, { limit: 3 })).toHaveLength(3);
      });
      it('gives the same answers with indexes declared', async () => {
        await c.ensureIndex(['cal', 's']);
        await c.ensureIndex(['tag']);
        await c.ensureIndex(['tags']);
        await c.ensureIndex(['cal', 's']); // idempotent
        await expectIds({ cal: 'work', s: { $gte: '2026-01-10T00:00:00.000Z' } }, ['b']);
        await expectIds({ cal: { $in: ['home', 'nowhere'] } }, ['c', 'd']);
        await expectIds({ tag: null }, ['b', 'c']);
        await expectIds({ tag: { $in: ['y', true] } }, ['d', 'e']);
        await expectIds({ tags: 'y' }, ['a']);
        await c.put({ _id: 'b', cal: 'home', tag: 'x' });
        await c.delete('c');
        await expectIds({ cal: 'home' }, ['b', 'd']);
        await expectIds({ tag: null }, []);
        await expectIds({ tag: 'x' }, ['a', 'b']);
      });
    });

    describe('with indexes', () => {
      it('sorts and ranges across types as without them', async () => {
        const m = fresh();
        await m.ensureIndex(['v']);
        await m.ensureIndex(['g', 'v']);
        const values: Array<[string, unknown]> = [['s2', 'b'], ['t', true], ['n2', 3], ['missing', undefined], ['s1', 'a'], ['f', false], ['nul', null], ['n1', -1], ['r', 2.5]];
        for (const [id, v] of values) await m.put(v === undefined ? { _id: id, g: 1 } : { _id: id, g: 1, v });
        expect(ids(await m.find({}, { sort: [['v', 1], ['_id', 1]] }))).toEqual(['missing', 'nul', 'n1', 'r', 'n2', 's1', 's2', 'f', 't']);
        expect(ids(await m.find({ g: 1 }, { sort: [['v', -1], ['_id', 1]], limit: 4 }))).toEqual(['t', 'f', 's2', 's1']);
        expect(sortedIds(await m.find({ v: { $gt: -1 } }))).toEqual(['n2', 'r']);
        expect(sortedIds(await m.find({ v: { $lte: 'a' } }))).toEqual(['s1']);
        expect(sortedIds(await m.find({ v: { $gte: false } }))).toEqual(['f', 't']);
        expect(sortedIds(await m.find({ v: { $gt: 0, $lt: 'z' } }))).toEqual([]);
        expect(sortedIds(await m.find({ g: 1, v: { $gte: -1, $lt: 3 } }))).toEqual(['n1', 'r']);
        expect(sortedIds(await m.find({ v: { $in: ['a', 3] } }))).toEqual(['n2', 's1']);
        expect(sortedIds(await m.find({ v: { $ne: null }, g: 1 }))).toEqual(['f', 'n1', 'n2', 'r', 's1', 's2', 't']);
        expect(await m.count({ v: { $ne: 3 } })).toBe(8);
      });

      it('answers the same with an index declared deferred, before and after it is built', async () => {
        const m = fresh();
        await m.ensureIndex(['grp', 'n'], { deferred: true });
        for (let i = 0; i < 20; i++) await m.put({ _id: `d${String(i).padStart(2, '0')}`, grp: `g${i % 3}`, n: i });
        const query = () => m.find({ grp: 'g1', n: { $gte: 5 } }, { sort: [['n', -1]], limit: 3 });
        expect(ids(await query())).toEqual(['d19', 'd16', 'd13']);
        await m.put({ _id: 'd99', grp: 'g1', n: 99 });
        await m.ensureIndex(['grp', 'n']); // built now, where the store deferred it
        expect(ids(await query())).toEqual(['d99', 'd19', 'd16']);
        expect(await m.count({ grp: 'g0' })).toBe(7);
      });

      it('answers the same with the id key deferred: the newest write of each id, of equal positions the first', async () => {
        const m = fresh();
        await m.ensureIndex(['_id'], { deferred: true });
        await m.ensureIndex(['grp'], { deferred: true });
        const writes: Array<[string, number, string]> = [['a', 1, 'g1'], ['b', 2, 'g1'], ['a', 5, 'g2'], ['a', 3, 'g1'], ['b', 2, 'g2'], ['c', 4, 'g2']];
        for (const [id, pos, grp] of writes) await m.putIfNewer({ _id: id, _pos: pos, grp });
        expect(await m.get('a')).toEqual({ _id: 'a', _pos: 5, grp: 'g2' });
        expect(sortedIds(await m.find({ grp: 'g1' }))).toEqual(['b']);
        expect(sortedIds(await m.find({ grp: 'g2' }))).toEqual(['a', 'c']);
        expect(await m.count({})).toBe(3);
        expect(await m.putIfNewer({ _id: 'a', _pos: 4, grp: 'g3' })).toBe(false);
        expect(await m.putIfNewer({ _id: 'a', _pos: 6, grp: 'g3' })).toBe(true);
        expect(await m.insertNew({ _id: 'c', grp: 'g9' })).toBe(false);
        await m.ensureIndex(['_id']); // a no-op once keyed
        expect(await m.get('a')).toEqual({ _id: 'a', _pos: 6, grp: 'g3' });
      });

      it('keys a collection with its id deferred before any other kind of write', async () => {
        const late = { _id: 'a', _pos: 3, v: 'late' };
        const cases: Array<[(m: Collection) => Promise<unknown>, Doc[]]> = [
          [(m) => m.put({ _id: 'a', _pos: 1, v: 'put' }), [{ _id: 'a', _pos: 1, v: 'put' }]],
          [(m) => m.delete('a'), []],
          [(m) => m.deleteMany({ v: 'late' }), []],
          [(m) => m.insertNew({ _id: 'a', v: 'new' }), [late]],
        ];
        for (const [write, after] of cases) {
          const m = fresh();
          await m.ensureIndex(['_id'], { deferred: true });
          await m.putIfNewer({ _id: 'a', _pos: 2, v: 'early' });
          await m.putIfNewer(late);
          await write(m);
          expect(await m.find({})).toEqual(after);
          expect(await m.count({})).toBe(after.length);
        }
      });

      it('never defers a unique index: a duplicate is refused at once', async () => {
        const m = fresh();
        await m.ensureIndex(['email'], { unique: true, deferred: true });
        await m.put({ _id: 'u1', email: 'a@example.com' });
        await expect(m.put({ _id: 'u2', email: 'a@example.com' })).rejects.toThrow();
        expect(await m.get('u2')).toBeNull();
      });

      it('pages a sorted find over several values of an indexed field in one order', async () => {
        const m = fresh();
        await m.ensureIndex(['grp', 'n']);
        for (let i = 0; i < 30; i++) await m.put({ _id: `d${String(i).padStart(2, '0')}`, grp: `g${i % 4}`, n: (i * 7) % 30 });
        const page = await m.find({ grp: { $in: ['g0', 'g2', 'g3'] }, n: { $gte: 5 } }, { sort: [['n', -1]], limit: 6 });
        const expected = (await m.find({ n: { $gte: 5 } }, { sort: [['n', -1]] })).filter((d) => d.grp !== 'g1').slice(0, 6);
        expect(ids(page)).toEqual(ids(expected));
        expect(page.map((d) => d.n)).toEqual([28, 26, 24, 22, 21, 20]);
      });

      it('matches element by element once an indexed field holds arrays, and sorts them as MongoDB does', async () => {
        const m = fresh();
        await m.ensureIndex(['tags']);
        await m.put({ _id: 'a', tags: 'x' });
        await m.put({ _id: 'b', tags: ['x', 'z'] });
        await m.put({ _id: 'c', tags: ['y'] });
        await m.put({ _id: 'd' });
        expect(sortedIds(await m.find({ tags: 'x' }))).toEqual(['a', 'b']);
        expect(sortedIds(await m.find({ tags: { $in: ['z', 'y'] } }))).toEqual(['b', 'c']);
        expect(sortedIds(await m.find({ tags: { $gt: 'x' } }))).toEqual(['b', 'c']);
        expect(ids(await m.find({}, { sort: [['tags', 1], ['_id', 1]] }))).toEqual(['d', 'a', 'b', 'c']);
        expect(ids(await m.find({}, { sort: [['tags', -1], ['_id', 1]] }))).toEqual(['b', 'c', 'a', 'd']);
      });
    });

    it('counts and deletes by filter, returning how many went', async () => {
      const c = fresh();
      for (let i = 0; i < 6; i++) await c.put({ _id: `d${i}`, even: i % 2 === 0, i });
      expect(await c.count({ even: true })).toBe(3);
      expect(await c.deleteMany({ even: true, i: { $gt: 0 } })).toBe(2);
      expect(await c.deleteMany({ i: 99 })).toBe(0);
      expect(sortedIds(await c.find({}))).toEqual(['d0', 'd1', 'd3', 'd5']);
    });

    it('putIfNewer applies newer positions and skips stale or equal ones', async () => {
      const c = fresh();
      expect(await c.putIfNewer({ _id: 'a', _pos: 10, v: 'first' })).toBe(true);
      expect(await c.putIfNewer({ _id: 'a', _pos: 5, v: 'stale' })).toBe(false);
      expect(await c.putIfNewer({ _id: 'a', _pos: 10, v: 'equal' })).toBe(false);
      expect(await c.get('a')).toEqual({ _id: 'a', _pos: 10, v: 'first' });
      expect(await c.putIfNewer({ _id: 'a', _pos: 11, v: 'newer' })).toBe(true);
      expect(await c.get('a')).toEqual({ _id: 'a', _pos: 11, v: 'newer' });
    });

    it('putIfNewer racing on one new id keeps the newest position', async () => {
      const c = fresh();
      const positions = [3, 1, 5, 2, 4];
      await Promise.all(positions.map((p) => c.putIfNewer({ _id: 'raced', _pos: p, v: `at ${p}` })));
      expect(await c.get('raced')).toEqual({ _id: 'raced', _pos: 5, v: 'at 5' });
    });

    it('putIfNewer is a compare-and-set: of concurrent writes of the same next position, exactly one wins', async () => {
      const c = fresh();
      for (let round = 0; round < 20; round++) {
        const id = `claimed-${round}`;
        await c.putIfNewer({ _id: id, _pos: 1, by: null });
        const won = await Promise.all(['a', 'b', 'c'].map((by) => c.putIfNewer({ _id: id, _pos: 2, by })));
        expect(won.filter(Boolean)).toHaveLength(1);
        expect((await c.get(id))?.by).toBe(['a', 'b', 'c'][won.indexOf(true)]);
      }
    });

    it('putIfNewer never replaces a stored document that has no position', async () => {
      const c = fresh();
      await c.put({ _id: 'state', v: 1 });
      expect(await c.putIfNewer({ _id: 'state', _pos: 1, v: 2 })).toBe(false);
      expect(await c.get('state')).toEqual({ _id: 'state', v: 1 });
    });

    it('insertNew inserts only when the id is free', async () => {
      const c = fresh();
      expect(await c.insertNew({ _id: 'a', v: 1 })).toBe(true);
      expect(await c.insertNew({ _id: 'a', v: 2 })).toBe(false);
      expect(await c.get('a')).toEqual({ _id: 'a', v: 1 });
    });

    it('a unique index rejects a duplicating write and leaves everything as it was', async () => {
      const c = fresh();
      await c.ensureIndex(['email'], { unique: true });
      await c.put({ _id: 'u1', email: 'a@example.com' });
      await expect(c.put({ _id: 'u2', email: 'a@example.com' })).rejects.toThrow();
      await expect(c.insertNew({ _id: 'u2', email: 'a@example.com' })).rejects.toThrow();
      await expect(c.putIfNewer({ _id: 'u2', _pos: 1, email: 'a@example.com' })).rejects.toThrow();
      expect(await c.get('u2')).toBeNull();
      expect(await c.count({ email: 'a@example.com' })).toBe(1);
      await c.put({ _id: 'u1', email: 'a@example.com', name: 'same doc again' });
      await c.put({ _id: 'u1', email: 'b@example.com' });
      await c.put({ _id: 'u2', email: 'a@example.com' });
      expect(sortedIds(await c.find({ email: { $in: ['a@example.com', 'b@example.com'] } }))).toEqual(['u1', 'u2']);
    });

    it('a compound unique index rejects only the same combination', async () => {
      const c = fresh();
      await c.ensureIndex(['space', 'slug'], { unique: true });
      await c.put({ _id: '1', space: 's1', slug: 'x' });
      await c.put({ _id: '2', space: 's2', slug: 'x' });
      await expect(c.put({ _id: '3', space: 's1', slug: 'x' })).rejects.toThrow();
      expect(await c.count({})).toBe(2);
    });

    it('refuses to create a unique index over existing duplicates', async () => {
      const c = fresh();
      await c.put({ _id: '1', k: 'dup' });
      await c.put({ _id: '2', k: 'dup' });
      await expect(c.ensureIndex(['k'], { unique: true })).rejects.toThrow();
      await c.put({ _id: '3', k: 'dup' });
      expect(await c.count({ k: 'dup' })).toBe(3);
    });

    it('lists collections and drops one with its documents', async () => {
      const c1 = fresh('keep');
      const c2 = fresh('drop');
      await c1.put({ _id: 'a' });
      await c2.put({ _id: 'b' });
      const [n1, n2] = used;
      expect(await store.listCollections()).toEqual(expect.arrayContaining([n1, n2]));
      await c2.drop();
      expect(await store.listCollections()).not.toContain(n2);
      expect(await store.listCollections()).toContain(n1);
      expect(await c2.find({})).toEqual([]);
      expect(await c2.get('b')).toBeNull();
      await c2.drop(); // dropping a missing collection is fine
      await c2.put({ _id: 'again' });
      expect(ids(await c2.find({}))).toEqual(['again']);
    });
  });
}
