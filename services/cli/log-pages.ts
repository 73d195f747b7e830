/**
 * Reads the event log in pages (never the whole log in memory) between two positions, keeping the events that pass
 * a filter. Only the position range narrows the read; stream, type, user, space and time are checked per event, so
 * a filtered export still scans its whole position range.
 */
import type { EventStore, RecordedEvent } from '../eventstore/event-store.port';
import { progressBar } from './progress';

export const PAGE_SIZE = 2000;

export interface EventFilter {
  /** Exclusive. */
  after: number;
  /** Inclusive; the head of the log when absent. */
  to?: number;
  stream?: string;
  types?: readonly string[];
  /** metadata.userId */
  user?: string;
  /** metadata.spaceId */
  space?: string;
  /** metadata.occurredAt >= since (epoch ms) */
  since?: number;
  /** metadata.occurredAt < until (epoch ms) */
  until?: number;
  /** At most this many matching events (the first ones in log order). */
  limit?: number;
}

export function eventMatcher(filter: EventFilter): (e: RecordedEvent) => boolean {
  const types = filter.types?.length ? new Set(filter.types) : null;
  const timed = filter.since !== undefined || filter.until !== undefined;
  return (e) => {
    if (filter.stream !== undefined && e.streamId !== filter.stream) return false;
    if (types && !types.has(e.type)) return false;
    if (filter.user !== undefined && e.metadata.userId !== filter.user) return false;
    if (filter.space !== undefined && e.metadata.spaceId !== filter.space) return false;
    if (timed) {
      const at = Date.parse(e.metadata.occurredAt);
      if (filter.since !== undefined && !(at >= filter.since)) return false;
      if (filter.until !== undefined && !(at < filter.until)) return false;
    }
    return true;
  };
}

export interface ScanOptions {
  /** Shows a bar over the position range on stderr. */
  progress: boolean;
  label: string;
}

/** Yields each page's matching events, in log order; pages with no match are skipped. */
export async function* matchingPages(events: EventStore, filter: EventFilter, options: ScanOptions): AsyncGenerator<RecordedEvent[]> {
  const head = await events.headPosition();
  const end = Math.min(filter.to ?? head, head);
  const matches = eventMatcher(filter);
  const bar = progressBar(options.progress, options.label, Math.max(0, end - filter.after), 'positions');
  const pages = readingAhead(events, filter.after, end);
  try {
    let left = filter.limit ?? Number.POSITIVE_INFINITY;
    for (let page = await pages.next(); page && left > 0; page = await pages.next()) {
      const kept = page.filter((e) => e.position <= end && matches(e)).slice(0, left);
      left -= kept.length;
      if (kept.length > 0) yield kept;
      bar.update(Math.min(page[page.length - 1].position, end) - filter.after);
    }
  } finally {
    pages.stop();
    bar.stop();
  }
}

/** Pages read and waiting for the consumer, at most. */
const AHEAD = 3;

/**
 * The log's pages from `after` until one reaches `end`, each asked for as soon as the one before it arrived (up to
 * AHEAD waiting): the log's worker, where it has one, reads and opens them while the consumer handles earlier ones.
 * `next()` gives null after the last page, and throws what a read threw.
 */
function readingAhead(events: EventStore, after: number, end: number) {
  const ready: RecordedEvent[][] = [];
  let reading = false;
  let ended = after >= end;
  let failure: { error: unknown } | null = null;
  let arrived: (() => void) | null = null;
  const read = () => {
    if (reading || ended || ready.length >= AHEAD) return;
    reading = true;
    events.readAll(after, PAGE_SIZE).then(
      (page) => {
        if (page.length > 0) {
          ready.push(page);
          after = page[page.length - 1].position;
        }
        ended ||= page.length === 0 || after >= end;
        settled();
      },
      (error: unknown) => {
        failure = { error };
        ended = true;
        settled();
      },
    );
  };
  const settled = () => {
    reading = false;
    arrived?.();
    arrived = null;
    read();
  };
  return {
    async next(): Promise<RecordedEvent[] | null> {
      for (;;) {
        read();
        const page = ready.shift();
        if (page) return page;
        if (failure) throw failure.error;
        if (ended && !reading) return null;
        await new Promise<void>((resolve) => (arrived = resolve));
      }
    },
    stop() {
      ended = true;
    },
  };
}
