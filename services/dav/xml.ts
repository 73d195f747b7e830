/**
 * WebDAV XML in and out, through @xmldom/xmldom. A body with a DOCTYPE is refused outright: entities declared there
 * (the "billion laughs") are never expanded, and no DAV request needs one. Elements are named `{namespace}local`
 * (Clark notation) so that prefixes, which clients choose freely, never matter.
 */
import { DOMImplementation, DOMParser, XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';
import { ApiError } from '../errors';

export const NS = {
  dav: 'DAV:',
  caldav: 'urn:ietf:params:xml:ns:caldav',
  cs: 'http://calendarserver.org/ns/',
  apple: 'http://apple.com/ns/ical/',
} as const;

const XMLNS = 'http://www.w3.org/2000/xmlns/';
const PREFIXES: Record<string, string> = { [NS.dav]: 'd', [NS.caldav]: 'c', [NS.cs]: 'cs', [NS.apple]: 'a' };

/** `{namespace}local` */
export const clark = (ns: string | null, local: string) => `{${ns ?? ''}}${local}`;
export const nameOf = (el: Element) => clark(el.namespaceURI, el.localName ?? el.nodeName);

const badXml = (message: string) => new ApiError(400, 'invalid_xml', message);

/** The root element of a request body; 400 for malformed XML or any DOCTYPE. */
export function parseXml(text: string): Element {
  let doc: Document;
  try {
    doc = new DOMParser({
      onError: (level, message) => {
        if (level !== 'warning') throw new Error(message);
      },
    }).parseFromString(text, 'application/xml');
  } catch (err) {
    throw badXml(`The body is not well-formed XML: ${(err as Error).message.slice(0, 200)}`);
  }
  for (let n: Node | null = doc.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === n.DOCUMENT_TYPE_NODE) throw badXml('XML bodies with a DOCTYPE (and its entities) are refused');
  }
  if (!doc.documentElement) throw badXml('The body has no root element');
  return doc.documentElement;
}

/** Child elements, optionally only those named `{ns}local`. */
export function childElements(el: Element, name?: string): Element[] {
  const out: Element[] = [];
  for (let n: Node | null = el.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === n.ELEMENT_NODE && (name === undefined || nameOf(n as Element) === name)) out.push(n as Element);
  }
  return out;
}

export const firstChild = (el: Element, name: string): Element | undefined => childElements(el, name)[0];
export const textIn = (el: Element | undefined): string => (el?.textContent ?? '').trim();

/** An element to write: its Clark name, attributes, and children (elements or text). */
export interface XmlNode {
  name: string;
  attrs?: Record<string, string>;
  children?: Array<XmlNode | string>;
}

export const x = (name: string, ...children: Array<XmlNode | string>): XmlNode => ({ name, children });

const parts = (name: string) => {
  const close = name.indexOf('}');
  return { ns: name.slice(1, close), local: name.slice(close + 1) };
};

/** Serializes a tree with the four DAV namespaces declared once on its root (others get their own prefix). */
export function writeXml(root: XmlNode): string {
  const doc = new DOMImplementation().createDocument(null, '', null);
  const extra = new Map<string, string>();
  const prefixOf = (ns: string) => {
    if (!ns) return '';
    const known = PREFIXES[ns] ?? extra.get(ns);
    if (known) return known;
    const made = `x${extra.size}`;
    extra.set(ns, made);
    return made;
  };
  const build = (node: XmlNode): Element => {
    const { ns, local } = parts(node.name);
    const prefix = prefixOf(ns);
    const el = ns ? doc.createElementNS(ns, `${prefix}:${local}`) : doc.createElement(local);
    for (const [k, v] of Object.entries(node.attrs ?? {})) el.setAttribute(k, v);
    for (const c of node.children ?? []) el.appendChild(typeof c === 'string' ? doc.createTextNode(c) : build(c));
    return el;
  };
  const top = build(root);
  // Declared as namespace attributes (not plain ones), so the serializer declares each prefix once, here.
  for (const [ns, prefix] of [...Object.entries(PREFIXES), ...extra]) {
    if (top.lookupNamespaceURI(prefix) !== ns) top.setAttributeNS(XMLNS, `xmlns:${prefix}`, ns);
  }
  doc.appendChild(top);
  return `<?xml version="1.0" encoding="utf-8"?>\n${new XMLSerializer().serializeToString(doc)}`;
}
