import { Backoff } from '../../services/backoff';

describe('Backoff', () => {
  it('doubles each pause up to the longest, and starts over after a reset', () => {
    const backoff = new Backoff(100, 1000);
    expect([1, 2, 3, 4, 5, 6].map(() => backoff.pause())).toEqual([100, 200, 400, 800, 1000, 1000]);
    backoff.reset();
    expect([backoff.pause(), backoff.pause()]).toEqual([100, 200]);
  });

  it('gives pauses to a loop for as long as it asks', () => {
    const seen: number[] = [];
    for (const pause of new Backoff(500, 5000)) {
      seen.push(pause);
      if (seen.length === 5) break;
    }
    expect(seen).toEqual([500, 1000, 2000, 4000, 5000]);
  });
});
