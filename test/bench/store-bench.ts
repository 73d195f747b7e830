/**
 * Append throughput of the embedded SQLite event store (WAL, synchronous=FULL, group commit) in this process:
 * one append at a time, many appends in flight, and batches of events per append.
 */
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { EventStore, ExpectedRevision, NewEvent } from '../../services/eventstore/event-store.port';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
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

export async function storeBench(seconds: number): Promise<StoreResult[]> {
  const modes: Array<[label: string, inFlight: number, perAppend: number]> = [
    ['single appends, awaited one by one', 1, 1],
    ['single appends, 64 in flight', 64, 1],
    ['batches of 100 events, one by one', 1, 100],
  ];
  const results: StoreResult[] = [];
  for (const [label, inFlight, perAppend] of modes) {
    const store = await openSqliteEventStore(path.join(tempDir('store'), 'events.sqlite'));
    try {
      await measure(store, `${label} warmup`, inFlight, perAppend, Math.min(0.3, seconds / 5));
      results.push(await measure(store, label, inFlight, perAppend, seconds));
    } finally {
      await store.close();
    }
  }
  return results;
}
