import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openEmbeddedBus } from '../../services/bus/embedded-bus';
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
