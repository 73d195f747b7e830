/** A small deterministic PRNG (a linear congruential generator), so a randomized test's failure can be reproduced. */
export function prng(seed: number): () => number {
  return () => {
    seed = (seed * 1664525 + 1013904223) % 4294967296;
    return seed / 4294967296;
  };
}
