/**
 * The CLI's scan of the log (services/cli/log-pages.ts): pages in order up to the end position, filtered, at most
 * `limit` events, the next page asked for before the consumer is done with this one (but never more than a few
 * ahead), and a failed read surfacing where the pages are consumed.
 */
import type { EventStore, RecordedEvent } from '../../services/eventstore/event-store.port';
import { matchingPages, PAGE_SIZE, type EventFilter } from '../../services/cli/log-pages';

const HEAD = PAGE_SIZE * 5 + 10;

function recorded(position: number, type = position % 2 ? 'odd' : 'even'): RecordedEvent {
  return {
    id: `e-${position}`, type, data: { position }, streamId: `s-${position % 3}`, revision: 0, position,
    metadata: { userId: null, correlationId: 'c', causationId: 'c', occurredAt: new Date(position * 1000).toISOString() },
  } as RecordedEvent;
}

interface FakeLog {
  /** Positions step by this (1: dense). */
  step?: number;
  /** The read after this position fails. */
  failAt?: number;
  /** The event at this position is an erasure. */
  erasureAt?: number;
}

/** A log of HEAD events; `reads` records each readAll's `after`, `inFlight` the most reads running at once. */
function log({ step = 1, failAt, erasureAt }: FakeLog = {}) {
  const reads: number[] = [];
  let running = 0;
  const stats = { inFlight: 0 };
  const events = {
    headPosition: async () => HEAD * step,
    readAll: async (after: number, limit: number) => {
      reads.push(after);
      stats.inFlight = Math.max(stats.inFlight, ++running);
      await new Promise((r) => setTimeout(r, 1));
      running--;
      if (after === failAt) throw new Error('disk gone');
      const out: RecordedEvent[] = [];
      for (let p = (Math.floor(after / step) + 1) * step; p <= HEAD * step && out.length < limit; p += step) {
        out.push(recorded(p, p === erasureAt ? 'user.erased' : undefined));
      }
      return out;
    },
  } as unknown as EventStore;
  return { events, reads, stats };
}

const scan = async (events: EventStore, filter: EventFilter) => {
  const seen: number[] = [];
  for await (const page of matchingPages(events, filter, { progress: false, label: 'test' })) seen.push(...page.map((e) => e.position));
  return seen;
};

it('gives every position after `after` up to `to`, in order, filtered', async () => {
  const { events } = log();
  const seen = await scan(events, { after: 5, to: PAGE_SIZE * 2 + 7, types: ['odd'] });
  const expected: number[] = [];
  for (let p = 6; p <= PAGE_SIZE * 2 + 7; p++) if (p % 2) expected.push(p);
  expect(seen).toEqual(expected);
});

it('stops at `limit` matching events', async () => {
  const { events } = log();
  expect(await scan(events, { after: 0, limit: PAGE_SIZE + 3 })).toEqual(Array.from({ length: PAGE_SIZE + 3 }, (_, i) => i + 1));
});

it('reads pages of a dense log side by side, a few ahead of a slow consumer', async () => {
  const { events, reads, stats } = log();
  const pages = matchingPages(events, { after: 0 }, { progress: false, label: 'test' });
  await pages.next();
  await new Promise((r) => setTimeout(r, 20)); // the consumer is busy with the first page
  expect(reads.length).toBeGreaterThan(2);
  expect(reads.length).toBeLessThan(6);
  let rest = 0;
  for await (const page of pages) rest += page.length;
  expect(rest).toBe(HEAD - PAGE_SIZE);
  expect(reads).toEqual([0, 1, 2, 3, 4, 5].map((i) => i * PAGE_SIZE));
  expect(stats.inFlight).toBeGreaterThan(1);
});

it('reads a sparse log one page after another, and gives every event once', async () => {
  const { events, reads, stats } = log({ step: 7 });
  const seen = await scan(events, { after: 0 });
  expect(seen).toEqual(Array.from({ length: HEAD }, (_, i) => (i + 1) * 7));
  expect(stats.inFlight).toBe(1);
  expect(reads).toEqual([0, 1, 2, 3, 4, 5].map((i) => i * PAGE_SIZE * 7));
});

it('drops the pages read ahead of a page holding an erasure, and reads them again', async () => {
  const { events, reads } = log({ erasureAt: PAGE_SIZE * 2 - 5 });
  const seen = await scan(events, { after: 0 });
  expect(seen).toEqual(Array.from({ length: HEAD }, (_, i) => i + 1));
  const after = PAGE_SIZE * 2;
  expect(reads.filter((a) => a === after).length).toBe(2); // asked for ahead, dropped, asked for again
});

it('a failed read surfaces to the consumer, after the pages before it', async () => {
  const { events } = log({ failAt: PAGE_SIZE * 2 });
  const seen: number[] = [];
  await expect(
    (async () => {
      for await (const page of matchingPages(events, { after: 0 }, { progress: false, label: 'test' })) seen.push(page.length);
    })(),
  ).rejects.toThrow('disk gone');
  expect(seen).toEqual([PAGE_SIZE, PAGE_SIZE]);
});
