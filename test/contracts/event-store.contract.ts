/**
 * The contract every EventStore adapter passes. Stream ids are unique per test, and nothing assumes the log holds
 * only this suite's events, so it can run against a shared server. Reads start from 0 or from a position the store
 * handed out (EventStoreDB can only read from a real record position).
 */
import { randomUUID } from 'node:crypto';
import {
  EventMetadata,
  EventStore,
  NewEvent,
  RecordedEvent,
  WrongExpectedRevisionError,
} from '../../services/eventstore/event-store.port';

export const newStream = (prefix = 'test'): string => `${prefix}-${randomUUID()}`;

export function newEvent(type = 'thing.happened', data: unknown = { n: 1 }): NewEvent {
  return {
    id: randomUUID(),
    type,
    data,
    metadata: {
      userId: 'user-1',
      correlationId: randomUUID(),
      causationId: randomUUID(),
      occurredAt: '2026-03-29T01:30:00.000Z',
      schemaVersion: 1,
    },
  };
}

/** Resolves once `predicate` holds, polling every few ms; fails after `ms`. */
export async function eventually(predicate: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!predicate()) {
    if (Date.now() > until) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 5));
  }
}

const ours = (events: RecordedEvent[], streams: string[]): RecordedEvent[] =>
  events.filter((e) => streams.includes(e.streamId));

export function eventStoreContract(name: string, open: () => Promise<EventStore>): void {
  describe(`event store contract: ${name}`, () => {
    let store: EventStore;
    beforeEach(async () => {
      store = await open();
    });
    afterEach(async () => {
      await store.close();
    });

    it('appends and reads a stream in order, round-tripping unicode and nested data', async () => {
      const s = newStream();
      const first = newEvent('calendar.created', { title: 'Zürich – 会議 🗓️', nested: { list: [1, 'two', { three: null }] } });
      const second = newEvent('calendar.renamed', { title: 'Ünïcødé' });
      const r1 = await store.append(s, [first], 'no_stream');
      const r2 = await store.append(s, [second], 0);
      expect(r1.revision).toBe(0);
      expect(r2.revision).toBe(1);
      expect(r2.position).toBeGreaterThan(r1.position);

      const events = await store.readStream(s);
      expect(events).toEqual([
        { ...first, streamId: s, revision: 0, position: r1.position },
        { ...second, streamId: s, revision: 1, position: r2.position },
      ]);
      expect((await store.readStream(s, 1)).map((e) => e.id)).toEqual([second.id]);
      expect(await store.readStream(newStream())).toEqual([]);
    });

    it('round-trips metadata exactly: absent and null fields, ids and instants of any form, fields added later', async () => {
      const s = newStream();
      const start = await store.headPosition();
      const plain = newEvent();
      const odd: NewEvent = {
        ...newEvent(),
        metadata: {
          userId: null,
          spaceId: randomUUID(),
          correlationId: 'req-42',
          causationId: randomUUID().toUpperCase(),
          occurredAt: '2026-03-29T01:30:00Z',
          schemaVersion: 2,
          traceId: 'abc',
          keyRef: { user: 'user-1', version: 3 },
        } as EventMetadata,
      };
      await store.append(s, [plain, odd], 'no_stream');
      const [a, b] = await store.readStream(s);
      expect(a.metadata).toEqual(plain.metadata);
      expect('spaceId' in a.metadata).toBe(false);
      expect(b.metadata).toEqual(odd.metadata);
      expect(ours(await store.readAll(start, 10_000), [s]).map((e) => e.metadata)).toEqual([plain.metadata, odd.metadata]);
    });

    it('appends several events atomically and reports each position', async () => {
      const s = newStream();
      const events = [newEvent(), newEvent(), newEvent()];
      const result = await store.append(s, events, 'no_stream');
      const read = await store.readStream(s);
      expect(read.map((e) => e.revision)).toEqual([0, 1, 2]);
      expect(result).toEqual({ revision: 2, position: read[2].position, positions: read.map((e) => e.position) });
      expect(read[0].position).toBeLessThan(read[1].position);
      expect(read[1].position).toBeLessThan(read[2].position);
    });

    it('refuses a stale expected revision', async () => {
      const s = newStream();
      await store.append(s, [newEvent()], 'no_stream');
      await store.append(s, [newEvent()], 0);
      const error = await store.append(s, [newEvent()], 0).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(WrongExpectedRevisionError);
      expect(error).toMatchObject({ streamId: s, expected: 0, actual: 1 });
      expect(await store.readStream(s)).toHaveLength(2);
    });

    it("refuses 'no_stream' on an existing stream and a number on a missing one", async () => {
      const s = newStream();
      await store.append(s, [newEvent()], 'no_stream');
      await expect(store.append(s, [newEvent()], 'no_stream')).rejects.toMatchObject({
        name: 'WrongExpectedRevisionError',
        actual: 0,
      });
      const missing = newStream();
      await expect(store.append(missing, [newEvent()], 0)).rejects.toMatchObject({
        name: 'WrongExpectedRevisionError',
        actual: 'no_stream',
      });
      expect(await store.readStream(missing)).toEqual([]);
    });

    it("appends with 'any' whatever the stream's state", async () => {
      const s = newStream();
      expect((await store.append(s, [newEvent()], 'any')).revision).toBe(0);
      expect((await store.append(s, [newEvent(), newEvent()], 'any')).revision).toBe(2);
    });

    it('answers a retried append with the original result and writes nothing', async () => {
      const s = newStream();
      const batch = [newEvent(), newEvent()];
      const original = await store.append(s, batch, 'no_stream');
      expect(await store.append(s, batch, 'no_stream')).toEqual(original);
      expect(await store.readStream(s)).toHaveLength(2);

      // still recognised after the stream moved on
      await store.append(s, [newEvent()], 1);
      expect(await store.append(s, batch, 'no_stream')).toEqual(original);
      expect(await store.readStream(s)).toHaveLength(3);
    });

    it('refuses an append whose event ids are only partly stored', async () => {
      const s = newStream();
      const [a, b] = [newEvent(), newEvent()];
      await store.append(s, [a, b], 'no_stream');
      await expect(store.append(s, [a, newEvent()], 'no_stream')).rejects.toThrow();
      expect((await store.readStream(s)).map((e) => e.id)).toEqual([a.id, b.id]);
    });

    it('gives positions that strictly increase in commit order across streams', async () => {
      const streams = [newStream(), newStream(), newStream()];
      const start = await store.headPosition();
      const results = [];
      for (let i = 0; i < 9; i++) {
        const s = streams[i % 3];
        results.push(await store.append(s, [newEvent()], 'any'));
      }
      for (let i = 1; i < results.length; i++) expect(results[i].position).toBeGreaterThan(results[i - 1].position);
      const log = ours(await store.readAll(start, 10_000), streams);
      expect(log.map((e) => e.position)).toEqual(results.map((r) => r.position));
    });

    it('pages through the log with after and limit, and reports the head', async () => {
      const streams = [newStream(), newStream()];
      const start = await store.headPosition();
      const appended = [];
      for (let i = 0; i < 7; i++) appended.push(await store.append(streams[i % 2], [newEvent('n', { i })], 'any'));
      expect(await store.headPosition()).toBeGreaterThanOrEqual(appended[6].position);

      const seen: RecordedEvent[] = [];
      let cursor = start;
      for (;;) {
        const page = await store.readAll(cursor, 3);
        expect(page.length).toBeLessThanOrEqual(3);
        if (page.length === 0) break;
        for (let i = 1; i < page.length; i++) expect(page[i].position).toBeGreaterThan(page[i - 1].position);
        expect(page[0].position).toBeGreaterThan(cursor);
        seen.push(...page);
        cursor = page[page.length - 1].position;
      }
      expect(ours(seen, streams).map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 5, 6]);
      expect(ours(await store.readAll(await store.headPosition(), 10), streams)).toEqual([]);
    });

    it('reads only the types asked for, window by window, and says how far each window reached', async () => {
      if (!store.readAllOf) return expect(store.readAllOf).toBeUndefined(); // optional: readers fall back to readAll
      const stream = newStream();
      const start = await store.headPosition();
      const kinds = ['kept.one', 'skipped', 'kept.two', 'skipped', 'kept.one', 'never.asked'];
      const appended = await store.append(stream, kinds.map((k, i) => newEvent(k, { i })), 'no_stream');
      const wanted = new Set(['kept.one', 'kept.two', 'not.in.the.log']);
      const first = await store.readAllOf(start, 4, wanted);
      expect(first.reached).toBe(appended.positions[3]);
      expect(first.events.map((e) => [e.type, (e.data as { i: number }).i, e.position])).toEqual([
        ['kept.one', 0, appended.positions[0]],
        ['kept.two', 2, appended.positions[2]],
      ]);
      const rest = await store.readAllOf(first.reached, 4, wanted);
      expect(rest).toEqual({ events: [expect.objectContaining({ type: 'kept.one', streamId: stream, revision: 4 })], reached: appended.position });
      expect(await store.readAllOf(appended.position, 4, wanted)).toEqual({ events: [], reached: appended.position });
    });

    it('lets exactly one of concurrent appends with the same expected revision win', async () => {
      const s = newStream();
      await store.append(s, [newEvent()], 'no_stream');
      const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => store.append(s, [newEvent()], 0)));
      const won = outcomes.filter((o) => o.status === 'fulfilled');
      const lost = outcomes.filter((o): o is PromiseRejectedResult => o.status === 'rejected');
      expect(won).toHaveLength(1);
      expect(lost).toHaveLength(9);
      for (const o of lost) expect(o.reason).toBeInstanceOf(WrongExpectedRevisionError);
      expect(await store.readStream(s)).toHaveLength(2);
    });

    it('subscribes: catch-up then live, exactly once and in order; resubscribing continues without gaps', async () => {
      const s = newStream();
      const start = await store.headPosition();
      await store.append(s, [newEvent('n', { i: 0 }), newEvent('n', { i: 1 })], 'no_stream');

      const got: RecordedEvent[] = [];
      const sub = store.subscribeAll(start, async (e) => {
        if (e.streamId === s) got.push(e);
      });
      await eventually(() => got.length === 2);
      await store.append(s, [newEvent('n', { i: 2 })], 1);
      await store.append(s, [newEvent('n', { i: 3 })], 2);
      await eventually(() => got.length === 4);
      await sub.stop();
      await expect(sub.done).resolves.toBeUndefined();

      await store.append(s, [newEvent('n', { i: 4 })], 3);
      const last = got[got.length - 1].position;
      const sub2 = store.subscribeAll(last, async (e) => {
        if (e.streamId === s) got.push(e);
      });
      await store.append(s, [newEvent('n', { i: 5 })], 4);
      await eventually(() => got.length === 6);
      await new Promise((r) => setTimeout(r, 100)); // room for a duplicate to show up
      await sub2.stop();

      expect(got.map((e) => (e.data as { i: number }).i)).toEqual([0, 1, 2, 3, 4, 5]);
      expect(got.map((e) => e.revision)).toEqual([0, 1, 2, 3, 4, 5]);
      for (let i = 1; i < got.length; i++) expect(got[i].position).toBeGreaterThan(got[i - 1].position);
    });

    it('runs the handler one event at a time, and stop() waits for the running handler', async () => {
      const s = newStream();
      const start = await store.headPosition();
      await store.append(s, [newEvent(), newEvent(), newEvent()], 'no_stream');
      let running = 0;
      let maxRunning = 0;
      let handled = 0;
      const sub = store.subscribeAll(start, async (e) => {
        if (e.streamId !== s) return;
        running += 1;
        maxRunning = Math.max(maxRunning, running);
        await new Promise((r) => setTimeout(r, 30));
        running -= 1;
        handled += 1;
      });
      await eventually(() => running === 1 && handled === 1);
      await sub.stop();
      // the second event was in flight when stop() was called: it finishes, the third is not delivered
      expect(running).toBe(0);
      expect(handled).toBe(2);
      expect(maxRunning).toBe(1);
      await store.append(s, [newEvent()], 2);
      await new Promise((r) => setTimeout(r, 100));
      expect(handled).toBe(2);
    });

    it('rejects done when the handler throws, and stops delivering', async () => {
      const s = newStream();
      const start = await store.headPosition();
      await store.append(s, [newEvent(), newEvent()], 'no_stream');
      let calls = 0;
      const sub = store.subscribeAll(start, async (e) => {
        if (e.streamId !== s) return;
        calls += 1;
        throw new Error('projection bug');
      });
      await expect(sub.done).rejects.toThrow('projection bug');
      await store.append(s, [newEvent()], 1);
      await new Promise((r) => setTimeout(r, 100));
      expect(calls).toBe(1);
      await sub.stop();
    });
  });
}
