/**
 * Append throughput of the embedded SQLite event store (WAL, synchronous=FULL, group commit) in this process:
 * one append at a time, many appends in flight, and batches of events per append; bare and through the decoding
 * store (sealing, upcasting), and the rate a projection reads the log at.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EventStore, ExpectedRevision, NewEvent } from '../../services/eventstore/event-store.port';
import { historyStore } from '../../services/eventstore/decoding-event-store';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import { percentile, tempDir } from './util';

export interface StoreResult {
  label: string;
  events: number;
  appends: number;
  seconds: number;
  eventsPerSec: number;
  appendsPerSec: number;
  /** Latency of one append call (ms). */
  p50: number;
  p99: number;
}

/** An `event.created`-sized event (~0.8 kB of JSON). */
export function sampleEvent(i: number): NewEvent {
  const id = randomUUID();
  const start = Date.UTC(2032, 0, 1) + i * 1_800_000;
  return {
    id: randomUUID(),
    type: 'event.created',
    data: {
      id, spaceId: '6f1c2d9e-8a4b-4c3d-9e2f-1a2b3c4d5e6f', calendarId: '0b7e5a2c-3d4f-4e5a-8b6c-7d8e9f0a1b2c',
      title: `Store bench ${i}`, description: 'Appended by the store bench', location: 'Room 4', meetingUrl: null,
      kind: 'meeting', startsAt: new Date(start).toISOString(), endsAt: new Date(start + 1_500_000).toISOString(),
      timeZone: 'Europe/Paris', allDay: false, busy: true, recurrenceRule: null, resources: [], attendees: [],
      allowOverlap: false, status: 'confirmed', createdBy: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d',
      createdAt: new Date().toISOString(), updatedAt: new Date().toISOString(), deletedAt: null, version: 1,
    },
    metadata: {
      userId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', spaceId: '6f1c2d9e-8a4b-4c3d-9e2f-1a2b3c4d5e6f',
      correlationId: randomUUID(), causationId: randomUUID(), occurredAt: new Date().toISOString(), schemaVersion: 1,
    },
  };
}

/** `inFlight` writers, each appending `perAppend` events to its own stream, one append after another, for `seconds`. */
async function measure(store: EventStore, label: string, inFlight: number, perAppend: number, seconds: number): Promise<StoreResult> {
  const latencies: number[] = [];
  let events = 0;
  let counter = 0;
  const started = performance.now();
  const deadline = started + seconds * 1000;
  const writer = async (w: number) => {
    const stream = `bench-${label.replace(/\W+/g, '-')}-${w}`;
    let expected: ExpectedRevision = 'no_stream';
    while (performance.now() < deadline) {
      const batch = Array.from({ length: perAppend }, () => sampleEvent(counter++));
      const t0 = performance.now();
      const result = await store.append(stream, batch, expected);
      latencies.push(performance.now() - t0);
      expected = result.revision;
      events += batch.length;
    }
  };
  await Promise.all(Array.from({ length: inFlight }, (_, w) => writer(w)));
  const elapsed = (performance.now() - started) / 1000;
  return {
    label,
    events,
    appends: latencies.length,
    seconds: elapsed,
    eventsPerSec: events / elapsed,
    appendsPerSec: latencies.length / elapsed,
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
  };
}

/** Reads the whole log in pages of 500, as a projection catching up does. */
async function readRate(store: EventStore, label: string): Promise<StoreResult> {
  const started = performance.now();
  let events = 0;
  let pages = 0;
  for (let after = 0; ; pages++) {
    const page = await store.readAll(after, 500);
    if (page.length === 0) break;
    events += page.length;
    after = page[page.length - 1].position;
  }
  const seconds = (performance.now() - started) / 1000;
  return { label, events, appends: pages, seconds, eventsPerSec: events / seconds, appendsPerSec: pages / seconds, p50: 0, p99: 0 };
}

/**
 * Each mode on the bare adapter, then through the decoding store the service uses (data sealed per user with
 * AES-256-GCM, versions upcast on read); then the log read back both ways.
 */
export async function storeBench(seconds: number): Promise<StoreResult[]> {
  const modes: Array<[label: string, inFlight: number, perAppend: number]> = [
    ['single appends, awaited one by one', 1, 1],
    ['single appends, 64 in flight', 64, 1],
    ['batches of 100 events, one by one', 1, 100],
  ];
  const results: StoreResult[] = [];
  for (const sealed of [false, true]) {
    for (const [label, inFlight, perAppend] of modes) {
      const dir = tempDir('store');
      const raw = await openSqliteEventStore(path.join(dir, 'events.sqlite'));
      const keys = await openEmbeddedReadStore(path.join(dir, 'read.sqlite'));
      const store = sealed ? historyStore(raw, keys).events : raw;
      const name = sealed ? `${label}, sealed` : label;
      try {
        await measure(store, `${name} warmup`, inFlight, perAppend, Math.min(0.3, seconds / 5));
        results.push(await measure(store, name, inFlight, perAppend, seconds));
        if (sealed && perAppend > 1) {
          results.push(await readRate(raw, 'read the log as stored (bare adapter)'));
          results.push(await readRate(historyStore(raw, keys).events, 'read the log opened and upcast'));
        }
      } finally {
        await raw.close();
        await keys.close();
      }
    }
  }
  return results;
}
