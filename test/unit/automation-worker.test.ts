/**
 * The run worker over the embedded read store: it carries due runs, never more than its slots, and never more than
 * one owner's share at once, so another owner's run starts while the first owner's runs wait.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { newRun, RunStore, type RunDoc } from '../../services/automations/run-store';
import { RunWorker } from '../../services/automations/run-worker';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';
import { until } from '../support/receiver';

const A = '11111111-1111-4111-8111-111111111111';
const B = '22222222-2222-4222-8222-222222222222';
let store: ReadStore;

beforeAll(async () => {
  store = await openEmbeddedReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'automation-worker-')), 'read.sqlite'));
});
afterAll(() => store.close());

let n = 0;
const run = (ownerId: string) => newRun(
  { id: `00000000-0000-4000-8000-${String(++n).padStart(12, '0')}`, ownerId, name: 'w', actions: [] },
  { id: `00000000-0000-4000-9000-${String(n).padStart(12, '0')}`, type: 'task.completed', createdAt: '2031-01-01T00:00:00.000Z', data: {} },
  n,
);

it('keeps to its slots and to each owner\'s share, and carries every run', async () => {
  const runs = new RunStore(store);
  for (let i = 0; i < 6; i++) await runs.runs.insertNew(run(A));
  await runs.runs.insertNew(run(B));
  const carrying = new Map<string, RunDoc>();
  let most = 0;
  let mostOfA = 0;
  const release: Array<() => void> = [];
  const carried: string[] = [];
  const worker = new RunWorker(runs, async (doc) => {
    carrying.set(doc._id, doc);
    most = Math.max(most, carrying.size);
    mostOfA = Math.max(mostOfA, [...carrying.values()].filter((d) => d.ownerId === A).length);
    await new Promise<void>((resolve) => release.push(resolve));
    carrying.delete(doc._id);
    carried.push(doc.ownerId);
    await runs.update(doc._id, doc.lease!, () => ({ status: 'succeeded', dueMs: null, lease: null }));
  }, { leaseMs: 60_000, maxInFlight: 3, maxInFlightPerOwner: 2, pollMs: 10 }, pino({ level: 'silent' }));
  worker.start();
  try {
    await until(() => carrying.size === 3, 5_000, 'three runs under way');
    expect([...carrying.values()].map((d) => d.ownerId).sort()).toEqual([A, A, B]);
    while (carried.length < 7) {
      release.splice(0).forEach((r) => r());
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(most).toBe(3);
    expect(mostOfA).toBe(2);
    expect(carried.filter((o) => o === A)).toHaveLength(6);
    expect(await runs.runs.count({ status: 'succeeded' })).toBe(7);
  } finally {
    release.forEach((r) => r());
    await worker.stop();
  }
});
