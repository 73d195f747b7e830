import { MAX_RANK_LENGTH, rankBetween, spread } from '../../write-api/tasks/rank';
import { prng } from '../support/prng';

const between = (lo: string | null, hi: string | null) => {
  const r = rankBetween(lo, hi);
  if (r === null) throw new Error(`no rank between ${lo} and ${hi}`);
  if (lo !== null) expect(r > lo).toBe(true);
  if (hi !== null) expect(r < hi).toBe(true);
  return r;
};

describe('ranks', () => {
  it('appends and prepends without growing the keys', () => {
    let last = between(null, null);
    let first = last;
    for (let i = 0; i < 5000; i++) {
      last = between(last, null);
      first = between(null, first);
      expect(last).toHaveLength(6);
      expect(first).toHaveLength(6);
    }
  });

  it('finds a rank between neighbours one apart, and between a rank and its own extension', () => {
    expect(between('V00000', 'V00001')).toMatch(/^V00000.+/);
    expect(between('V00000', 'V00000V')).toMatch(/^V00000.+/);
    expect(between('V00000z', 'V00001')).toMatch(/^V00000z.+/);
    expect(between(null, '000000V')).toMatch(/^000000.+/);
    expect(between('zzzzzz', null)).toMatch(/^zzzzzz.+/);
  });

  it('refuses neighbours out of order or equal, and a gap with nothing below', () => {
    expect(rankBetween('V00001', 'V00000')).toBeNull();
    expect(rankBetween('V00000', 'V00000')).toBeNull();
    expect(rankBetween(null, '000000')).toBeNull();
  });

  it('keeps a total order under thousands of random insertions', () => {
    const random = prng(42);
    const keys: string[] = [between(null, null)];
    for (let i = 0; i < 3000; i++) {
      const at = Math.floor(random() * (keys.length + 1));
      const r = rankBetween(keys[at - 1] ?? null, keys[at] ?? null);
      if (r === null) continue;
      keys.splice(at, 0, r);
    }
    expect(keys.length).toBeGreaterThan(2900);
    expect([...keys].sort()).toEqual(keys);
    expect(new Set(keys).size).toBe(keys.length);
    for (const k of keys) expect(k.length).toBeLessThanOrEqual(MAX_RANK_LENGTH);
  });

  it('runs out of short keys when always inserting into the same gap, and says so with null', () => {
    const lo = 'V00000';
    let hi = 'V00001';
    let steps = 0;
    for (;;) {
      const r = rankBetween(lo, hi);
      if (r === null) break;
      expect(r > lo && r < hi).toBe(true);
      expect(r.length).toBeLessThanOrEqual(MAX_RANK_LENGTH);
      hi = r;
      steps++;
    }
    expect(steps).toBeGreaterThan(50);
  });

  it('spreads any number of keys evenly, ascending and short', () => {
    for (const n of [1, 2, 7, 10_000]) {
      const keys = spread(n);
      expect(keys).toHaveLength(n);
      expect([...keys].sort()).toEqual(keys);
      expect(new Set(keys).size).toBe(n);
      for (const k of keys) expect(k).toHaveLength(6);
    }
    // Room left between spread keys and at both ends.
    const [a, b] = spread(2);
    expect(rankBetween(null, a)).not.toBeNull();
    expect(rankBetween(a, b)).not.toBeNull();
    expect(rankBetween(b, null)).toHaveLength(6);
  });
});
