/**
 * Reminder claims on the embedded read store: of workers claiming one reminder at once exactly one holds it; a lease
 * that ran out is taken over, one that holds is not; only the holder gives it back; long-expired claims are pruned.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';
import { ReminderClaims } from '../../services/reminders/claims';

const T = Date.parse('2031-05-12T13:00:00.000Z');
let store: ReadStore;
let claims: ReminderClaims;

beforeEach(async () => {
  store = await openEmbeddedReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'reminder-claims-')), 'read.sqlite'), { requireIndexes: true });
  claims = new ReminderClaims(store);
  await claims.ensureIndexes();
});
afterEach(() => store.close());

it('gives one reminder to one of many claiming it at once', async () => {
  const got = await Promise.all(Array.from({ length: 8 }, () => claims.claim('r1', 1000, T)));
  expect(got.filter((h) => h !== null)).toHaveLength(1);
});

it('lets another take it over once the lease ran out, not before', async () => {
  const first = await claims.claim('r1', 1000, T);
  expect(first).not.toBeNull();
  expect(await claims.claim('r1', 1000, T + 999)).toBeNull();
  const second = await claims.claim('r1', 1000, T + 1000);
  expect(second).not.toBeNull();
  expect(await claims.claim('r1', 1000, T + 1500)).toBeNull();
  // The first holder's release no longer counts: the second holds it.
  await claims.release('r1', first!);
  expect(await claims.claim('r1', 1000, T + 1500)).toBeNull();
  await claims.release('r1', second!);
  expect(await claims.claim('r1', 1000, T + 1500)).not.toBeNull();
});

it('prunes claims an hour past their lease', async () => {
  await claims.claim('old', 1000, T);
  await claims.claim('recent', 1000, T + 3_000_000);
  expect(await claims.prune(T + 1000 + 3_600_001)).toBe(1);
  expect(await claims.claim('old', 1000, T + 3_700_000)).not.toBeNull();
  expect(await claims.claim('recent', 1000, T + 3_000_500)).toBeNull();
});
