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
  try {
    let after = filter.after;
    let left = filter.limit ?? Number.POSITIVE_INFINITY;
    while (after < end && left > 0) {
      const page = await events.readAll(after, PAGE_SIZE);
      if (page.length === 0) break;
      const inRange = page.filter((e) => e.position <= end);
      const kept = inRange.filter(matches).slice(0, left);
      left -= kept.length;
      if (kept.length > 0) yield kept;
      after = page[page.length - 1].position;
      bar.update(Math.min(after, end) - filter.after);
      if (inRange.length < page.length) break;
    }
  } finally {
    bar.stop();
  }
}
