/** 207 Multi-Status bodies (RFC 4918 13): a response per resource, its properties grouped by status. */
import { clark, NS, writeXml, x, type XmlNode } from './xml';

export const d = (local: string) => clark(NS.dav, local);
export const c = (local: string) => clark(NS.caldav, local);

/** A property's value: its children (elements or text); the element itself is made from the name asked for. */
export type PropValue = Array<XmlNode | string>;
export type Props = Map<string, PropValue>;

const STATUS_TEXT: Record<number, string> = { 200: 'OK', 403: 'Forbidden', 404: 'Not Found', 424: 'Failed Dependency', 507: 'Insufficient Storage' };
export const statusLine = (status: number) => `HTTP/1.1 ${status} ${STATUS_TEXT[status] ?? ''}`.trim();

const propstat = (status: number, props: XmlNode[]): XmlNode => x(d('propstat'), x(d('prop'), ...props), x(d('status'), statusLine(status)));

/** One resource: the properties asked for, found ones with their values (200), the others empty (404). */
export function propResponse(href: string, props: Props, asked: string[] | 'all' | 'names'): XmlNode {
  const names = asked === 'all' || asked === 'names' ? [...props.keys()] : asked;
  const found: XmlNode[] = [];
  const missing: XmlNode[] = [];
  for (const name of names) {
    const value = props.get(name);
    if (value === undefined) missing.push({ name });
    else found.push({ name, children: asked === 'names' ? [] : value });
  }
  const stats = [...(found.length ? [propstat(200, found)] : []), ...(missing.length ? [propstat(404, missing)] : [])];
  return x(d('response'), x(d('href'), href), ...(stats.length ? stats : [propstat(200, [])]));
}

/** A resource answered with a status of its own (a deleted object in a sync report, a missing multiget href). */
export const statusResponse = (href: string, status: number): XmlNode => x(d('response'), x(d('href'), href), x(d('status'), statusLine(status)));

export const multistatus = (responses: XmlNode[], extra: XmlNode[] = []) => writeXml(x(d('multistatus'), ...responses, ...extra));

/** An error body naming the precondition that failed (RFC 4918 16), e.g. `{DAV:}valid-sync-token`. */
export const preconditionBody = (name: string) => writeXml(x(d('error'), { name }));
