import pino from 'pino';
import { DEAD_LETTERS } from '../../projections/dead-letters';
import { projectionHealth, readinessProblems } from '../../projections/health';
import { projection, type Projection } from '../../projections/projection';
import { ProjectionRunner } from '../../projections/runner';
import { REGISTRY } from '../../projections/registry';
import { CHECKPOINTS, Watermarks, physical } from '../../projections/watermarks';
import { ReadModels } from '../../projections/read-models';
import type { EventStore } from '../../services/eventstore/event-store.port';
import type { Doc, ReadStore } from '../../services/readstore/read-store.port';
import { addProjectionMetrics, Metrics } from '../../services/http/metrics';
import { StoreUnavailable } from '../../services/errors';
import { newId } from '../../services/ids';
import { useEmbeddedStores } from '../support/embedded-stores';

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

/** Every projection of the runner active at `head` (a first build is not announced to waiters). */
const atHead = async (runner: ProjectionRunner, head: number) =>
  (await runner.status()).every((s) => s.building === null && (s.activePosition ?? 0) >= head);

describe('projection runner', () => {
  let events: EventStore;
  let store: ReadStore;
  useEmbeddedStores('runner', (openedEvents, openedStore) => ([events, store] = [openedEvents, openedStore]));

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

  it('defers the indexes of a build, and declares them to be built before its storage serves', async () => {
    const declared: Array<{ collection: string; fields: string[]; deferred: boolean; activeThen: unknown }> = [];
    const recording: ReadStore = {
      ...store,
      collection: <T extends Doc>(name: string) => {
        const c = store.collection<T>(name);
        return {
          ...c,
          ensureIndex: async (fields: string[], options: { deferred?: boolean } = {}) => {
            const activeThen = (await store.collection(REGISTRY).get('counter'))?.active;
            declared.push({ collection: name, fields, deferred: options.deferred === true, activeThen });
            return c.ensureIndex(fields, options);
          },
        };
      },
    };
    const watermarks = new Watermarks(store, true);
    const runner = new ProjectionRunner(events, recording, [counter(1)], watermarks, log);
    await runner.start();
    for (let i = 0; i < 20; i++) await append(`s-${i % 2}`, `t${i}`);
    const before = (await store.collection(REGISTRY).get('counter'))!;
    declared.length = 0;
    await runner.rebuild('counter');
    await until(async () => (await store.collection(REGISTRY).get('counter'))?.active !== before.active);
    const after = (await store.collection(REGISTRY).get('counter'))!;
    const collection = physical(after.active as string, 'counts');
    // The id key first: deferred too, the embedded store appends the build's writes and keys them at the switch.
    expect(declared).toEqual([
      { collection, fields: ['_id'], deferred: true, activeThen: before.active },
      { collection, fields: ['stream'], deferred: true, activeThen: before.active },
      { collection, fields: ['_id'], deferred: false, activeThen: before.active },
      { collection, fields: ['stream'], deferred: false, activeThen: before.active },
    ]);
    expect((await (await new ReadModels(store, watermarks).docs('counter'))('counts').get('s-1'))?.n).toBe(10);
    await runner.stop();
  });

  it('resumes a build stopped before its switch from its own checkpoint, in the same storage, with writes arriving all along', async () => {
    for (let i = 0; i < 1200; i++) await append(`s-${i % 3}`, `t${i}`);
    const head = await events.headPosition();
    let pause: () => void = () => undefined;
    let paused: () => void = () => undefined;
    const reached = new Promise<void>((r) => (paused = r));
    let armed = false;
    const held = new Promise<void>((r) => (pause = r));
    const gated = projection({
      ...counter(1),
      async apply(e, docs) {
        if (armed && e.position === head - 500) (paused(), await held); // inside the rebuild's second page
        await counter(1).apply(e, docs);
      },
    });
    const w1 = new Watermarks(store, true);
    const first = new ProjectionRunner(events, store, [gated], w1, log);
    await first.start();
    await until(() => atHead(first, head));
    const before = (await store.collection(REGISTRY).get('counter'))!;

    let writing = true;
    let written = 0;
    const writer = (async () => {
      while (writing) (await append('s-w', `w${written}`), written++);
    })();
    armed = true;
    await first.rebuild('counter');
    await reached;
    const stopping = first.stop();
    pause();
    await stopping;
    const stopped = (await store.collection(REGISTRY).get('counter'))!;
    expect(stopped).toMatchObject({ active: before.active, building: expect.any(String), generation: (before.generation as number) + 1 });
    const checkpoint = (await store.collection(CHECKPOINTS).get(stopped.building as string))!.position as number;
    expect(checkpoint).toBeGreaterThan(0);
    expect(checkpoint).toBeLessThan(head - 500);

    const rebuilt: number[] = [];
    const watching = projection({ ...counter(1), apply: (e, docs) => (e.position <= head && rebuilt.push(e.position), counter(1).apply(e, docs)) });
    const w2 = new Watermarks(store, true);
    const second = new ProjectionRunner(events, store, [watching], w2, log);
    await second.start();
    await until(async () => (await store.collection(REGISTRY).get('counter'))?.active === stopped.building);
    writing = false;
    await writer;
    expect(await w2.waitFor(['counter'], await events.headPosition(), 10_000)).toBe(true);
    await second.stop();

    expect(Math.min(...rebuilt)).toBeGreaterThan(checkpoint); // carried on, did not start again from 0
    expect((await store.collection(REGISTRY).get('counter'))!.generation).toBe(stopped.generation);
    const docs = await new ReadModels(store, w2).docs('counter');
    expect((await docs('counts').get('s-0'))?.n).toBe(400);
    expect((await docs('counts').get('s-w'))?.n).toBe(written);
    expect(await store.collection(physical(before.active as string, 'counts')).count({})).toBe(0);
  });

  it('catches projections up together: each page of the log read once for all, each at its own checkpoint', async () => {
    for (let i = 0; i < 1200; i++) await append(`s-${i % 4}`, `t${i}`);
    const other = (name: string): Projection => ({ ...counter(1), name });
    // One of them starts ahead, from a checkpoint it already had (a restart): it must not apply those events again.
    const w1 = new Watermarks(store, true);
    const first = new ProjectionRunner(events, store, [other('ahead')], w1, log);
    await first.start();
    const mid = (await events.readAll(0, 700)).at(-1)!.position;
    const head = await events.headPosition();
    await until(() => atHead(first, head));
    await first.stop();
    const aheadKey = (await store.collection(REGISTRY).get('ahead'))!.active as string;
    await store.collection(CHECKPOINTS).put({ _id: aheadKey, position: mid });
    const aheadDocs = (await new ReadModels(store, w1).docs('ahead'))('counts');
    for (const s of ['s-0', 's-1', 's-2', 's-3']) {
      const doc = (await aheadDocs.get(s))!;
      await aheadDocs.put({ ...doc, n: 0, _pos: mid }); // counts what is applied after `mid` from here on
    }

    const pages: number[] = []; // where each read that found events began
    const counted: EventStore = {
      ...events,
      async readAll(after, limit) {
        const read = await events.readAll(after, limit);
        if (read.length > 0) pages.push(after);
        return read;
      },
      readAllOf: undefined,
    };
    const w2 = new Watermarks(store, true);
    const runner = new ProjectionRunner(counted, store, [other('a'), other('b'), other('ahead')], w2, log);
    await runner.start();
    await until(() => atHead(runner, head));
    await runner.stop();

    // 1,200 events in pages of 500, each read once for three projections (reads past the head, such as those asked
    // for ahead, find nothing).
    expect(pages).toHaveLength(3);
    expect(new Set(pages).size).toBe(3);
    const readers = new ReadModels(store, w2);
    for (const name of ['a', 'b']) expect((await (await readers.docs(name))('counts').get('s-0'))?.n).toBe(300);
    const afterMid = (await events.readAll(mid, 2000)).filter((e) => e.streamId === 's-0').length;
    expect((await (await readers.docs('ahead'))('counts').get('s-0'))?.n).toBe(afterMid);
  });

  it('saves a checkpoint it could not save once the store answers again, with no new event (a store without batches)', async () => {
    let down = false;
    // Without `batch`, as on MongoDB: each follower saves its checkpoint on its own.
    const { batch: _batch, ...unbatched } = store as ReadStore & { batch?: unknown };
    const flaky: ReadStore = {
      ...unbatched,
      collection: <T extends Doc = Doc>(name: string) => {
        const c = store.collection<T>(name);
        return name !== CHECKPOINTS ? c : { ...c, putIfNewer: (doc: T) => (down ? Promise.reject(new Error('store down')) : c.putIfNewer(doc)) };
      },
    };
    const watermarks = new Watermarks(flaky, true);
    const runner = new ProjectionRunner(events, flaky, [counter(1)], watermarks, log);
    await runner.start();
    try {
      const first = await append('s-1', 'one');
      expect(await watermarks.waitFor(['counter'], first.position, 10_000)).toBe(true);
      const key = (await store.collection(REGISTRY).get('counter'))!.active as string;
      const saved = async () => ((await store.collection(CHECKPOINTS).get(key))?.position as number | undefined) ?? 0;
      await until(async () => (await saved()) === first.position);
      down = true;
      const last = await append('s-1', 'two');
      const docs = await new ReadModels(store, watermarks).docs('counter');
      await until(async () => (await docs('counts').get('s-1'))?.n === 2); // applied, its checkpoint refused
      await new Promise((r) => setTimeout(r, 200));
      expect(await saved()).toBe(first.position);
      down = false;
      await until(async () => (await saved()) === last.position);
    } finally {
      down = false;
      await runner.stop();
    }
  });

  describe('a projection that cannot apply an event', () => {
    /** Counts `thing.happened`, and throws on the one titled "poison" (as a projection bug would). */
    const fragile = projection({
      ...counter(1),
      async apply(e, docs) {
        if ((e.data as { title: string }).title === 'poison') throw new Error('cannot apply poison');
        await counter(1).apply(e, docs);
      },
    });
    const appendAt = (stream: string, title: string, occurredAt: string) =>
      events.append(stream, [{ id: newId(), type: 'thing.happened', data: { title }, metadata: { ...meta, occurredAt } }], 'any');
    const sources = (watermarks: Watermarks) => ({ events, store, watermarks, projectionNames: ['counter'] });

    it('dead-letters it and keeps applying later events; checkpoint, status and metrics show it', async () => {
      const watermarks = new Watermarks(store, true);
      const runner = new ProjectionRunner(events, store, [fragile], watermarks, log);
      await runner.start();
      await append('s-1', 'one');
      const poison = await append('s-1', 'poison');
      const last = await append('s-1', 'two');
      expect(await watermarks.waitFor(['counter'], last.position, 10_000)).toBe(true);

      const docs = await new ReadModels(store, watermarks).docs('counter');
      expect((await docs('counts').get('s-1'))?.n).toBe(2);
      const key = (await store.collection(REGISTRY).get('counter'))!.active as string;
      const letters = await store.collection(DEAD_LETTERS).find({ storage: key });
      expect(letters).toEqual([
        expect.objectContaining({
          projection: 'counter', storage: key, position: poison.position, type: 'thing.happened', error: 'cannot apply poison',
          eventId: (await events.readAll(poison.position - 1, 1))[0].id, at: expect.any(String),
        }),
      ]);
      expect((await runner.status())[0]).toMatchObject({ name: 'counter', deadLetters: 1 });
      await runner.stop();
      expect((await store.collection(CHECKPOINTS).get(key))?.position).toBe(last.position);

      const health = await projectionHealth(sources(watermarks));
      expect(health.projections).toEqual([expect.objectContaining({ name: 'counter', position: last.position, lagPositions: 0, deadLetters: 1 })]);
      const metrics = new Metrics();
      addProjectionMetrics(metrics, sources(watermarks));
      const { text } = await metrics.render();
      expect(text).toContain('calendar_projection_dead_letters{projection="counter"} 1');
      expect(text).toContain(`calendar_projection_position{projection="counter"} ${last.position}`);
      expect(text).toContain('calendar_projection_lag_seconds{projection="counter"} 0');
      expect(text).toContain(`calendar_log_head_position ${last.position}`);
    });

    it('never passes an event that was neither applied nor recorded: while the record fails, it waits there', async () => {
      let recordFails = true;
      const flaky: ReadStore = {
        ...store,
        collection: <T extends Doc = Doc>(name: string) => {
          const c = store.collection<T>(name);
          return name !== DEAD_LETTERS ? c : { ...c, put: (doc: T) => (recordFails ? Promise.reject(new Error('store down')) : c.put(doc)) };
        },
        listCollections: () => store.listCollections(),
        close: () => store.close(),
      };
      const watermarks = new Watermarks(flaky, true);
      const runner = new ProjectionRunner(events, flaky, [fragile], watermarks, log);
      await runner.start();
      const before = await append('s-1', 'one');
      await append('s-1', 'poison');
      const last = await append('s-1', 'two');
      expect(await watermarks.waitFor(['counter'], before.position, 10_000)).toBe(true);
      expect(await watermarks.waitFor(['counter'], last.position, 1_500)).toBe(false); // held at the poison event
      expect(await watermarks.position('counter')).toBe(before.position);
      recordFails = false;
      expect(await watermarks.waitFor(['counter'], last.position, 10_000)).toBe(true);
      await runner.stop();
      expect(await store.collection(DEAD_LETTERS).count({})).toBe(1);
    });

    it('does not dead-letter an event whose store could not be reached: it waits there and applies it once the store answers', async () => {
      let down = false;
      const throughOutage = projection({
        ...counter(1),
        async apply(e, docs) {
          if (down) throw new StoreUnavailable('the read store', 'no answer within 10000 ms');
          await counter(1).apply(e, docs);
        },
      });
      const watermarks = new Watermarks(store, true);
      const runner = new ProjectionRunner(events, store, [throughOutage], watermarks, log);
      await runner.start();
      try {
        const before = await append('s-1', 'one');
        expect(await watermarks.waitFor(['counter'], before.position, 10_000)).toBe(true);
        down = true;
        const during = await append('s-1', 'two');
        expect(await watermarks.waitFor(['counter'], during.position, 1_500)).toBe(false); // held there, not passed
        down = false;
        expect(await watermarks.waitFor(['counter'], during.position, 10_000)).toBe(true);
      } finally {
        await runner.stop();
      }
      expect(await store.collection(DEAD_LETTERS).count({})).toBe(0);
      const docs = await new ReadModels(store, watermarks).docs('counter');
      expect((await docs('counts').get('s-1'))?.n).toBe(2);
    });

    it('reports a stuck projection by the age of the oldest event it has not applied, naming it', async () => {
      const watermarks = new Watermarks(store, true);
      const runner = new ProjectionRunner(events, store, [fragile], watermarks, log);
      await runner.start();
      const applied = await append('s-1', 'one');
      expect(await watermarks.waitFor(['counter'], applied.position, 10_000)).toBe(true);
      await runner.stop(); // nothing applies the log any more: stuck
      const now = Date.parse('2030-01-01T12:00:00Z');
      const waiting = await appendAt('s-1', 'two', new Date(now - 120_000).toISOString());
      const health = await projectionHealth(sources(watermarks), now);
      expect(health.projections[0]).toMatchObject({ lagPositions: 1, lagSeconds: 120, next: { position: waiting.position, type: 'thing.happened' } });
      expect(readinessProblems(health, { maxLagSeconds: 30, maxLagPositions: 1000 })).toEqual([
        `counter: stuck or lagging: the oldest event it has not applied (position ${waiting.position}, thing.happened) is 120 s old (limit 30 s)`,
      ]);
      expect(readinessProblems(health, { maxLagSeconds: 300, maxLagPositions: 1000 })).toEqual([]);
      expect(readinessProblems(health, { maxLagSeconds: 300, maxLagPositions: 0 })).toEqual([`counter: 1 log positions behind the head (limit 0)`]);
    });
  });
});
