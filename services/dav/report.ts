/**
 * REPORTs on a calendar collection: calendar-query (comp, time-range and prop text-match filters; a recurring event
 * matches when one of its occurrences does, its exceptions applied), calendar-multiget, sync-collection (RFC 6578;
 * tokens are log positions) and free-busy-query. Every answer is bounded (MAX_* below).
 */
import type { Element } from '@xmldom/xmldom';
import type { Event } from '../../contracts/events';
import { ApiError } from '../errors';
import { writeFreeBusy } from '../ical';
import { sha256 } from '../ids';
import { occurrences } from '../time/recurrence';
import { requireScope } from './auth';
import type { Collection, CollectionState, DavObject } from './collections';
import { collectionFor, textsOf, type DavContext } from './context';
import { c, d, multistatus, propResponse, statusResponse, type Props } from './multistatus';
import { collectionHref, objectHref, targetOf } from './paths';
import { objectProps, SYNC_TOKEN_PREFIX, syncTokenOf } from './properties';
import { Precondition, type DavReply } from './objects';
import { childElements, firstChild, nameOf, parseXml, textIn, x } from './xml';

export const MAX_QUERY_RESULTS = 2000;
export const MAX_MULTIGET_HREFS = 1000;
export const MAX_SYNC_CHANGES = 2000;

type Target = { user: string; segment: string };
const eventsOf = (o: DavObject) => [o.series, ...o.rdates].filter((e): e is Event => e !== null);

/** `20060104T000000Z` (RFC 4791 9.9) as ms. */
function utcOf(value: string | null, what: string): number | null {
  if (value === null || value === '') return null;
  const m = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/.exec(value);
  const ms = m ? Date.UTC(+m[1], +m[2] - 1, +m[3], +m[4], +m[5], +m[6]) : Number.NaN;
  if (Number.isNaN(ms)) throw new ApiError(400, 'invalid_request', `${what} must be a UTC date-time such as 20260101T000000Z`);
  return ms;
}

function rangeOf(el: Element): { from: number; to: number } {
  const from = utcOf(el.getAttribute('start'), 'time-range start') ?? -8.64e15;
  const to = utcOf(el.getAttribute('end'), 'time-range end') ?? 8.64e15;
  if (to <= from) throw new ApiError(400, 'invalid_request', 'time-range end must be after its start');
  return { from, to };
}

const overlaps = (o: DavObject, r: { from: number; to: number }) => eventsOf(o).some((e) => occurrences(e, r.from, r.to).length > 0);

const PROPERTY_VALUES: Record<string, (o: DavObject, e: Event) => string | null> = {
  UID: (o) => o.uid,
  SUMMARY: (_o, e) => e.title,
  DESCRIPTION: (_o, e) => e.description,
  LOCATION: (_o, e) => e.location,
};

/** A prop-filter (RFC 4791 9.7.2) on the properties we model: is-not-defined or a case-insensitive text-match. */
function propMatches(filter: Element, o: DavObject): boolean {
  const value = PROPERTY_VALUES[(filter.getAttribute('name') ?? '').toUpperCase()];
  const values = value ? eventsOf(o).map((e) => value(o, e)).filter((v): v is string => !!v) : [];
  if (firstChild(filter, c('is-not-defined'))) return values.length === 0;
  const match = firstChild(filter, c('text-match'));
  if (!match) return values.length > 0;
  const wanted = textIn(match).toLowerCase();
  const found = values.some((v) => v.toLowerCase().includes(wanted));
  return match.getAttribute('negate-condition') === 'yes' ? !found : found;
}

/** Whether the VEVENT comp-filter (inside VCALENDAR) matches; a filter on any other component matches nothing. */
function compMatches(filter: Element | undefined, o: DavObject): boolean {
  if (!filter) return true;
  if (filter.getAttribute('name') !== 'VCALENDAR') return false;
  const inner = firstChild(filter, c('comp-filter'));
  if (!inner) return true;
  if (inner.getAttribute('name') !== 'VEVENT') return false;
  if (firstChild(inner, c('is-not-defined'))) return false;
  const range = firstChild(inner, c('time-range'));
  if (range && !overlaps(o, rangeOf(range))) return false;
  return childElements(inner, c('prop-filter')).every((p) => propMatches(p, o));
}

/** The properties asked for (`DAV:prop`), calendar-data among them when asked. */
function askedProps(report: Element): string[] {
  const prop = firstChild(report, d('prop'));
  return prop ? childElements(prop).map(nameOf) : [d('getetag')];
}

/** The range of `<C:calendar-data><C:expand start end/>` when asked (RFC 4791 9.6.5), else null. */
function expandOf(report: Element): { from: number; to: number } | null {
  const data = firstChild(firstChild(report, d('prop')) ?? report, c('calendar-data'));
  const expand = data && firstChild(data, c('expand'));
  return expand ? rangeOf(expand) : null;
}

async function objectResponses(ctx: DavContext, collection: Collection, t: Target, objects: DavObject[], report: Element) {
  const asked = askedProps(report);
  const texts = asked.includes(c('calendar-data')) ? await textsOf(ctx, collection, objects, expandOf(report)) : new Map<string, string>();
  return objects.map((o) => {
    const props: Props = objectProps(o, collection.writable);
    const text = texts.get(o.uid);
    if (text !== undefined) props.set(c('calendar-data'), [text]);
    return propResponse(objectHref(ctx.user.username, t.segment, o.uid), props, asked);
  });
}

/** The request URI itself with 507: the answer was cut at a bound (RFC 4791 7.8, RFC 6578 3.6). */
const truncated = (ctx: DavContext, t: Target) => statusResponse(collectionHref(ctx.user.username, t.segment), 507);

function calendarQuery(report: Element, state: CollectionState) {
  const filter = firstChild(report, c('filter'));
  const top = filter ? firstChild(filter, c('comp-filter')) : undefined;
  const matched: DavObject[] = [];
  for (const o of state.objects.values()) {
    if (compMatches(top, o)) matched.push(o);
    if (matched.length > MAX_QUERY_RESULTS) break;
  }
  return matched;
}

function multiget(report: Element, state: CollectionState, t: Target): { found: DavObject[]; missing: string[] } {
  const hrefs = childElements(report, d('href')).map(textIn);
  if (hrefs.length > MAX_MULTIGET_HREFS) throw new ApiError(400, 'invalid_request', `A calendar-multiget names at most ${MAX_MULTIGET_HREFS} hrefs`);
  const found: DavObject[] = [];
  const missing: string[] = [];
  for (const href of hrefs) {
    const path = href.replace(/^https?:\/\/[^/]+/, '').replace(/^\/dav/, '');
    const target = targetOf(path);
    const o = target.kind === 'object' && target.segment === t.segment ? state.objects.get(target.uid) : undefined;
    if (o) found.push(o);
    else missing.push(href);
  }
  return { found, missing };
}

const invalidToken = () => new Precondition(d('valid-sync-token'), 'The sync token was not issued by this collection');

/** The position a sync token names; 403 DAV:valid-sync-token for one this collection never issued. */
function tokenPosition(token: string, state: CollectionState): number {
  if (token === '') return 0;
  if (!token.startsWith(SYNC_TOKEN_PREFIX)) throw invalidToken();
  const digits = token.slice(SYNC_TOKEN_PREFIX.length);
  const position = /^\d{1,15}$/.test(digits) ? Number(digits) : Number.NaN;
  if (!(position <= state.position)) throw invalidToken();
  return position;
}

async function syncCollection(ctx: DavContext, report: Element, collection: Collection, state: CollectionState, t: Target) {
  if (textIn(firstChild(report, d('sync-level'))) === 'infinite') {
    throw new Precondition(d('supported-report'), 'Calendar collections hold no collections: sync-level 1 only');
  }
  const since = tokenPosition(textIn(firstChild(report, d('sync-token'))), state);
  const changed = new Map<string, { live: boolean; position: number }>();
  for (const change of state.changes) if (change.position > since) changed.set(change.uid, change);
  // An initial sync lists the members there are; removals are news only to a client that had a token (RFC 6578 3.8).
  if (since === 0) for (const [uid, change] of changed) if (!change.live) changed.delete(uid);
  const limit = Math.min(MAX_SYNC_CHANGES, Number(textIn(firstChild(firstChild(report, d('limit')) ?? report, d('nresults')))) || MAX_SYNC_CHANGES);
  const ordered = [...changed.entries()].sort((a, b) => a[1].position - b[1].position);
  const page = ordered.slice(0, limit);
  const cut = page.length < ordered.length;
  const token = syncTokenOf(cut ? page[page.length - 1][1].position : state.position);
  const live = page.filter(([uid, ch]) => ch.live && state.objects.has(uid)).map(([uid]) => state.objects.get(uid)!);
  const gone = page.filter(([uid, ch]) => !ch.live || !state.objects.has(uid)).map(([uid]) => objectHref(ctx.user.username, t.segment, uid));
  const responses = [
    ...(await objectResponses(ctx, collection, t, live, report)),
    ...gone.map((href) => statusResponse(href, 404)),
    ...(cut ? [truncated(ctx, t)] : []),
  ];
  return multistatus(responses, [x(d('sync-token'), token)]);
}

function freeBusy(report: Element, state: CollectionState): string {
  const range = firstChild(report, c('time-range'));
  if (!range) throw new ApiError(400, 'invalid_request', 'A free-busy-query needs a time-range');
  const { from, to } = rangeOf(range);
  const busy: Array<{ start: number; end: number }> = [];
  for (const o of state.objects.values()) {
    for (const e of eventsOf(o)) {
      if (!e.busy) continue;
      for (const i of occurrences(e, from, to)) busy.push({ start: Math.max(i.start, from), end: Math.min(i.end, to) });
      if (busy.length > MAX_QUERY_RESULTS * 10) throw new ApiError(400, 'invalid_request', 'The time-range holds too many busy intervals; ask for a shorter one');
    }
  }
  return writeFreeBusy(busy, from, to);
}

export async function report(ctx: DavContext, t: Target, body: string): Promise<DavReply> {
  requireScope(ctx.principal, 'events:read');
  const collection = await collectionFor(ctx, t.user, t.segment);
  const state = await ctx.reader.state(collection.calendar.id);
  const xml = (text: string): DavReply => ({ status: 207, type: 'application/xml; charset=utf-8', body: text });
  // The same question of an unchanged collection has the same answer (clients poll; hrefs carry the segment asked).
  const key = `${collection.calendar.id}|${t.segment}|${collection.writable}|${ctx.user.username}|${sha256(body)}`;
  const kept = ctx.answers.get(key, state.position);
  if (kept) return xml(kept.toString());
  const answer = await answerOf(ctx, t, body, collection, state);
  if (answer.status === 207 && answer.body) ctx.answers.set(key, state.position, Buffer.from(answer.body));
  return answer;
}

async function answerOf(ctx: DavContext, t: Target, body: string, collection: Collection, state: CollectionState): Promise<DavReply> {
  const root = parseXml(body);
  const xml = (text: string): DavReply => ({ status: 207, type: 'application/xml; charset=utf-8', body: text });
  switch (nameOf(root)) {
    case c('calendar-query'): {
      const matched = calendarQuery(root, state);
      const responses = await objectResponses(ctx, collection, t, matched.slice(0, MAX_QUERY_RESULTS), root);
      return xml(multistatus(matched.length > MAX_QUERY_RESULTS ? [...responses, truncated(ctx, t)] : responses));
    }
    case c('calendar-multiget'): {
      const { found, missing } = multiget(root, state, t);
      const responses = await objectResponses(ctx, collection, t, found, root);
      return xml(multistatus([...responses, ...missing.map((href) => statusResponse(href, 404))]));
    }
    case d('sync-collection'):
      return xml(await syncCollection(ctx, root, collection, state, t));
    case c('free-busy-query'):
      return { status: 200, type: 'text/calendar; charset=utf-8', body: freeBusy(root, state) };
    default:
      throw new Precondition(d('supported-report'), `The ${root.localName} report is not supported here`);
  }
}
