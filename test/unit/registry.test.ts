import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { changeRegistry, REGISTRY, type RegistryDoc } from '../../projections/registry';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';
import { withWriterBetweenReadAndWrite } from '../support/meddling-store';

let store: ReadStore;
beforeEach(async () => {
  store = await openEmbeddedReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'registry-')), 'read.sqlite'));
});
afterEach(() => store.close());

const stored = () => store.collection<RegistryDoc>(REGISTRY).get('schedule');
const entry: RegistryDoc = { _id: 'schedule', active: 'schedule_v3_g1', building: 'schedule_v3_g2', generation: 2 };

describe('projection registry', () => {
  it('creates an entry and counts its revisions', async () => {
    const first = await changeRegistry(store, 'schedule', (cur) => cur ?? entry);
    expect(first.before).toBeNull();
    expect(await stored()).toEqual({ ...entry, _pos: 1 });
    await changeRegistry(store, 'schedule', (cur) => ({ ...cur!, rebuildRequested: true }));
    expect(await stored()).toEqual({ ...entry, rebuildRequested: true, _pos: 2 });
  });

  it('leaves the entry alone when the change is null', async () => {
    await changeRegistry(store, 'schedule', () => entry);
    const { after } = await changeRegistry(store, 'schedule', () => null);
    expect(after).toEqual({ ...entry, _pos: 1 });
    expect(await stored()).toEqual({ ...entry, _pos: 1 });
  });

  it('makes a change again on the newer entry when another writer came between its read and its write', async () => {
    await changeRegistry(store, 'schedule', () => entry);
    // A projector switches to the new storage while the admin API is requesting a rebuild from what it read before.
    const projector = () => changeRegistry(store, 'schedule', (cur) => ({ ...cur!, active: 'schedule_v3_g2', building: null }));
    const admin = withWriterBetweenReadAndWrite(store, projector);
    const { before, after } = await changeRegistry(admin, 'schedule', (cur) => cur && { ...cur, rebuildRequested: true });
    expect(before).toMatchObject({ active: 'schedule_v3_g2', building: null, _pos: 2 });
    expect(after).toEqual({ ...entry, active: 'schedule_v3_g2', building: null, rebuildRequested: true, _pos: 3 });
    expect(await stored()).toEqual(after); // with a plain replace, the old storage would be active again
  });

  it('refuses a write that lands after a later revision', async () => {
    await changeRegistry(store, 'schedule', () => entry);
    await changeRegistry(store, 'schedule', (cur) => ({ ...cur!, active: 'schedule_v3_g2', building: null }));
    // The first revision's write, timed out for its caller and delivered late by the store.
    expect(await store.collection(REGISTRY).putIfNewer({ ...entry, _pos: 1 })).toBe(false);
    expect(await stored()).toMatchObject({ active: 'schedule_v3_g2', _pos: 2 });
  });

  it('takes over an entry written before revisions were kept', async () => {
    await store.collection(REGISTRY).put(entry);
    await changeRegistry(store, 'schedule', (cur) => ({ ...cur!, rebuildRequested: true }));
    expect(await stored()).toEqual({ ...entry, rebuildRequested: true, _pos: 1 });
    await changeRegistry(store, 'schedule', (cur) => ({ ...cur!, rebuildRequested: false }));
    expect(await stored()).toEqual({ ...entry, rebuildRequested: false, _pos: 2 });
  });
});
