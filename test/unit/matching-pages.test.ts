/**
 * The CLI's scan of the log (services/cli/log-pages.ts): pages in order up to the end position, filtered, at most
 * `limit` events, the next page asked for before the consumer is done with this one (but never more than a few
 * ahead), and a failed read surfacing where the pages are consumed.
 */
import type { EventStore, RecordedEvent } from '../../services/eventstore/event-store.port';
import { matchingPages, PAGE_SIZE, type EventFilter } from '../../services/cli/log-pages';

const HEAD = PAGE_SIZE * 5 + 10;

function recorded(position: number): RecordedEvent {
  return {
    id: `e-${position}`, type: position % 2 ? 'odd' : 'even', data: { position }, streamId: `s-${position % 3}`, revision: 0, position,
    metadata: { userId: null, correlationId: 'c', causationId: 'c', occurredAt: new Date(position * 1000).toISOString() },
  } as RecordedEvent;
}

/** A log of positions 1..HEAD; `reads` records each readAll's `after`, `failAt` makes the read after it fail. */
function log(failAt?: number) {
  const reads: number[] = [];
  const events = {
    headPosition: async () => HEAD,
    readAll: async (after: number, limit: number) => {
      reads.push(after);
      if (after === failAt) throw new Error('disk gone');
      const out: RecordedEvent[] = [];
      for (let p = after + 1; p <= Math.min(HEAD, after + limit); p++) out.push(recorded(p));
      return out;
    },
  } as unknown as EventStore;
  return { events, reads };
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

it('reads ahead of a slow consumer, but only a few pages', async () => {
  const { events, reads } = log();
  const pages = matchingPages(events, { after: 0 }, { progress: false, label: 'test' });
  await pages.next();
  await new Promise((r) => setTimeout(r, 20)); // the consumer is busy with the first page
  expect(reads.length).toBeGreaterThan(1);
  expect(reads.length).toBeLessThan(6);
  let rest = 0;
  for await (const page of pages) rest += page.length;
  expect(rest).toBe(HEAD - PAGE_SIZE);
  expect(reads).toEqual([0, 1, 2, 3, 4, 5].map((i) => i * PAGE_SIZE));
});

it('a failed read surfaces to the consumer, after the pages before it', async () => {
  const { events } = log(PAGE_SIZE * 2);
  const seen: number[] = [];
  await expect(
    (async () => {
      for await (const page of matchingPages(events, { after: 0 }, { progress: false, label: 'test' })) seen.push(page.length);
    })(),
  ).rejects.toThrow('disk gone');
  expect(seen).toEqual([PAGE_SIZE, PAGE_SIZE]);
});
