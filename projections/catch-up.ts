/**
 * Brings projections behind the head of the log up to it together (a cold start, a restart after downtime, every
 * projection rebuilding at once): each page of the log is read and decoded once for all of them, their documents
 * and their checkpoints at the page's end are written in one read-store transaction. Reading the log once per
 * projection instead made a full rebuild cost as many log scans as there are projections.
 */
import type { EventStore, RecordedEvent } from '../services/eventstore/event-store.port';
import { pagesAhead } from '../services/eventstore/pages-ahead';
import type { Grouped, ReadStore } from '../services/readstore/read-store.port';

/** Events read per page: one transaction per page. */
export const CATCH_UP_PAGE = 500;
/** Pages asked for at once, at most, where the log's positions are dense (pages-ahead.ts). */
const AHEAD = 2;

export interface Page {
  /** The page's events of the types asked for. */
  events: RecordedEvent[];
  /** Position of the page's last event, of any type. */
  reached: number;
}

export interface CatchingUp {
  readonly position: number;
  readonly handles: ReadonlySet<string>;
  readonly stopped: boolean;
  /** Applies the page's events it handles past its position and checkpoints the page's end, through the batch's store. */
  applyPage(page: Page, grouped: Grouped): Promise<void>;
  /** Called once the page is committed. */
  pageApplied(reached: number): Promise<void>;
}

/**
 * Resolves at the head of the log, or when every follower stopped. With `live`, goes on past the head as new events
 * are appended (where the log can say so), until `live` aborts: projections that run together in steady state share
 * each read, each decoding and each transaction too. Only where the read store groups writes (embedded): on MongoDB
 * each write is durable on its own, and followers catching up one event at a time overlap their round trips.
 */
export async function catchUpTogether(events: EventStore, store: ReadStore, followers: readonly CatchingUp[], live?: AbortSignal): Promise<void> {
  const batch = store.batch?.bind(store);
  if (!batch) return;
  let behind = followers.filter((f) => !f.stopped);
  if (behind.length === 0) return;
  const types = new Set(behind.flatMap((f) => [...f.handles]));
  let after = Math.min(...behind.map((f) => f.position));
  const pages = pagesAhead((from) => readPage(events, from, types), CATCH_UP_PAGE, AHEAD);
  while (behind.length > 0) {
    const page = await pages.take(after);
    if (page.reached === after) {
      pages.drop();
      if (!live || !events.waitForAppend || live.aborted) return;
      await events.waitForAppend(after, live);
      behind = behind.filter((f) => !f.stopped);
      continue;
    }
    // The pages after it are read while this one is applied (on other threads, where the log can).
    pages.askAfter(after, page.reached, page.events.some((e) => e.type === 'user.erased'));
    await batch(async (grouped) => {
      for (const f of behind) await f.applyPage(page, grouped);
    });
    await Promise.all(behind.map((f) => f.pageApplied(page.reached)));
    after = page.reached;
    behind = behind.filter((f) => !f.stopped);
  }
}

async function readPage(events: EventStore, after: number, types: ReadonlySet<string>): Promise<Page> {
  if (events.readAllOf) return events.readAllOf(after, CATCH_UP_PAGE, types);
  const read = await events.readAll(after, CATCH_UP_PAGE);
  return { events: read.filter((e) => types.has(e.type)), reached: read.at(-1)?.position ?? after };
}
