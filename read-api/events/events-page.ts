/**
 * One page of GET /events: single events and occurrences overlapping [from, to), ordered by (start, id). Single
 * events are read a page at a time (keyset on `_startMs`, `_id`); each series is expanded lazily from where the page
 * starts and only as far as the page needs; the sources merge by their next start. An occurrence is its own four
 * fields spliced onto the series' JSON, serialized once per page, so memory follows the page, not occurrences times
 * the size of a series; a page also stops at EVENTS_PAGE_BYTES, so one answer never costs more than that to build.
 */
import { EVENTS_PAGE_BYTES, type Event } from '../../contracts/events';
import { publicView, type ReadModels } from '../../projections/read-models';
import { overlapFilters } from '../../projections/event-span';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { Collection, Doc, Filter } from '../../services/readstore/read-store.port';
import { occurrenceStarts } from '../../services/time/recurrence';
import { decodePageKey, encodePageKey, invalidPageToken } from '../shared/paging';
import { spaceIdsOf } from '../spaces/spaces.queries';

type EventDoc = Doc & Event & { _startMs: number };
const COMMA = Buffer.from(',');

export interface EventsPageQuery {
  from: number;
  to: number;
  spaces?: string[];
  limit: number;
  pageToken?: string;
}

/** Where an item sorts: its start, then its event id (unique: a series never starts twice at one instant). */
interface Key {
  start: number;
  id: string;
}
const isAfter = (a: Key, b: Key) => a.start > b.start || (a.start === b.start && a.id > b.id);

function keyOf(token: string): Key {
  const m = /^(-?\d{1,16})\|([\w-]{1,64})$/.exec(decodePageKey(token));
  if (!m) throw invalidPageToken();
  return { start: Number(m[1]), id: m[2] };
}

/** Items in key order: the page's single events, or one series' occurrences. */
interface Source {
  next: Key | null;
  /** The current item as JSON, in pieces (an occurrence: its own fields, then the series' shared bytes). */
  json(): Buffer[];
  advance(): void;
}

function singles(docs: EventDoc[]): Source {
  let i = 0;
  const source: Source = {
    next: null,
    json: () => [Buffer.from(JSON.stringify({ ...publicView<Event>(docs[i]), seriesId: null, occurrenceStartsAt: null }))],
    advance: () => {
      i++;
      source.next = i < docs.length ? { start: docs[i]._startMs, id: docs[i]._id } : null;
    },
  };
  source.next = docs.length ? { start: docs[0]._startMs, id: docs[0]._id } : null;
  return source;
}

function occurrencesOf(doc: EventDoc, from: number, to: number, after: Key | null): Source {
  const duration = Date.parse(doc.endsAt) - Date.parse(doc.startsAt);
  // Starts from the token's instant on: occurrenceStarts yields those overlapping [x, to), so starting at x - d + 1.
  const starts = occurrenceStarts(doc, after ? Math.max(from, after.start + duration - 1) : from, to);
  let tail: Buffer | null = null; // the series' JSON after its opening brace, without the series' own times
  const source: Source = {
    next: null,
    json: () => {
      if (tail === null) {
        const { startsAt: _s, endsAt: _e, ...series } = publicView<Event>(doc);
        tail = Buffer.from(JSON.stringify(series).slice(1));
      }
      const startsAt = JSON.stringify(new Date(source.next!.start).toISOString());
      const endsAt = JSON.stringify(new Date(source.next!.start + duration).toISOString());
      const own = `{"startsAt":${startsAt},"endsAt":${endsAt},"seriesId":${JSON.stringify(doc.id)},"occurrenceStartsAt":${startsAt},`;
      return [Buffer.from(own), tail];
    },
    advance: () => {
      for (let r = starts.next(); ; r = starts.next()) {
        source.next = r.done ? null : { start: r.value, id: doc.id };
        if (!source.next || !after || isAfter(source.next, after)) return;
      }
    },
  };
  source.advance();
  return source;
}

const byKey = (a: EventDoc, b: EventDoc) => a._startMs - b._startMs || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

/** The first `limit` single events overlapping [from, to) after the token's key, in key order: a page per span class. */
async function singlesPage(events: Collection<EventDoc>, spaces: Filter, from: number, to: number, after: Key | null, limit: number) {
  const page = { sort: [['_startMs', 1], ['_id', 1]] as Array<[string, 1]>, limit };
  const pages = overlapFilters(from, to, 'singles').flatMap((f) => {
    const inClass = { ...spaces, ...f };
    if (!after) return [events.find(inClass, page)];
    return [
      events.find({ ...inClass, _startMs: after.start, _id: { $gt: after.id } }, page),
      events.find({ ...inClass, _startMs: { ...(f._startMs as object), $gt: after.start } }, page),
    ];
  });
  return (await Promise.all(pages)).flat().sort(byKey).slice(0, limit);
}

/** The page as the JSON answer `{events, nextPageToken}`. */
export async function eventsPage(models: ReadModels, userId: string, q: EventsPageQuery): Promise<Buffer> {
  let spaceIds = await spaceIdsOf(models, userId);
  if (q.spaces) spaceIds = spaceIds.filter((id) => q.spaces!.includes(id));
  const after = q.pageToken === undefined ? null : keyOf(q.pageToken);
  const sources: Source[] = [];
  if (spaceIds.length) {
    const events = (await models.docs(SCHEDULE))<EventDoc>('events');
    const spaces: Filter = { spaceId: { $in: spaceIds }, deletedAt: null };
    const from = Math.max(q.from, after?.start ?? q.from);
    sources.push(singles(await singlesPage(events, spaces, from, q.to, after, q.limit + 1)));
    for (const doc of await events.find({ ...spaces, ...overlapFilters(from, q.to, 'series')[0] })) {
      sources.push(occurrencesOf(doc, q.from, q.to, after));
    }
  }
  const chunks: Buffer[] = [Buffer.from('{"events":[')];
  let items = 0;
  let bytes = 0;
  let last: Key | null = null;
  while (items < q.limit && bytes < EVENTS_PAGE_BYTES) {
    let best: Source | null = null;
    for (const s of sources) if (s.next && (!best || isAfter(best.next!, s.next))) best = s;
    if (!best) break;
    if (items++ > 0) chunks.push(COMMA);
    for (const chunk of best.json()) {
      chunks.push(chunk);
      bytes += chunk.length;
    }
    last = best.next;
    best.advance();
  }
  const more = last !== null && sources.some((s) => s.next !== null);
  const nextPageToken = more ? encodePageKey(`${last!.start}|${last!.id}`) : null;
  chunks.push(Buffer.from(`],"nextPageToken":${JSON.stringify(nextPageToken)}}`));
  return Buffer.concat(chunks); // one copy of each piece; the series' bytes are shared until here
}
