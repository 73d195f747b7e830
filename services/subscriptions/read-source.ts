/**
 * Reads a subscription's source, conditionally: an iCalendar address by GET with If-None-Match / If-Modified-Since
 * (304: not modified); with credentials, a CalDAV collection first (PROPFIND, then REPORT unless its ctag is the one
 * last seen), falling back to GET with the same credentials when the address is no calendar collection.
 */
import { calendarDataOf, collectionPropsOf, PROPFIND_COLLECTION, QUERY_EVENTS } from './caldav';
import { guardedRequest, SourceError, type RequestOptions } from './guarded-request';
import type { Credentials, Validators } from './subscription-store';

export type SourceRead = { kind: 'not_modified' } | { kind: 'texts'; texts: string[]; validators: Validators };

export type SourceLimits = Pick<RequestOptions, 'timeoutMs' | 'maxBytes' | 'allowPrivate' | 'lookup'>;

const XML = { 'content-type': 'application/xml; charset=utf-8', accept: 'application/xml, text/xml' };
const USER_AGENT = { 'user-agent': 'Calendar-Subscriptions/1.0' };

const basic = (c: Credentials) => `Basic ${Buffer.from(`${c.username}:${c.password}`, 'utf8').toString('base64')}`;
const header = (value: string | string[] | undefined) => (Array.isArray(value) ? value[0] : value) ?? null;

function failedStatus(status: number): SourceError {
  if (status === 401 || status === 403) return new SourceError(`HTTP ${status}: the source refused the credentials`);
  return new SourceError(`HTTP ${status}`);
}

async function readByGet(url: string, validators: Validators, authorization: string | undefined, limits: SourceLimits): Promise<SourceRead> {
  const conditional: Record<string, string> = {};
  if (validators.etag) conditional['if-none-match'] = validators.etag;
  if (validators.lastModified) conditional['if-modified-since'] = validators.lastModified;
  const answer = await guardedRequest(url, {
    method: 'GET', headers: { ...USER_AGENT, accept: 'text/calendar, */*;q=0.5', ...conditional }, authorization, ...limits,
  });
  if (answer.status === 304) return { kind: 'not_modified' };
  if (answer.status !== 200) throw failedStatus(answer.status);
  return {
    kind: 'texts', texts: [answer.body],
    validators: { etag: header(answer.headers.etag), lastModified: header(answer.headers['last-modified']), ctag: null },
  };
}

async function readCollection(url: string, validators: Validators, authorization: string, limits: SourceLimits): Promise<SourceRead | null> {
  const props = await guardedRequest(url, {
    method: 'PROPFIND', headers: { ...USER_AGENT, ...XML, depth: '0' }, body: PROPFIND_COLLECTION, authorization, ...limits,
  });
  if (props.status === 401 || props.status === 403) throw failedStatus(props.status);
  if (props.status !== 207) return null;
  const { isCalendar, ctag } = collectionPropsOf(props.body);
  if (!isCalendar) return null;
  if (ctag !== null && ctag === validators.ctag) return { kind: 'not_modified' };
  const query = await guardedRequest(props.url, {
    method: 'REPORT', headers: { ...USER_AGENT, ...XML, depth: '1' }, body: QUERY_EVENTS, authorization, ...limits,
  });
  if (query.status !== 207) throw failedStatus(query.status);
  return { kind: 'texts', texts: calendarDataOf(query.body), validators: { etag: null, lastModified: null, ctag } };
}

export async function readSource(url: string, credentials: Credentials | null, validators: Validators, limits: SourceLimits): Promise<SourceRead> {
  if (!credentials) return readByGet(url, validators, undefined, limits);
  const authorization = basic(credentials);
  return (await readCollection(url, validators, authorization, limits)) ?? readByGet(url, validators, authorization, limits);
}
