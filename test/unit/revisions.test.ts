import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { Collection, Doc, ReadStore } from '../../services/readstore/read-store.port';
import { changeByRevision } from '../../services/readstore/revisions';

let store: ReadStore;
beforeEach(async () => {
  store = await openEmbeddedReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'revisions-')), 'read.sqlite'));
});
afterEach(() => store.close());

describe('changeByRevision', () => {
  it('gives up after 20 fresh reads when another writer changes the document after every one, and loses none of its writes', async () => {
    const docs = store.collection('things');
    await docs.put({ _id: 't', _pos: 1, n: 0 });
    let reads = 0;
    // Another writer bumps the document right after each read: no compare-and-set made from that read can succeed.
    const busy: Collection = {
      ...docs,
      async get(id: string) {
        const doc = await docs.get(id);
        reads++;
        await docs.put({ _id: id, _pos: (doc!._pos as number) + 1, n: (doc!.n as number) + 1 });
        return doc;
      },
    };
    await expect(changeByRevision(busy, 't', (cur) => cur && { ...cur, mine: true })).rejects.toThrow('t kept changing under 20 attempts');
    expect(reads).toBe(20);
    expect(await docs.get('t')).toEqual({ _id: 't', _pos: 21, n: 20 });
  });

  it('creates a document at revision 1, and leaves one alone when the change is null', async () => {
    const docs = store.collection<Doc & { n: number }>('things');
    expect(await changeByRevision(docs, 'a', (cur) => (cur ? null : { _id: 'a', n: 1 }))).toEqual({ before: null, after: { _id: 'a', _pos: 1, n: 1 } });
    const stored = { _id: 'a', _pos: 1, n: 1 };
    expect(await changeByRevision(docs, 'a', (cur) => (cur ? null : { _id: 'a', n: 2 }))).toEqual({ before: stored, after: stored });
    expect(await changeByRevision(docs, 'missing', () => null)).toEqual({ before: null, after: null });
  });
});
