/** The cache of serialized answers stays within its entries and its bytes, and never serves a stale answer. */
import { AnswerCache } from '../../read-api/shared/answer-cache';

const bytes = (n: number) => Buffer.alloc(n, 'x');

describe('answer cache', () => {
  it('serves an answer only at the position it was made at', () => {
    const cache = new AnswerCache();
    cache.set('a', 5, bytes(3));
    expect(cache.get('a', 6)).toBeUndefined();
    expect(cache.get('a', 5)).toBeUndefined(); // dropped when found stale
  });

  it('evicts the least recently used entries past its bytes, and keeps no answer over an eighth of them', () => {
    const cache = new AnswerCache(100, 800);
    for (const key of ['a', 'b', 'c', 'd']) cache.set(key, 1, bytes(100));
    expect(cache.get('a', 1)?.length).toBe(100); // now the most recently used
    for (const key of ['e', 'f', 'g', 'h', 'i']) cache.set(key, 1, bytes(100)); // 900 bytes asked for: one goes
    expect(cache.get('b', 1)).toBeUndefined();
    expect(['a', 'c', 'd', 'e', 'f', 'g', 'h', 'i'].every((k) => cache.get(k, 1)?.length === 100)).toBe(true);
    cache.set('big', 1, bytes(101));
    expect(cache.get('big', 1)).toBeUndefined();
  });

  it('keeps at most its number of entries', () => {
    const cache = new AnswerCache(2);
    for (const key of ['a', 'b', 'c']) cache.set(key, 1, bytes(1));
    expect(cache.get('a', 1)).toBeUndefined();
    expect(cache.get('c', 1)?.length).toBe(1);
  });
});
