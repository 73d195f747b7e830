import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { CHECKPOINTS, loadCheckpoint, saveCheckpoint } from '../../services/readstore/checkpoints';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';

let store: ReadStore;
beforeEach(async () => {
  store = await openEmbeddedReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'checkpoints-')), 'read.sqlite'));
});
afterEach(() => store.close());

const stored = async (id: string) => (await store.collection(CHECKPOINTS).get(id))?.position;

describe('checkpoints', () => {
  it('only move forward', async () => {
    expect(await loadCheckpoint(store, 'p')).toBe(0);
    await saveCheckpoint(store, 'p', 7);
    await saveCheckpoint(store, 'p', 5);
    expect(await stored('p')).toBe(7);
    await saveCheckpoint(store, 'p', 9);
    expect(await loadCheckpoint(store, 'p')).toBe(9);
  });

  it('take one saved before they carried a position guard, and move it forward from there', async () => {
    await store.collection(CHECKPOINTS).put({ _id: 'old', position: 40, at: '2026-01-01T00:00:00.000Z' });
    await saveCheckpoint(store, 'old', 41);
    expect(await stored('old')).toBe(40); // a conditional save never replaces a document without _pos
    expect(await loadCheckpoint(store, 'old')).toBe(40);
    await saveCheckpoint(store, 'old', 41);
    expect(await stored('old')).toBe(41);
    await saveCheckpoint(store, 'old', 39);
    expect(await stored('old')).toBe(41);
  });
});
