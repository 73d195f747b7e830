/**
 * Pages of the log asked for before their reader gets to them, so that the log's worker threads (log-pages.ts) read
 * and open them side by side while the reader handles earlier ones. A page is read after a position, and the next
 * one starts where it ended; where positions are dense (the embedded log numbers its events 1, 2, 3, ...) a full
 * page ends `size` positions on, so the pages after the next one can be guessed and asked for too. A guess is used
 * only when the page before it did end there, and never after a page holding an erasure: a page asked for before
 * the erasure was decoded may have been opened with the erased user's key. Otherwise it is dropped and read again.
 */
export interface PagesAhead<P> {
  /** The page after `after`: the one asked for ahead when it starts there, else one read now. */
  take(after: number): Promise<P>;
  /**
   * Once the page after `after` ended at `reached`: asks for the next one, and for those after it while positions
   * are dense, none starting at or past `end`. `erases`: the page holds an erasure, so nothing asked for is kept.
   */
  askAfter(after: number, reached: number, erases: boolean, end?: number): void;
  /** Drops what was asked for (the reader will wait for new events before reading on). */
  drop(): void;
}

export function pagesAhead<P>(read: (after: number) => Promise<P>, size: number, ahead: number): PagesAhead<P> {
  let asked: Array<{ after: number; page: Promise<P> }> = [];
  const ask = (from: number) => {
    const page = read(from);
    page.catch(() => undefined); // reported where it is awaited; nowhere if dropped
    asked.push({ after: from, page });
  };
  return {
    take(after) {
      if (asked[0]?.after !== after) asked = [];
      if (asked.length === 0) ask(after);
      return asked.shift()!.page;
    },
    askAfter(after, reached, erases, end = Number.POSITIVE_INFINITY) {
      if (erases || asked[0]?.after !== reached) asked = [];
      const wanted = reached - after === size ? ahead : 1;
      let from = asked.length > 0 ? asked[asked.length - 1].after + size : reached;
      for (; from < end && asked.length < wanted; from += size) ask(from);
    },
    drop() {
      asked = [];
    },
  };
}
