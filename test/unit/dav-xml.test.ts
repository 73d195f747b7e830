/** The CalDAV server's XML and URL pieces: namespaces written once, hostile XML refused, names and UIDs. */
import { DOMParser } from '@xmldom/xmldom';
import { askedOf } from '../../services/dav/propfind';
import { objectHref, targetOf } from '../../services/dav/paths';
import { clark, NS, parseXml, writeXml, x } from '../../services/dav/xml';

describe('writeXml', () => {
  it('declares each namespace once on the root and escapes text', () => {
    const text = writeXml(x(clark(NS.dav, 'multistatus'), x(clark(NS.caldav, 'calendar-home-set'), x(clark(NS.dav, 'href'), '/a&b<')), x(clark('urn:other', 'foo'), 'z')));
    expect(text.match(/xmlns:d=/g)).toHaveLength(1);
    expect(text).toContain('<c:calendar-home-set><d:href>/a&amp;b&lt;</d:href></c:calendar-home-set>');
    const reparsed = new DOMParser().parseFromString(text, 'application/xml');
    expect(reparsed.documentElement!.getElementsByTagNameNS('urn:other', 'foo')[0].textContent).toBe('z');
  });
});

describe('parseXml', () => {
  it('reads elements by namespace, whatever the prefix', () => {
    const asked = askedOf('<P:propfind xmlns:P="DAV:" xmlns:Q="urn:ietf:params:xml:ns:caldav"><P:prop><Q:calendar-data/><P:getetag/></P:prop></P:propfind>');
    expect(asked).toEqual([clark(NS.caldav, 'calendar-data'), clark(NS.dav, 'getetag')]);
    expect(askedOf('')).toBe('all');
    expect(askedOf('<propfind xmlns="DAV:"><propname/></propfind>')).toBe('names');
  });

  it.each([
    ['a DOCTYPE with entities', '<!DOCTYPE a [<!ENTITY b "c">]><a>&b;</a>'],
    ['an external entity', '<!DOCTYPE a SYSTEM "file:///etc/passwd"><a/>'],
    ['mismatched tags', '<a><b></a>'],
    ['no root', ''],
  ])('refuses %s with 400', (_what, text) => {
    expect(() => parseXml(text)).toThrow(expect.objectContaining({ status: 400 }));
  });
});

describe('paths', () => {
  it('turns an object name back into its UID, whatever characters it has', () => {
    for (const uid of ['plain', 'a@b.org', 'with space/and slash', 'ümlaut%25']) {
      const target = targetOf(objectHref('ada', 'cal-1', uid).slice('/dav'.length));
      expect(target).toEqual({ kind: 'object', user: 'ada', segment: 'cal-1', uid });
    }
  });

  it('names principal, home and collection; below an object nested; anything else unknown', () => {
    expect(targetOf('/principals/ada/')).toEqual({ kind: 'principal', user: 'ada' });
    expect(targetOf('/calendars/ada/')).toEqual({ kind: 'home', user: 'ada' });
    expect(targetOf('/calendars/ada/c1/')).toEqual({ kind: 'collection', user: 'ada', segment: 'c1' });
    expect(targetOf('/calendars/ada/c1/x.txt')).toEqual({ kind: 'unknown' });
    expect(targetOf('/calendars/ada/c1/x.ics/more')).toEqual({ kind: 'nested' });
    expect(targetOf('/elsewhere/a/b/c/d')).toEqual({ kind: 'unknown' });
    expect(targetOf('/calendars/%E0%A4%A/')).toEqual({ kind: 'unknown' });
  });
});
