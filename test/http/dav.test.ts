/**
 * CalDAV over real HTTP: discovery, PROPFIND, REPORTs (calendar-query over a recurring series with exceptions,
 * multiget, sync-collection), PUT/DELETE with preconditions, MKCALENDAR, authentication and scopes, other users and
 * shared calendars, the same domain events as REST, and hostile bodies.
 */
import { davCall, davClientOf, originOf, vcalendar, basic, type DavClient } from '../support/dav';
import { signUp, useTestService, type Client } from '../support/service';

let base: string;
useTestService((s) => (base = s.base));

const PROPFIND_ALL = `<?xml version="1.0"?><d:propfind xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav" xmlns:cs="http://calendarserver.org/ns/">
<d:prop><d:displayname/><d:resourcetype/><cs:getctag/><d:sync-token/><c:supported-calendar-component-set/><d:current-user-privilege-set/><d:current-user-principal/><c:calendar-home-set/></d:prop></d:propfind>`;

const query = (start: string, end: string) => `<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
<d:prop><d:getetag/><c:calendar-data/></d:prop><c:filter><c:comp-filter name="VCALENDAR"><c:comp-filter name="VEVENT">
<c:time-range start="${start}" end="${end}"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;

const syncReport = (token: string) => `<?xml version="1.0"?><d:sync-collection xmlns:d="DAV:"><d:sync-token>${token}</d:sync-token>
<d:sync-level>1</d:sync-level><d:prop><d:getetag/></d:prop></d:sync-collection>`;

const hrefsIn = (xml: string) => [...xml.matchAll(/<d:href>([^<]*)<\/d:href>/g)].map((m) => m[1]);
const tokenIn = (xml: string) => /<d:sync-token>([^<]*)<\/d:sync-token>/.exec(xml)?.[1] ?? '';

async function calendarOf(c: Client): Promise<string> {
  return (await c.call('GET', '/calendars')).body.calendars[0].id as string;
}

interface Setup {
  owner: Client;
  dav: DavClient;
  calendarId: string;
  collection: string;
}

async function setUp(): Promise<Setup> {
  const owner = await signUp(base, { timeZone: 'Europe/Berlin' });
  const dav = await davClientOf(base, owner);
  const calendarId = await calendarOf(owner);
  return { owner, dav, calendarId, collection: `/dav/calendars/${dav.username}/${calendarId}/` };
}

const WEEKLY = (uid: string) => vcalendar(uid, [
  'DTSTART;TZID=Europe/Berlin:20300107T090000', 'DTEND;TZID=Europe/Berlin:20300107T100000', 'SUMMARY:Weekly review',
  'RRULE:FREQ=WEEKLY;COUNT=6', 'EXDATE;TZID=Europe/Berlin:20300121T090000',
  'BEGIN:VALARM', 'ACTION:DISPLAY', 'DESCRIPTION:Weekly review', 'TRIGGER:-PT15M', 'END:VALARM',
], [
  'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', 'RECURRENCE-ID;TZID=Europe/Berlin:20300128T090000',
  'DTSTART;TZID=Europe/Berlin:20300131T140000', 'DTEND;TZID=Europe/Berlin:20300131T150000', 'SUMMARY:Weekly review (moved)', 'END:VEVENT',
]);

describe('CalDAV discovery and authentication', () => {
  it('redirects /.well-known/caldav to /dav/ and announces calendar-access', async () => {
    const known = await davCall(originOf(base), 'GET', '/.well-known/caldav');
    expect([301, 302]).toContain(known.status);
    expect(known.headers.get('location')).toBe('/dav/');
    const options = await davCall(originOf(base), 'OPTIONS', '/dav/');
    expect(options.headers.get('dav')).toBe('1, 3, calendar-access');
    expect(options.headers.get('allow')).toContain('REPORT');
  });

  it('answers 401 with a Basic challenge for a wrong or missing password', async () => {
    const { dav } = await setUp();
    for (const auth of [basic(dav.username, 'ck_live_wrong'), basic('nobody', dav.key), undefined]) {
      const res = await davCall(originOf(base), 'PROPFIND', '/dav/', '', auth ? { authorization: auth } : {});
      expect(res.status).toBe(401);
      expect(res.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    }
  });

  it('accepts the email as the user name and finds principal, home and collections', async () => {
    const { owner, calendarId } = await setUp();
    const byEmail = await davClientOf(base, owner, undefined, owner.email);
    const root = await byEmail.call('PROPFIND', '/dav/', PROPFIND_ALL, { depth: '0' });
    expect(root.status).toBe(207);
    expect(root.text).toContain(`<d:current-user-principal><d:href>/dav/principals/${byEmail.username}/</d:href>`);
    const principal = await byEmail.call('PROPFIND', `/dav/principals/${byEmail.username}/`, PROPFIND_ALL, { depth: '0' });
    expect(principal.text).toContain(`<c:calendar-home-set><d:href>/dav/calendars/${byEmail.username}/</d:href>`);
    const home = await byEmail.call('PROPFIND', `/dav/calendars/${byEmail.username}/`, PROPFIND_ALL, { depth: '1' });
    expect(hrefsIn(home.text)).toContain(`/dav/calendars/${byEmail.username}/${calendarId}/`);
    expect(home.text).toContain('<c:comp name="VEVENT"/>');
    expect(home.text).toMatch(/<cs:getctag>urn:calendar-service:sync:\d+<\/cs:getctag>/);
    expect(home.text).toContain('<d:privilege><d:write-content/></d:privilege>');
  });

  it('refuses every DAV request without events:read (403) and writes without the write scopes', async () => {
    const { owner, collection } = await setUp();
    const noRead = await davClientOf(base, owner, ['calendars:read']);
    expect((await noRead.call('REPORT', collection, syncReport(''))).status).toBe(403);
    const readOnly = await davClientOf(base, owner, ['events:read']);
    expect((await readOnly.call('PUT', `${collection}a.ics`, vcalendar('a', ['DTSTART:20300101T100000Z', 'DTEND:20300101T110000Z']))).status).toBe(403);
    expect((await readOnly.call('REPORT', collection, syncReport(''))).status).toBe(207);
  });
});

describe('CalDAV objects', () => {
  it('PUT keeps the UID, reads back every modelled property, and checks If-Match / If-None-Match', async () => {
    const { dav, collection } = await setUp();
    const href = `${collection}review%40example.org.ics`;
    const created = await dav.call('PUT', href, WEEKLY('review@example.org'), { 'if-none-match': '*' });
    expect(created.status).toBe(201);
    const etag = created.headers.get('etag')!;
    expect(etag).toMatch(/^"v\d+"$/);
    const got = await dav.call('GET', href);
    expect(got.status).toBe(200);
    expect(got.headers.get('etag')).toBe(etag);
    expect(got.text).toContain('UID:review@example.org');
    expect(got.text).toContain('RRULE:FREQ=WEEKLY;COUNT=6');
    expect(got.text).toContain('EXDATE;TZID=Europe/Berlin:20300121T090000');
    expect(got.text).toContain('RECURRENCE-ID;TZID=Europe/Berlin:20300128T090000');
    expect(got.text).toContain('SUMMARY:Weekly review (moved)');
    expect(got.text).toContain('TRIGGER:-PT15M');
    expect((await dav.call('PUT', href, WEEKLY('review@example.org'), { 'if-none-match': '*' })).status).toBe(412);
    expect((await dav.call('PUT', href, WEEKLY('review@example.org'), { 'if-match': '"v999"' })).status).toBe(412);
    const changed = await dav.call('PUT', href, WEEKLY('review@example.org').replace('SUMMARY:Weekly review\r\n', 'SUMMARY:Weekly sync\r\n'), { 'if-match': etag });
    expect(changed.status).toBe(204);
    expect(changed.headers.get('etag')).not.toBe(etag);
    expect((await dav.call('GET', href)).text).toContain('SUMMARY:Weekly sync');
    // The old ETag is stale now.
    expect((await dav.call('DELETE', href, undefined, { 'if-match': etag })).status).toBe(412);
    expect((await dav.call('DELETE', href)).status).toBe(204);
    expect((await dav.call('GET', href)).status).toBe(404);
    // Put again after a delete: the object is there again.
    expect((await dav.call('PUT', href, WEEKLY('review@example.org'))).status).toBe(201);
    expect((await dav.call('GET', href)).status).toBe(200);
  });

  it('refuses an object whose name is not its UID, a VTODO, and text that is no iCalendar, writing nothing', async () => {
    const { dav, collection, owner } = await setUp();
    const other = await dav.call('PUT', `${collection}other.ics`, vcalendar('mine', ['DTSTART:20300101T100000Z', 'DTEND:20300101T110000Z']));
    expect(other.status).toBe(403);
    expect(other.text).toContain('no-uid-conflict');
    const todo = 'BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:x\r\nBEGIN:VTODO\r\nUID:t\r\nSUMMARY:x\r\nEND:VTODO\r\nEND:VCALENDAR\r\n';
    expect((await dav.call('PUT', `${collection}t.ics`, todo)).status).toBe(403);
    expect((await dav.call('PUT', `${collection}x.ics`, 'hello')).status).toBe(400);
    const events = await owner.call('GET', `/events?from=${encodeURIComponent('2029-12-01T00:00:00Z')}&to=${encodeURIComponent('2030-02-01T00:00:00Z')}`);
    expect(events.body.events).toEqual([]);
  });

  it('a CalDAV PUT is the same change as REST: GET /events and /sync see it; REST events are objects too', async () => {
    const { owner, dav, collection } = await setUp();
    const cursor = (await owner.call('GET', '/me/bootstrap')).body.cursor as string;
    const put = await dav.call('PUT', `${collection}lunch-1.ics`, vcalendar('lunch-1', ['DTSTART:20300301T120000Z', 'DTEND:20300301T130000Z', 'SUMMARY:Lunch']));
    expect(put.status).toBe(201);
    const events = await owner.call('GET', `/events?from=${encodeURIComponent('2030-03-01T00:00:00Z')}&to=${encodeURIComponent('2030-03-02T00:00:00Z')}`);
    expect(events.body.events).toEqual([expect.objectContaining({ title: 'Lunch', icalUid: 'lunch-1', startsAt: '2030-03-01T12:00:00.000Z' })]);
    const sync = await owner.call('GET', `/sync?since=${encodeURIComponent(cursor)}`);
    expect(sync.body.changes.events).toEqual([expect.objectContaining({ title: 'Lunch', icalUid: 'lunch-1' })]);
    const rest = await owner.call('POST', '/events', { title: 'From REST', startsAt: '2030-03-02T09:00:00Z', endsAt: '2030-03-02T10:00:00Z' });
    const got = await dav.call('GET', `${collection}${rest.body.event.id}%40calendar-service.ics`);
    expect(got.status).toBe(200);
    expect(got.headers.get('etag')).toBe(`"v${rest.body.event.version}"`);
    expect(got.text).toContain('SUMMARY:From REST');
  });
});

describe('CalDAV reports', () => {
  it('calendar-query matches a recurring series by its occurrences, exceptions applied', async () => {
    const { dav, collection } = await setUp();
    await dav.call('PUT', `${collection}series-1.ics`, WEEKLY('series-1'));
    await dav.call('PUT', `${collection}single-1.ics`, vcalendar('single-1', ['DTSTART:20300110T120000Z', 'DTEND:20300110T130000Z', 'SUMMARY:Single']));
    const names = async (start: string, end: string) => {
      const res = await dav.call('REPORT', collection, query(start, end), { depth: '1' });
      expect(res.status).toBe(207);
      return hrefsIn(res.text).map((h) => h.split('/').pop()).sort();
    };
    // The third week's occurrence is excluded (EXDATE): that week matches nothing.
    expect(await names('20300120T000000Z', '20300127T000000Z')).toEqual([]);
    // The fourth week's occurrence moved from Monday to Thursday: Monday finds nothing, Thursday finds it.
    expect(await names('20300128T000000Z', '20300129T000000Z')).toEqual([]);
    expect(await names('20300131T000000Z', '20300201T000000Z')).toEqual(['series-1.ics']);
    expect(await names('20300107T000000Z', '20300114T000000Z')).toEqual(['series-1.ics', 'single-1.ics']);
    // After COUNT=6 the series is over.
    expect(await names('20300301T000000Z', '20300401T000000Z')).toEqual([]);
    const withData = await dav.call('REPORT', collection, query('20300131T000000Z', '20300201T000000Z'), { depth: '1' });
    expect(withData.text).toContain('BEGIN:VCALENDAR');
  });

  it('calendar-data with expand answers a series as its occurrences in the range, in UTC, with RECURRENCE-ID', async () => {
    const { dav, collection } = await setUp();
    await dav.call('PUT', `${collection}ex-1.ics`, WEEKLY('ex-1'));
    const body = `<?xml version="1.0"?><c:calendar-query xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav">
<d:prop><c:calendar-data><c:expand start="20300101T000000Z" end="20300201T000000Z"/></c:calendar-data></d:prop><c:filter><c:comp-filter name="VCALENDAR">
<c:comp-filter name="VEVENT"><c:time-range start="20300101T000000Z" end="20300201T000000Z"/></c:comp-filter></c:comp-filter></c:filter></c:calendar-query>`;
    const res = await dav.call('REPORT', collection, body, { depth: '1' });
    expect(res.status).toBe(207);
    expect(res.text).not.toContain('RRULE');
    expect(res.text).not.toContain('EXDATE');
    expect([...res.text.matchAll(/RECURRENCE-ID:(\w+)/g)].map((m) => m[1])).toEqual(['20300107T080000Z', '20300114T080000Z', '20300128T080000Z']);
    expect(res.text).toContain('DTSTART:20300131T130000Z');
  });

  it('calendar-multiget answers the hrefs asked, 404 for a missing one', async () => {
    const { dav, collection } = await setUp();
    await dav.call('PUT', `${collection}m1.ics`, vcalendar('m1', ['DTSTART:20300110T120000Z', 'DTEND:20300110T130000Z', 'SUMMARY:M1']));
    await dav.call('PUT', `${collection}m2.ics`, vcalendar('m2', ['DTSTART:20300111T120000Z', 'DTEND:20300111T130000Z', 'SUMMARY:M2']));
    const body = `<?xml version="1.0"?><c:calendar-multiget xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:prop><d:getetag/><c:calendar-data/></d:prop>
      <d:href>${collection}m1.ics</d:href><d:href>${collection}m2.ics</d:href><d:href>${collection}gone.ics</d:href></c:calendar-multiget>`;
    const res = await dav.call('REPORT', collection, body);
    expect(res.status).toBe(207);
    expect(res.text).toContain('SUMMARY:M1');
    expect(res.text).toContain('SUMMARY:M2');
    expect(res.text).toMatch(/gone\.ics<\/d:href><d:status>HTTP\/1.1 404 Not Found/);
  });

  it('sync-collection gives what changed since a token, deletions as 404, and refuses a token it did not issue', async () => {
    const { dav, collection } = await setUp();
    await dav.call('PUT', `${collection}s1.ics`, vcalendar('s1', ['DTSTART:20300110T120000Z', 'DTEND:20300110T130000Z']));
    const first = await dav.call('REPORT', collection, syncReport(''));
    expect(hrefsIn(first.text)).toEqual([`${collection}s1.ics`]);
    const token = tokenIn(first.text);
    expect(token).toMatch(/^urn:calendar-service:sync:\d+$/);
    expect(hrefsIn((await dav.call('REPORT', collection, syncReport(token))).text)).toEqual([]);
    await dav.call('PUT', `${collection}s2.ics`, vcalendar('s2', ['DTSTART:20300111T120000Z', 'DTEND:20300111T130000Z']));
    await dav.call('DELETE', `${collection}s1.ics`);
    const next = await dav.call('REPORT', collection, syncReport(token));
    expect(hrefsIn(next.text).sort()).toEqual([`${collection}s1.ics`, `${collection}s2.ics`]);
    expect(next.text).toMatch(/s1\.ics<\/d:href><d:status>HTTP\/1.1 404/);
    expect(tokenIn(next.text)).not.toBe(token);
    for (const bad of ['urn:calendar-service:sync:999999999999', 'http://elsewhere/token', 'urn:calendar-service:sync:abc']) {
      const refused = await dav.call('REPORT', collection, syncReport(bad));
      expect(refused.status).toBe(403);
      expect(refused.text).toContain('<d:valid-sync-token/>');
    }
  });

  it('free-busy-query answers the busy occurrences as VFREEBUSY', async () => {
    const { dav, collection } = await setUp();
    await dav.call('PUT', `${collection}fb.ics`, WEEKLY('fb'));
    const body = `<?xml version="1.0"?><c:free-busy-query xmlns:c="urn:ietf:params:xml:ns:caldav"><c:time-range start="20300107T000000Z" end="20300114T000000Z"/></c:free-busy-query>`;
    const res = await dav.call('REPORT', collection, body);
    expect(res.status).toBe(200);
    expect(res.text).toContain('BEGIN:VFREEBUSY');
    expect(res.text).toContain('FREEBUSY;FBTYPE=BUSY:20300107T080000Z/20300107T090000Z');
  });
});

describe('CalDAV collections, users and sharing', () => {
  it('MKCALENDAR makes a calendar that the home lists and REST sees', async () => {
    const { dav, owner } = await setUp();
    const body = `<?xml version="1.0"?><c:mkcalendar xmlns:d="DAV:" xmlns:c="urn:ietf:params:xml:ns:caldav"><d:set><d:prop><d:displayname>Garden</d:displayname></d:prop></d:set></c:mkcalendar>`;
    const made = await dav.call('MKCALENDAR', `/dav/calendars/${dav.username}/garden/`, body);
    expect(made.status).toBe(201);
    expect((await dav.call('MKCALENDAR', `/dav/calendars/${dav.username}/garden/`, body)).status).toBe(405);
    const calendars = (await owner.call('GET', '/calendars')).body.calendars as Array<{ name: string }>;
    expect(calendars.map((c) => c.name)).toContain('Garden');
    const put = await dav.call('PUT', `/dav/calendars/${dav.username}/garden/g1.ics`, vcalendar('g1', ['DTSTART:20300110T120000Z', 'DTEND:20300110T130000Z']));
    expect(put.status).toBe(201);
    const patch = await dav.call('PROPPATCH', `/dav/calendars/${dav.username}/garden/`,
      '<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>x</d:displayname></d:prop></d:set></d:propertyupdate>');
    expect(patch.status).toBe(403);
    // MKCOL: a calendar in the home; none inside a calendar; a body 415; below a missing parent 409.
    expect((await dav.call('MKCOL', `/dav/calendars/${dav.username}/plain/`)).status).toBe(201);
    expect((await dav.call('MKCOL', `/dav/calendars/${dav.username}/plain/`)).status).toBe(405);
    expect((await dav.call('MKCOL', `/dav/calendars/${dav.username}/garden/inner/`)).status).toBe(403);
    expect((await dav.call('MKCOL', `/dav/calendars/${dav.username}/other/`, '<x/>')).status).toBe(415);
    expect((await dav.call('MKCOL', `/dav/calendars/${dav.username}/garden/no/parent/`)).status).toBe(409);
    expect(patch.text).toContain('<d:cannot-modify-protected-property/>');
  });

  it("another user can neither see nor write someone's collections (404)", async () => {
    const a = await setUp();
    const b = await setUp();
    await a.dav.call('PUT', `${a.collection}private.ics`, vcalendar('private', ['DTSTART:20300110T120000Z', 'DTEND:20300110T130000Z']));
    expect((await b.dav.call('PROPFIND', a.collection, PROPFIND_ALL, { depth: '1' })).status).toBe(404);
    const patch = '<?xml version="1.0"?><d:propertyupdate xmlns:d="DAV:"><d:set><d:prop><d:displayname>x</d:displayname></d:prop></d:set></d:propertyupdate>';
    expect((await b.dav.call('PROPPATCH', `/dav/calendars/${b.dav.username}/${a.calendarId}/`, patch)).status).toBe(404);
    expect((await b.dav.call('REPORT', `/dav/calendars/${b.dav.username}/${a.calendarId}/`, '<d:sync-collection xmlns:d="DAV:"><d:sync-token/></d:sync-collection>')).status).toBe(404);
    expect((await b.dav.call('DELETE', `/dav/calendars/${b.dav.username}/${a.calendarId}/private.ics`)).status).toBe(404);
    expect((await b.dav.call('PROPFIND', `/dav/calendars/${b.dav.username}/${a.calendarId}/`, PROPFIND_ALL)).status).toBe(404);
    expect((await b.dav.call('GET', `/dav/calendars/${b.dav.username}/${a.calendarId}/private.ics`)).status).toBe(404);
    expect((await b.dav.call('PUT', `/dav/calendars/${b.dav.username}/${a.calendarId}/x.ics`, vcalendar('x', ['DTSTART:20300110T120000Z', 'DTEND:20300110T130000Z']))).status).toBe(404);
    const home = await b.dav.call('PROPFIND', `/dav/calendars/${b.dav.username}/`, PROPFIND_ALL, { depth: '1' });
    expect(hrefsIn(home.text).some((h) => h.includes(a.calendarId))).toBe(false);
  });

  it('a reader sees a shared collection read-only (PUT 403); a freeBusyReader sees none', async () => {
    const a = await setUp();
    await a.dav.call('PUT', `${a.collection}shared.ics`, vcalendar('shared', ['DTSTART:20300110T120000Z', 'DTEND:20300110T130000Z', 'SUMMARY:Shared']));
    const reader = await signUp(base);
    const busyOnly = await signUp(base);
    for (const [c, role] of [[reader, 'reader'], [busyOnly, 'freeBusyReader']] as const) {
      expect((await a.owner.call('POST', `/calendars/${a.calendarId}/members`, { email: c.email, role })).status).toBe(201);
    }
    const readerDav = await davClientOf(base, reader);
    const mine = `/dav/calendars/${readerDav.username}/${a.calendarId}/`;
    const home = await readerDav.call('PROPFIND', `/dav/calendars/${readerDav.username}/`, PROPFIND_ALL, { depth: '1' });
    expect(hrefsIn(home.text)).toContain(mine);
    const listed = await readerDav.call('PROPFIND', mine, PROPFIND_ALL, { depth: '0' });
    expect(listed.text).toContain('<d:privilege><d:read/></d:privilege>');
    expect(listed.text).not.toContain('write-content');
    expect((await readerDav.call('GET', `${mine}shared.ics`)).text).toContain('SUMMARY:Shared');
    expect((await readerDav.call('PUT', `${mine}r.ics`, vcalendar('r', ['DTSTART:20300110T120000Z', 'DTEND:20300110T130000Z']))).status).toBe(403);
    expect((await readerDav.call('DELETE', `${mine}shared.ics`)).status).toBe(403);
    const busyDav = await davClientOf(base, busyOnly);
    const busyHome = await busyDav.call('PROPFIND', `/dav/calendars/${busyDav.username}/`, PROPFIND_ALL, { depth: '1' });
    expect(hrefsIn(busyHome.text).some((h) => h.includes(a.calendarId))).toBe(false);
    expect((await busyDav.call('GET', `/dav/calendars/${busyDav.username}/${a.calendarId}/shared.ics`)).status).toBe(404);
  });
});

describe('CalDAV hostile bodies', () => {
  it('refuses XML with a DOCTYPE (entity expansion) with 400 and a body over 1 MB with 413', async () => {
    const { dav, collection } = await setUp();
    const bomb = `<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
      <d:propfind xmlns:d="DAV:"><d:prop><d:displayname>&lol2;</d:displayname></d:prop></d:propfind>`;
    const refused = await dav.call('PROPFIND', collection, bomb);
    expect(refused.status).toBe(400);
    const big = await dav.call('PUT', `${collection}big.ics`, vcalendar('big', ['DTSTART:20300110T120000Z', 'DTEND:20300110T130000Z', `DESCRIPTION:${'x'.repeat(1_100_000)}`]));
    expect(big.status).toBe(413);
    expect((await dav.call('REPORT', collection, '<not-closed')).status).toBe(400);
  });
});
