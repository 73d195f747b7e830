import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedBus } from '../../services/bus/embedded-bus';
import { logBackedBus } from '../../services/bus/log-backed-bus';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import type { ConsumedMessage } from '../../services/bus/bus.port';
import { busContract } from './bus.contract';

const dir = mkdtempSync(join(tmpdir(), 'bus-'));
let files = 0;
const newFile = () => join(dir, `bus-${++files}.db`);
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; !condition(); i++) {
    if (i > 500) throw new Error('timed out');
    await sleep(10);
  }
}

busContract('embedded', () => openEmbeddedBus(newFile()));
busContract('embedded, in front of the embedded log', async () => {
  const log = await openSqliteEventStore(join(dir, `log-${++files}.sqlite`));
  const bus = logBackedBus(await openEmbeddedBus(newFile()), log);
  return { ...bus, close: async () => { await bus.close(); await log.close(); } };
});

describe('embedded bus', () => {
  it('keeps messages and committed offsets across a reopen', async () => {
    const file = newFile();
    const first = await openEmbeddedBus(file);
    const seen: string[] = [];
    await first.subscribe('g', 't', async (m) => void seen.push(m.value), { fromBeginning: true });
    await first.publish('t', [1, 2, 3].map((i) => ({ key: 'k', value: `v${i}` })));
    await waitFor(() => seen.length === 3);
    await first.close();

    const second = await openEmbeddedBus(file);
    await second.publish('t', [{ key: 'k', value: 'v4' }]);
    const after: ConsumedMessage[] = [];
    await second.subscribe('g', 't', async (m) => void after.push(m), { fromBeginning: true });
    const replay: string[] = [];
    await second.subscribe('new-group', 't', async (m) => void replay.push(m.value), { fromBeginning: true });
    await waitFor(() => after.length === 1 && replay.length === 4);
    expect(after.map((m) => [m.value, m.offset, m.partition])).toEqual([['v4', '3', 0]]);
    expect(replay).toEqual(['v1', 'v2', 'v3', 'v4']);
    await second.close();
  });

  describe('retention', () => {
    const values = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ key: `k${i % 3}`, value: `v${from + i}` }));

    it('deletes what every group consumed and keeps each group its unconsumed messages, across a reopen', async () => {
      const file = newFile();
      const first = await openEmbeddedBus(file);
      const fast: string[] = [];
      await first.subscribe('fast', 't', async (m) => void fast.push(m.value), { fromBeginning: true });
      const slow: string[] = [];
      const slowConsumer = await first.subscribe('slow', 't', async (m) => void slow.push(m.value), { fromBeginning: true });
      await first.publish('t', values(5));
      await waitFor(() => fast.length === 5 && slow.length === 5);
      await slowConsumer.stop();
      await first.publish('t', values(5, 5));
      await waitFor(() => fast.length === 10);
      await first.compact();
      // Only the slow group's backlog is left: a group joining from the beginning starts there.
      const late: string[] = [];
      const lateConsumer = await first.subscribe('late', 't', async (m) => void late.push(m.value), { fromBeginning: true });
      await waitFor(() => late.length === 5);
      expect(late).toEqual(['v5', 'v6', 'v7', 'v8', 'v9']);
      await lateConsumer.stop();
      await first.close();

      const second = await openEmbeddedBus(file);
      const resumed: ConsumedMessage[] = [];
      await second.subscribe('slow', 't', async (m) => void resumed.push(m), { fromBeginning: true });
      await waitFor(() => resumed.length === 5);
      expect(resumed.map((m) => [m.value, m.offset])).toEqual([['v5', '5'], ['v6', '6'], ['v7', '7'], ['v8', '8'], ['v9', '9']]);
      await second.compact();
      await second.publish('t', values(1, 10));
      const fresh: ConsumedMessage[] = [];
      await second.subscribe('fresh', 't', async (m) => void fresh.push(m), { fromBeginning: true });
      await waitFor(() => fresh.length === 1);
      expect(fresh.map((m) => [m.value, m.offset])).toEqual([['v10', '10']]); // offsets go on after deletions
      await second.close();
    });

    it('keeps everything while a topic has no group', async () => {
      const bus = await openEmbeddedBus(newFile());
      await bus.publish('t', values(3));
      await bus.compact();
      const seen: string[] = [];
      await bus.subscribe('g', 't', async (m) => void seen.push(m.value), { fromBeginning: true });
      await waitFor(() => seen.length === 3);
      await bus.close();
    });

    it('gives the space of consumed messages back: the file stays the size of the backlog', async () => {
      const file = newFile();
      const bus = await openEmbeddedBus(file);
      let handled = 0;
      await bus.subscribe('g', 't', async () => void handled++, { fromBeginning: true });
      const big = 'x'.repeat(2000);
      for (let batch = 0; batch < 10; batch++) await bus.publish('t', Array.from({ length: 200 }, (_, i) => ({ key: `k${i}`, value: big })));
      await waitFor(() => handled === 2000);
      await bus.close();
      const full = statSync(file).size;
      const reopened = await openEmbeddedBus(file);
      await reopened.compact();
      await reopened.close();
      expect(full).toBeGreaterThan(4_000_000);
      expect(statSync(file).size).toBeLessThan(full / 10);
    });
  });

  it('remembers where a group started from the end even before it handled anything', async () => {
    const file = newFile();
    const first = await openEmbeddedBus(file);
    await first.publish('t', [{ key: 'k', value: 'before' }]);
    await first.subscribe('g', 't', async () => undefined);
    await first.close();
    const second = await openEmbeddedBus(file);
    await second.publish('t', [{ key: 'k', value: 'while away' }]);
    const seen: string[] = [];
    await second.subscribe('g', 't', async (m) => void seen.push(m.value));
    await waitFor(() => seen.length === 1);
    expect(seen).toEqual(['while away']);
    await second.close();
  });

  it('lets a second consumer of the same group wait as a standby, then take over', async () => {
    const bus = await openEmbeddedBus(newFile());
    const a: string[] = [];
    const b: string[] = [];
    const consumerA = await bus.subscribe('g', 't', async (m) => void a.push(m.value), { fromBeginning: true });
    await bus.subscribe('g', 't', async (m) => void b.push(m.value), { fromBeginning: true });
    await bus.publish('t', [{ key: 'k', value: '1' }]);
    await waitFor(() => a.length + b.length === 1);
    await consumerA.stop();
    await bus.publish('t', [{ key: 'k', value: '2' }]);
    await waitFor(() => a.length + b.length === 2);
    expect([...a, ...b]).toEqual(['1', '2']);
    expect(b).toContain('2');
    await bus.close();
  });
});
