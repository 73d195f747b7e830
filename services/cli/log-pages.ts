/**
 * Reads the event log in pages (never the whole log in memory) between two positions, keeping the events that pass
 * a filter. Only the position range narrows the read; stream, type, user, space and time are checked per event, so
 * a filtered export still scans its whole position range.
 */
import type { EventStore, RecordedEvent } from '../eventstore/event-store.port';
import { pagesAhead } from '../eventstore/pages-ahead';
import type { Sink } from './output';
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
  try {
    let left = filter.limit ?? Number.POSITIVE_INFINITY;
    for await (const page of readingAhead(events, filter.after, end)) {
      const kept = page.filter((e) => e.position <= end && matches(e)).slice(0, left);
      left -= kept.length;
      if (kept.length > 0) yield kept;
      bar.update(Math.min(page[page.length - 1].position, end) - filter.after);
      if (left <= 0) break;
    }
  } finally {
    bar.stop();
  }
}

export interface Written {
  events: number;
  firstPosition: number | null;
  lastPosition: number | null;
}

/**
 * The events `filter` keeps as NDJSON, one recorded event per line (the shape a replay reads back), into `sink`,
 * which is closed at the end, or aborted when anything fails.
 */
export async function writeNdjson(events: EventStore, filter: EventFilter, sink: Sink, scan: ScanOptions): Promise<Written> {
  const written: Written = { events: 0, firstPosition: null, lastPosition: null };
  try {
    for await (const page of matchingPages(events, filter, scan)) {
      written.firstPosition ??= page[0].position;
      written.lastPosition = page[page.length - 1].position;
      written.events += page.length;
      await sink.write(`${page.map((e) => JSON.stringify(e)).join('\n')}\n`);
    }
    await sink.close();
    return written;
  } catch (err) {
    sink.abort();
    throw err;
  }
}

/** Pages asked for at once, at most, where the log's positions are dense (pages-ahead.ts). */
const AHEAD = 3;

/** The log's pages from `after` until one reaches `end`, in order; a failed read throws where its page is due. */
async function* readingAhead(events: EventStore, after: number, end: number): AsyncGenerator<RecordedEvent[]> {
  const pages = pagesAhead((from) => events.readAll(from, PAGE_SIZE), PAGE_SIZE, AHEAD);
  for (let from = after; from < end; ) {
    const page = await pages.take(from);
    if (page.length === 0) return;
    const reached = page[page.length - 1].position;
    pages.askAfter(from, reached, page.some((e) => e.type === 'user.erased'), end);
    yield page;
    from = reached;
  }
}
