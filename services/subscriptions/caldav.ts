/**
 * The two CalDAV requests a subscription needs (RFC 4791), written and read as XML documents with @xmldom/xmldom:
 * PROPFIND Depth 0 (is it a calendar collection, and its CS:getctag / DAV:sync-token, which change with any change to
 * it: the conditional request of CalDAV) and REPORT calendar-query Depth 1 for every VEVENT object's calendar-data.
 */
import type { Element } from '@xmldom/xmldom';
import { IMPORT_MAX_COMPONENTS } from '../../contracts/ical';
import { NS, parseXml } from '../dav/xml';
import { SourceError } from './guarded-request';

const { dav: DAV, caldav: CALDAV, cs: CS } = NS;

export const PROPFIND_COLLECTION = `<?xml version="1.0" encoding="utf-8"?>
<d:propfind xmlns:d="${DAV}" xmlns:cs="${CS}"><d:prop><d:resourcetype/><cs:getctag/><d:sync-token/></d:prop></d:propfind>`;

export const QUERY_EVENTS = `<?xml version="1.0" encoding="utf-8"?>
<c:calendar-query xmlns:d="${DAV}" xmlns:c="${CALDAV}">
<d:prop><d:getetag/><c:calendar-data/></d:prop>
<c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT"/></c:comp-filter></c:filter>
</c:calendar-query>`;

/** The answer's root element, read as the CalDAV server reads bodies (services/dav/xml.ts: no DOCTYPE, no entities). */
function parse(xml: string): Element {
  try {
    return parseXml(xml);
  } catch (err) {
    throw new SourceError(`the CalDAV answer is not XML we read (${(err as Error).message})`);
  }
}

const children = (parent: Element, ns: string, name: string): Element[] => Array.from(parent.getElementsByTagNameNS(ns, name));

/** The props of the propstats that answered 200 (a server answers 404 for those it lacks). */
function foundProps(response: Element): Element[] {
  return children(response, DAV, 'propstat')
    .filter((ps) => / 200 /.test(` ${children(ps, DAV, 'status')[0]?.textContent ?? ''} `))
    .flatMap((ps) => children(ps, DAV, 'prop'));
}

export interface CollectionProps {
  isCalendar: boolean;
  /** What changes with any change to the collection (getctag, else sync-token), or null when it offers neither. */
  ctag: string | null;
}

export function collectionPropsOf(xml: string): CollectionProps {
  const [response] = children(parse(xml), DAV, 'response');
  if (!response) throw new SourceError('the CalDAV answer lists no resource');
  const props = foundProps(response);
  const first = (ns: string, name: string) => props.flatMap((p) => children(p, ns, name))[0];
  const type = first(DAV, 'resourcetype');
  const ctag = first(CS, 'getctag')?.textContent?.trim() || first(DAV, 'sync-token')?.textContent?.trim() || null;
  return { isCalendar: !!type && children(type, CALDAV, 'calendar').length > 0, ctag };
}

/** The iCalendar text of each object the calendar-query answered. */
export function calendarDataOf(xml: string): string[] {
  const responses = children(parse(xml), DAV, 'response');
  if (responses.length > IMPORT_MAX_COMPONENTS) throw new SourceError(`the collection holds more than ${IMPORT_MAX_COMPONENTS} objects`);
  return responses
    .map((r) => foundProps(r).flatMap((p) => children(p, CALDAV, 'calendar-data'))[0]?.textContent ?? '')
    .filter((text) => text.trim().length > 0);
}
