import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { Doc, Filter } from '../../services/readstore/read-store.port';
import { readStoreContract } from './read-store.contract';

const dir = mkdtempSync(join(tmpdir(), 'read-store-'));
let files = 0;
const newFile = () => join(dir, `store-${++files}.db`);
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

  it('keeps indexes right through many random puts, deletes and putIfNewer calls', async () => {
    const store = await openEmbeddedReadStore(newFile());
    const indexed = store.collection('indexed');
    const plain = store.collection('plain');
    await indexed.ensureIndex(['cal', 'at']);
    await indexed.ensureIndex(['tags']);
    await indexed.ensureIndex(['code'], { unique: true });

    let seed = 42;
    const random = (n: number) => ((seed = (seed * 1103515245 + 12345) % 2 ** 31), seed % n);
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
});
