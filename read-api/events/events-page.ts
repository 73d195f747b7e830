/**
 * One page of GET /events: single events and occurrences overlapping [from, to), ordered by (start, id). Single
 * events are read a page at a time (keyset on `_startMs`, `_id`); each series is expanded lazily from where the page
 * starts and only as far as the page needs; the sources merge by their next start. An occurrence is its own four
 * fields spliced onto the series' JSON, serialized once per page, so memory follows the page, not occurrences times
 * the size of a series; a page also stops at EVENTS_PAGE_BYTES, so one answer never costs more than that to build.
 * A changed occurrence (an exception of its series) has its own fields spliced in instead of the series' (only those
 * few are serialized for it); a moved one sorts at its real start.
 */
import { EVENTS_PAGE_BYTES, OCCURRENCE_FIELDS, type Event, type OccurrenceException } from '../../contracts/events';
import { publicView, type ReadModels } from '../../projections/read-models';
import { overlapFilters } from '../../projections/event-span';
import { SCHEDULE } from '../../projections/schedule.projection';
import type { Collection, Doc, Filter } from '../../services/readstore/read-store.port';
import { instancesOf, type Instance } from '../../services/time/recurrence';
import { singleView } from '../../write-api/schedule/occurrence-view';
import { decodePageKey, encodePageKey, invalidPageToken } from '../shared/paging';
import { calendarAccessOf, eventCalendarIds } from '../spaces/calendar-access';

type EventDoc = Doc & Event & { _startMs: number };
const COMMA = Buffer.from(',');

export interface EventsPageQuery {
  from: number;
  to: number;
  spaces?: string[];
  limit: number;
  pageToken?: string;
}

/**
 * Where an item sorts: its start, its event id, then its original start (a moved occurrence may share a start with
 * another of its series; a single event's is its start).
 */
interface Key {
  start: number;
  id: string;
  original: number;
}
const isAfter = (a: Key, b: Key) =>
  a.start > b.start || (a.start === b.start && (a.id > b.id || (a.id === b.id && a.original > b.original)));

function keyOf(token: string): Key {
  const m = /^(-?\d{1,16})\|([\w-]{1,64})(?:\|(-?\d{1,16}))?$/.exec(decodePageKey(token));
  if (!m) throw invalidPageToken();
  return { start: Number(m[1]), id: m[2], original: Number(m[3] ?? m[1]) };
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
    json: () => [Buffer.from(JSON.stringify(singleView(publicView<Event>(docs[i]))))],
    advance: () => {
      i++;
      source.next = i < docs.length ? keyOfDoc(docs[i]) : null;
    },
  };
  source.next = docs.length ? keyOfDoc(docs[0]) : null;
  return source;
}

const keyOfDoc = (doc: EventDoc): Key => ({ start: doc._startMs, id: doc._id, original: doc._startMs });

/** Fields of the series an occurrence may have of its own (its times aside): spliced in per occurrence. */
const OWN_FIELDS: readonly string[] = OCCURRENCE_FIELDS.filter((f) => f !== 'startsAt' && f !== 'endsAt');

/** A series' JSON in two pieces: its fields an occurrence may override, and the rest after them (to the closing brace). */
function seriesPieces(series: Event) {
  const own: Record<string, unknown> = {};
  const shared: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(series)) {
    if (k === 'startsAt' || k === 'endsAt' || k === 'exceptions') continue;
    (OWN_FIELDS.includes(k) ? own : shared)[k] = v;
  }
  return { own, ownJson: Buffer.from(`${JSON.stringify(own).slice(1, -1)},`), shared: Buffer.from(JSON.stringify(shared).slice(1)) };
}

/** The occurrence's own fields over the series', as JSON pieces of an object (no braces). */
function ownJson(pieces: ReturnType<typeof seriesPieces>, change: OccurrenceException): Buffer {
  const { occurrenceStartsAt: _o, cancelled: _c, startsAt: _s, endsAt: _e, ...fields } = change;
  return Buffer.from(`${JSON.stringify({ ...pieces.own, ...fields }).slice(1, -1)},`);
}

function occurrencesOf(doc: EventDoc, from: number, to: number, after: Key | null): Source {
  const instances = instancesOf(doc, from, to, after?.start);
  let current: Instance<OccurrenceException> | null = null;
  let pieces: ReturnType<typeof seriesPieces> | null = null;
  const source: Source = {
    next: null,
    json: () => {
      pieces ??= seriesPieces(publicView<Event>(doc));
      const o = current!;
      const startsAt = JSON.stringify(new Date(o.start).toISOString());
      const original = o.original === o.start ? startsAt : JSON.stringify(new Date(o.original).toISOString());
      const times = `{"startsAt":${startsAt},"endsAt":${JSON.stringify(new Date(o.end).toISOString())},"seriesId":${JSON.stringify(doc.id)},"occurrenceStartsAt":${original},`;
      return [Buffer.from(times), o.change ? ownJson(pieces, o.change) : pieces.ownJson, pieces.shared];
    },
    advance: () => {
      for (let r = instances.next(); ; r = instances.next()) {
        current = r.done ? null : r.value;
        source.next = current && { start: current.start, id: doc.id, original: current.original };
        if (!source.next || !after || isAfter(source.next, after)) return;
      }
    },
  };
  source.advance();
  return source;
}

const byKey = (a: EventDoc, b: EventDoc) => a._startMs - b._startMs || (a._id < b._id ? -1 : a._id > b._id ? 1 : 0);

/** The first `limit` single events overlapping [from, to) after the token's key, in key order: a page per span class. */
async function singlesPage(events: Collection<EventDoc>, calendars: Filter, from: number, to: number, after: Key | null, limit: number) {
  const page = { sort: [['_startMs', 1], ['_id', 1]] as Array<[string, 1]>, limit };
  const pages = overlapFilters(from, to, 'singles').flatMap((f) => {
    const inClass = { ...calendars, ...f };
    if (!after) return [events.find(inClass, page)];
    return [
      events.find({ ...inClass, _startMs: after.start, _id: { $gt: after.id } }, page),
      events.find({ ...inClass, _startMs: { ...(f._startMs as object), $gt: after.start } }, page),
    ];
  });
  return (await Promise.all(pages)).flat().sort(byKey).slice(0, limit);
}

/** The page as the JSON answer `{events, nextPageToken}`: events of the calendars whose events the user sees. */
export async function eventsPage(models: ReadModels, userId: string, q: EventsPageQuery): Promise<Buffer> {
  const access = (await calendarAccessOf(models, userId)).filter((a) => !q.spaces || q.spaces.includes(a.calendar.spaceId));
  const calendarIds = eventCalendarIds(access);
  const after = q.pageToken === undefined ? null : keyOf(q.pageToken);
  const sources: Source[] = [];
  if (calendarIds.length) {
    const events = (await models.docs(SCHEDULE))<EventDoc>('events');
    const calendars: Filter = { calendarId: { $in: calendarIds }, deletedAt: null };
    const from = Math.max(q.from, after?.start ?? q.from);
    sources.push(singles(await singlesPage(events, calendars, from, q.to, after, q.limit + 1)));
    for (const doc of await events.find({ ...calendars, ...overlapFilters(from, q.to, 'series')[0] })) {
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
  const nextPageToken = more ? encodePageKey(`${last!.start}|${last!.id}|${last!.original}`) : null;
  chunks.push(Buffer.from(`],"nextPageToken":${JSON.stringify(nextPageToken)}}`));
  return Buffer.concat(chunks); // one copy of each piece; the series' bytes are shared until here
}
