import { pagesAhead } from '../../services/eventstore/pages-ahead';

/** A log of events at the positions given, read ten at a time; each read records where it began. */
function log(positions: number[]) {
  const reads: number[] = [];
  const read = async (after: number) => {
    reads.push(after);
    return positions.filter((p) => p > after).slice(0, 10);
  };
  return { reads, read };
}

const dense = (n: number) => Array.from({ length: n }, (_, i) => i + 1);

/** Reads the whole log as a reader does, page after page; returns the pages' first positions. */
async function readThrough(pages: ReturnType<typeof pagesAhead<number[]>>, erasureAt?: number) {
  const starts: number[] = [];
  for (let after = 0; ; ) {
    const page = await pages.take(after);
    if (page.length === 0) return starts;
    starts.push(page[0]);
    const reached = page[page.length - 1];
    pages.askAfter(after, reached, erasureAt !== undefined && page.includes(erasureAt));
    after = reached;
  }
}

describe('pages asked for ahead', () => {
  it('asks for the pages after the next one while positions are dense, and uses each once', async () => {
    const { reads, read } = log(dense(45));
    const pages = pagesAhead(read, 10, 3);
    expect(await readThrough(pages)).toEqual([1, 11, 21, 31, 41]);
    // Three pages in hand after each full one, each asked for once. The last page was not full: the two guesses past
    // it are dropped, and what follows it is read from where it ended (nothing, at the head).
    expect(reads).toEqual([0, 10, 20, 30, 40, 50, 60, 45]);
  });

  it('drops a guess when the page before ended elsewhere (sparse positions), and reads on from where it did', async () => {
    const positions = [...dense(10), ...dense(20).map((p) => p * 3 + 10)];
    const { reads, read } = log(positions);
    const pages = pagesAhead(read, 10, 3);
    const starts = await readThrough(pages);
    expect(starts).toEqual([1, 13, 43]);
    // 10, 20 and 30 were guessed after the first full page; the second ended at 40, so 20 and 30 were dropped.
    expect(reads).toEqual([0, 10, 20, 30, 40, 70]);
  });

  it('keeps nothing asked for ahead of a page holding an erasure', async () => {
    const { reads, read } = log(dense(30));
    const pages = pagesAhead(read, 10, 3);
    expect(await readThrough(pages, 15)).toEqual([1, 11, 21]);
    // The pages at 20 and 30, asked for before the erasure was read, are asked for again after it.
    expect(reads).toEqual([0, 10, 20, 30, 20, 30, 40, 50]);
  });

  it('asks for nothing at or past the end given', async () => {
    const { reads, read } = log(dense(100));
    const pages = pagesAhead(read, 10, 3);
    await pages.take(0);
    pages.askAfter(0, 10, false, 25);
    expect(reads).toEqual([0, 10, 20]);
  });
});
