import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { openEmbeddedBus } from '../../services/bus/embedded-bus';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { newId } from '../../services/ids';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { Doc, ReadStore } from '../../services/readstore/read-store.port';
import { historyStore } from '../../services/eventstore/decoding-event-store';
import { consumeDomainEvents, CONSUMED } from '../../services/relay/event-consumer';
import { Relay } from '../../services/relay/relay';

const meta = { userId: null, correlationId: 'c', causationId: 'c', occurredAt: '2026-11-22T00:00:00Z', schemaVersion: 1 };
const log = pino({ level: 'silent' });

async function waitFor(check: () => Promise<boolean>, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

async function until(check: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A log, a read store and a bus in a fresh directory, and the relay checkpoint as stored. */
async function relayParts() {
  const dir = mkdtempSync(path.join(tmpdir(), 'relay-'));
  const events = await openSqliteEventStore(path.join(dir, 'events.sqlite'));
  const store = await openEmbeddedReadStore(path.join(dir, 'read.sqlite'));
  const bus = await openEmbeddedBus(path.join(dir, 'bus.sqlite'));
  const saved = async () => ((await store.collection('_checkpoints').get('relay'))?.position as number | undefined) ?? 0;
  const close = async () => {
    for (const p of [events, store, bus]) await p.close();
  };
  return { events, store, bus, saved, close };
}

describe('relay: the event log as the outbox', () => {
  it('carries every event into the bus keyed by stream, once per consumer group across restarts', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'relay-'));
    const open = async () => ({
      events: await openSqliteEventStore(path.join(dir, 'events.sqlite')),
      store: await openEmbeddedReadStore(path.join(dir, 'read.sqlite')),
      bus: await openEmbeddedBus(path.join(dir, 'bus.sqlite')),
    });
    let ports = await open();
    const append = (stream: string, n: number) =>
      ports.events.append(stream, [{ id: newId(), type: 'thing.happened', data: { n }, metadata: meta }], 'any');
    for (let i = 0; i < 10; i++) await append(`a-${i % 2}`, i);

    const seen: RecordedEvent[] = [];
    let relay = new Relay(ports.events, ports.bus, ports.store, 'domain', log);
    await relay.start();
    let consumer = await consumeDomainEvents(ports.bus, ports.store, 'domain', 'test-group', historyStore(ports.events, ports.store).codec, async (e) => void seen.push(e));
    await until(() => seen.length === 10);
    await consumer.stop();
    await relay.stop();

    // Lose the relay checkpoint: it republishes everything, and the consumer's dedupe keeps each event once.
    await ports.store.collection('_checkpoints').delete('relay');
    for (const p of Object.values(ports)) await p.close();
    ports = await open();
    for (let i = 10; i < 15; i++) await append(`a-${i % 2}`, i);
    relay = new Relay(ports.events, ports.bus, ports.store, 'domain', log);
    await relay.start();
    consumer = await consumeDomainEvents(ports.bus, ports.store, 'domain', 'test-group', historyStore(ports.events, ports.store).codec, async (e) => void seen.push(e));
    await until(() => seen.length >= 15);
    await new Promise((r) => setTimeout(r, 300));
    await consumer.stop();
    await relay.stop();
    for (const p of Object.values(ports)) await p.close();

    expect(seen.map((e) => (e.data as { n: number }).n).sort((a, b) => a - b)).toEqual([...Array(15).keys()]);
    for (const stream of ['a-0', 'a-1']) {
      const ns = seen.filter((e) => e.streamId === stream).map((e) => e.revision);
      expect(ns).toEqual([...ns].sort((a, b) => a - b));
    }
  });

  it('saves a checkpoint it could not save once the store answers again, with no new event to relay', async () => {
    const { events, store, bus, saved, close } = await relayParts();
    let down = false;
    const flaky: ReadStore = {
      ...store,
      collection: <T extends Doc = Doc>(name: string) => {
        const c = store.collection<T>(name);
        return name !== '_checkpoints' ? c : { ...c, putIfNewer: (doc: T) => (down ? Promise.reject(new Error('store down')) : c.putIfNewer(doc)) };
      },
    };
    const relay = new Relay(events, bus, flaky, 'domain', log);
    await relay.start();
    try {
      const first = await events.append('a', [{ id: newId(), type: 'thing.happened', data: {}, metadata: meta }], 'any');
      await until(() => relay.position === first.position);
      await waitFor(async () => (await saved()) === first.position);
      down = true;
      const last = await events.append('a', [{ id: newId(), type: 'thing.happened', data: {}, metadata: meta }], 'any');
      await until(() => relay.position === last.position); // in the bus, its checkpoint refused
      await new Promise((r) => setTimeout(r, 200));
      expect(await saved()).toBe(first.position);
      down = false;
      await waitFor(async () => (await saved()) === last.position);
    } finally {
      await relay.stop();
      await close();
    }
  });

  it('never takes its checkpoint back: a save that timed out and lands after a later one changes nothing', async () => {
    const { events, store, bus, saved, close } = await relayParts();
    // While `late`, a checkpoint save fails for the relay at once, as a timeout does, but reaches the store later.
    let late = false;
    const held: Array<() => Promise<unknown>> = [];
    const slow: ReadStore = {
      ...store,
      collection: <T extends Doc = Doc>(name: string) => {
        const c = store.collection<T>(name);
        if (name !== '_checkpoints') return c;
        const later = <A>(write: (doc: A) => Promise<unknown>) => (doc: A) => {
          if (!late) return write(doc);
          held.push(() => write(doc));
          return Promise.reject(new Error('no answer in time'));
        };
        return { ...c, put: later((d: T) => c.put(d)), putIfNewer: later((d: T) => c.putIfNewer(d)) } as typeof c;
      },
    };
    const append = () => events.append('a', [{ id: newId(), type: 'thing.happened', data: {}, metadata: meta }], 'any');
    const relay = new Relay(events, bus, slow, 'domain', log);
    await relay.start();
    try {
      await append();
      late = true;
      const middle = await append();
      await until(() => held.length > 0 && relay.position === middle.position);
      late = false;
      const last = await append();
      await waitFor(async () => (await saved()) === last.position);
      for (const write of held.splice(0)) await write(); // the timed-out save reaches the store now
      expect(await saved()).toBe(last.position);
    } finally {
      await relay.stop();
      await close();
    }
  });

  it('remembers only the events a handler made something for, and hands the others again when redelivered', async () => {
    const { events, store, bus, close } = await relayParts();
    const appended: number[] = [];
    for (let n = 0; n < 6; n++) {
      appended.push((await events.append(`s-${n}`, [{ id: newId(), type: 'thing.happened', data: { n }, metadata: meta }], 'no_stream')).position);
    }
    const relay = new Relay(events, bus, store, 'domain', log);
    await relay.start();
    const codec = historyStore(events, store).codec;
    const handled: number[] = [];
    // Even n makes something (true), odd n makes nothing (false).
    const handle = async (e: RecordedEvent) => {
      const n = (e.data as { n: number }).n;
      handled.push(n);
      return n % 2 === 0;
    };
    try {
      let consumer = await consumeDomainEvents(bus, store, 'domain', 'memo-group', codec, handle);
      await until(() => handled.length === 6);
      await consumer.stop();
      const memo = await store.collection(CONSUMED).find({ group: 'memo-group' });
      expect(memo.map((d) => d._pos).sort((a, b) => (a as number) - (b as number))).toEqual([appended[0], appended[2], appended[4]]);

      // The same messages again (a relay that lost its checkpoint): only those made nothing for are handled again.
      await bus.publish('domain', (await events.readAll(0, 10)).map((e) => ({
        key: e.streamId, value: JSON.stringify(e), headers: { 'event-id': e.id, 'event-type': e.type },
      })));
      consumer = await consumeDomainEvents(bus, store, 'domain', 'memo-group', codec, handle);
      await until(() => handled.length === 9);
      await new Promise((r) => setTimeout(r, 200));
      await consumer.stop();
      expect(handled).toEqual([0, 1, 2, 3, 4, 5, 1, 3, 5]);
    } finally {
      await relay.stop();
      await close();
    }
  });
});
