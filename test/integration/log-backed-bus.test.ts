/**
 * The embedded bus in front of the embedded log (services/bus/log-backed-bus.ts): the relay's messages are kept
 * without their values, and consumers get each event read back from the log, exactly as the relay sent it.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import pino from 'pino';
import { openEmbeddedBus } from '../../services/bus/embedded-bus';
import { logBackedBus } from '../../services/bus/log-backed-bus';
import type { ConsumedMessage } from '../../services/bus/bus.port';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import { newId } from '../../services/ids';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import { Relay } from '../../services/relay/relay';

const dir = mkdtempSync(path.join(tmpdir(), 'log-backed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; !check(); i++) {
    if (i > 1000) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

it('keeps references to the relayed events and delivers the events themselves; other messages pass as they are', async () => {
  const events = await openSqliteEventStore(path.join(dir, 'events.sqlite'));
  const store = await openEmbeddedReadStore(path.join(dir, 'read.sqlite'));
  const file = path.join(dir, 'bus.sqlite');
  const bus = logBackedBus(await openEmbeddedBus(file), events);
  const meta = { userId: null, correlationId: 'c', causationId: 'c', occurredAt: '2026-11-22T00:00:00Z', schemaVersion: 1 };
  for (let i = 0; i < 5; i++) await events.append(`s-${i % 2}`, [{ id: newId(), type: 'thing.happened', data: { i, text: 'ü'.repeat(200) }, metadata: meta }], 'any');
  await bus.publish('domain', [{ key: 'other', value: 'kept as it is', headers: { kind: 'plain' } }]);

  const seen: ConsumedMessage[] = [];
  const consumer = await bus.subscribe('g', 'domain', async (m) => void seen.push(m), { fromBeginning: true });
  const relay = new Relay(events, bus, store, 'domain', pino({ level: 'silent' }));
  await relay.start();
  await until(() => seen.length === 6);
  await relay.stop();
  await consumer.stop();

  expect(seen[0]).toMatchObject({ key: 'other', value: 'kept as it is', headers: { kind: 'plain' } });
  const log = await events.readAll(0, 10);
  expect(seen.slice(1).map((m) => m.value)).toEqual(log.map((e) => JSON.stringify(e)));
  expect(seen.slice(1).map((m) => m.key)).toEqual(log.map((e) => e.streamId));
  await bus.close();
  await events.close();
  await store.close();

  const raw = new Database(file, { readonly: true });
  const values = raw.prepare("SELECT value FROM messages WHERE topic = 'domain' ORDER BY seq").pluck().all();
  raw.close();
  expect(values).toEqual(['kept as it is', '', '', '', '', '']);
});

it('reads the values of a group far behind the head a page at a time, and each value once for all groups', async () => {
  const sub = mkdtempSync(path.join(dir, 'ahead-'));
  const events = await openSqliteEventStore(path.join(sub, 'events.sqlite'));
  const store = await openEmbeddedReadStore(path.join(sub, 'read.sqlite'));
  let reads = 0;
  const counted = { ...events, readAll: (after: number, limit: number) => (reads++, events.readAll(after, limit)) };
  const bus = logBackedBus(await openEmbeddedBus(path.join(sub, 'bus.sqlite')), counted);
  const meta = { userId: null, correlationId: 'c', causationId: 'c', occurredAt: '2026-11-22T00:00:00Z', schemaVersion: 1 };
  const appended = Array.from({ length: 250 }, (_, i) => ({ id: newId(), type: 'thing.happened', data: { i }, metadata: meta }));
  await events.append('s', appended, 'no_stream');
  const relay = new Relay(events, bus, store, 'domain', pino({ level: 'silent' }));
  await relay.start();
  await until(() => relay.position === 250);

  const seen: Record<string, string[]> = { a: [], b: [] };
  const consumers = await Promise.all(
    ['a', 'b'].map((g) => bus.subscribe(g, 'domain', async (m) => void seen[g].push(m.value), { fromBeginning: true })),
  );
  await until(() => seen.a.length === 250 && seen.b.length === 250);
  await Promise.all(consumers.map((c) => c.stop()));
  await relay.stop();

  const log = (await events.readAll(0, 300)).map((e) => JSON.stringify(e));
  expect(seen.a).toEqual(log);
  expect(seen.b).toEqual(log);
  expect(reads).toBeLessThanOrEqual(6);
  await bus.close();
  await events.close();
  await store.close();
});
