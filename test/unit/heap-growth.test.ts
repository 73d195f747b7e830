/**
 * services/heap-growth.ts: the bound must reach V8 from a running process (the flag is set after start-up), so two
 * child processes run the same allocation churn, one bounded and one left to V8's rule, and compare their peak heap.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { loadConfig } from '../../services/config';
import { requireBuild } from '../support/service-child';

const BUILT = path.resolve(__dirname, '../../dist/services/heap-growth.js');

/** About 30 MB that stays live, then garbage in rounds: the largest heapTotal seen, in MB. */
const CHURN = `
  require(process.argv[1]).boundHeapGrowth(Number(process.argv[2]));
  const live = [];
  for (let i = 0; i < 150000; i++) live.push({ id: 'x' + i, n: i, s: 'abcdefghij'.repeat(5) + i });
  let max = 0;
  let garbage = [];
  for (let round = 0; round < 150; round++) {
    for (let i = 0; i < 20000; i++) garbage.push({ a: 'y' + i + round, b: [i, round], c: 'q'.repeat(40) + i });
    if (garbage.length > 60000) garbage = [];
    max = Math.max(max, process.memoryUsage().heapTotal);
  }
  process.stdout.write(JSON.stringify({ peakMb: max / 2 ** 20, live: live.length }));
`;

const peakHeapMb = (percent: number): number =>
  JSON.parse(execFileSync(process.execPath, ['-e', CHURN, BUILT, String(percent)], { encoding: 'utf8', timeout: 60_000 })).peakMb;

describe('bounded heap growth', () => {
  beforeAll(requireBuild);

  test('a bound of 100 % keeps the peak heap well under what V8 allows itself for the same work', () => {
    const own = peakHeapMb(0);
    const bounded = peakHeapMb(100);
    // Measured here: about 280 MB left to V8, 175 MB bounded.
    expect(bounded).toBeLessThan(own * 0.8);
  });

  test('the service bounds it by default, and the setting is validated', () => {
    expect(loadConfig({}).HEAP_GROWING_PERCENT).toBe(100);
    expect(loadConfig({ HEAP_GROWING_PERCENT: '0' }).HEAP_GROWING_PERCENT).toBe(0);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: '-5' })).toThrow(/HEAP_GROWING_PERCENT/);
    expect(() => loadConfig({ HEAP_GROWING_PERCENT: 'lots' })).toThrow(/HEAP_GROWING_PERCENT/);
  });
});
