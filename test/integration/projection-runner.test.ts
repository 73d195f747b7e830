import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { projection, type Projection } from '../../projections/projection';
import { ProjectionRunner } from '../../projections/runner';
import { CHECKPOINTS, REGISTRY, Watermarks, physical } from '../../projections/watermarks';
import { ReadModels } from '../../projections/read-models';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import type { EventStore } from '../../services/eventstore/event-store.port';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';
import { newId } from '../../services/ids';

const log = pino({ level: 'silent' });
const meta = { userId: null, correlationId: 'c', causationId: 'c', occurredAt: '2026-11-22T00:00:00Z', schemaVersion: 1 };

/** Counts `thing.happened` per stream; version 2 also records the last title (a changed read model). */
const counter = (version: number): Projection =>
  projection({
    name: 'counter',
    version,
    collections: { counts: { indexes: [['stream']] } },
    handles: ['thing.happened'],
    async apply(e, docs) {
      const prev = await docs('counts').get(e.streamId);
      await docs('counts').putIfNewer({
        _id: e.streamId, _pos: e.position, stream: e.streamId, n: ((prev?.n as number) ?? 0) + 1,
        ...(version >= 2 ? { last: (e.data as { title: string }).title } : {}),
      });
    },
  });

async function until(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

describe('projection runner', () => {
  let events: EventStore;
  let store: ReadStore;
  const dir = mkdtempSync(path.join(tmpdir(), 'runner-'));

  beforeEach(async () => {
    const sub = mkdtempSync(path.join(dir, 'r-'));
    events = await openSqliteEventStore(path.join(sub, 'events.sqlite'));
    store = await openEmbeddedReadStore(path.join(sub, 'read.sqlite'));
  });
  afterEach(async () => {
    await events.close();
    await store.close();
  });

  const append = (stream: string, title: string) =>
    events.append(stream, [{ id: newId(), type: 'thing.happened', data: { title }, metadata: meta }], 'any');

  it('applies in order, checkpoints after the documents, and resumes without double counting', async () => {
    const watermarks = new Watermarks(store, true);
    let runner = new ProjectionRunner(events, store, [counter(1)], watermarks, log);
    await runner.start();
    for (let i = 0; i < 5; i++) await append('s-1', `t${i}`);
    const { position } = await append('s-2', 'x');
    expect(await watermarks.waitFor(['counter'], position, 5000)).toBe(true);
    await runner.stop();

    const docs = await new ReadModels(store, watermarks).docs('counter');
    expect((await docs('counts').get('s-1'))?.n).toBe(5);
    const key = (await store.collection(REGISTRY).get('counter'))!.active as string;
    expect((await store.collection(CHECKPOINTS).get(key))?.position).toBe(position);

    // Rewind the checkpoint as if the process died after the documents but before the checkpoint.
    await store.collection(CHECKPOINTS).put({ _id: key, position: 2 });
    const w2 = new Watermarks(store, true);
    runner = new ProjectionRunner(events, store, [counter(1)], w2, log);
    await runner.start();
    const last = await append('s-1', 'after restart');
    expect(await w2.waitFor(['counter'], last.position, 5000)).toBe(true);
    await runner.stop();
    expect((await docs('counts').get('s-1'))?.n).toBe(6);
  });

  it('builds a new version beside the old one, switches when caught up, and drops the old storage', async () => {
    const w1 = new Watermarks(store, true);
    const v1 = new ProjectionRunner(events, store, [counter(1)], w1, log);
    await v1.start();
    let last = await append('s-1', 'one');
    await w1.waitFor(['counter'], last.position, 5000);
    await v1.stop();
    const oldKey = (await store.collection(REGISTRY).get('counter'))!.active as string;

    last = await append('s-1', 'two');
    const w2 = new Watermarks(store, true);
    const v2 = new ProjectionRunner(events, store, [counter(2)], w2, log);
    await v2.start();
    await until(async () => (await store.collection(REGISTRY).get('counter'))?.active !== oldKey);
    await w2.waitFor(['counter'], last.position, 5000);
    const docs = await new ReadModels(store, w2).docs('counter');
    expect(await docs('counts').get('s-1')).toMatchObject({ n: 2, last: 'two' });
    expect(await store.collection(physical(oldKey, 'counts')).count({})).toBe(0);
    await v2.stop();
  });

  it('rebuilds the same version on request into a new generation while the old one serves', async () => {
    const watermarks = new Watermarks(store, true);
    const runner = new ProjectionRunner(events, store, [counter(1)], watermarks, log);
    await runner.start();
    for (let i = 0; i < 50; i++) await append(`s-${i % 3}`, `t${i}`);
    const before = (await store.collection(REGISTRY).get('counter'))!;
    const readers = new ReadModels(store, watermarks);
    await runner.rebuild('counter');
    await until(async () => (await store.collection(REGISTRY).get('counter'))?.active !== before.active);
    const after = (await store.collection(REGISTRY).get('counter'))!;
    expect(after.generation).toBe((before.generation as number) + 1);
    const docs = await readers.docs('counter');
    expect((await docs('counts').get('s-0'))?.n).toBe(17);
    const status = await runner.status();
    expect(status[0]).toMatchObject({ name: 'counter', active: after.active, building: null });
    await runner.stop();
  });
});
