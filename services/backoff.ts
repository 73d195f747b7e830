/**
 * Pauses between attempts at something that failed: `first`, then each twice the one before, up to `longest`.
 * Iterated, it gives them one after another for as long as the loop asks.
 */
export class Backoff implements Iterable<number> {
  private current: number;

  constructor(
    private readonly first: number,
    private readonly longest: number,
  ) {
    this.current = first;
  }

  /** The pause to wait before the next attempt; the one after will be longer. */
  pause(): number {
    const pause = this.current;
    this.current = Math.min(pause * 2, this.longest);
    return pause;
  }

  /** After a success: the next failure waits `first` again. */
  reset(): void {
    this.current = this.first;
  }

  *[Symbol.iterator](): Iterator<number> {
    for (;;) yield this.pause();
  }
}
