/**
 * iCalendar out and in over real HTTP (addendum, "iCalendar (RFC 5545) out and in"): the feed address (issued,
 * replaced, revoked), the feed itself as calendar apps fetch it (content type, ETag and 304, 30 days back, series
 * with EXDATE and overrides, VTIMEZONE, VALARM, attendees), and importing files (idempotent by UID, changed files
 * update, RDATE and overrides, overlap allowed, bad and hostile files refused with nothing written), for two users
 * who never reach each other's calendars.
 */
import ICAL from 'ical.js';
import { expectError, expectNotFound } from '../support/api-expect';
import { request, signUp, useTestService, type Client } from '../support/service';

let base: string;
useTestService((started) => (base = started.base));

const enc = encodeURIComponent;
const DAY = 86_400_000;
const iso = (ms: number) => new Date(ms).toISOString();
/** Whole hours from now, so the feed's 30 days back and the events' times never depend on the hour the test runs. */
const hoursFromNow = (h: number) => iso(Math.floor(Date.now() / 3_600_000) * 3_600_000 + h * 3_600_000);

async function calendarOf(c: Client): Promise<string> {
  const res = await c.call('GET', '/calendars');
  return res.body.calendars[0].id as string;
}

async function issueFeed(c: Client, calendarId: string) {
  const res = await c.call('POST', `/calendars/${calendarId}/feed`);
  expect(res.status).toBe(201);
  return res.body.feed as { url: string; webcalUrl: string; createdAt: string };
}

const fetchFeed = (url: string, headers: Record<string, string> = {}) => fetch(url, { headers });

const importFile = (c: Client, calendarId: string, text: string, headers: Record<string, string> = {}) =>
  c.call('POST', `/calendars/${calendarId}/import`, text, { 'content-type': 'text/calendar', ...headers });

async function listEvents(c: Client, from: string, to: string) {
  const res = await c.call('GET', `/events?from=${enc(from)}&to=${enc(to)}`);
  expect(res.status).toBe(200);
  return res.body.events as Array<{ id: string; title: string; startsAt: string; seriesId: string | null; icalUid: string | null; occurrenceStartsAt: string | null }>;
}

describe('the feed', () => {
  let ada: Client;
  let calendarId: string;
  let seriesId: string;
  beforeAll(async () => {
    ada = await signUp(base, { timeZone: 'Europe/Berlin' });
    calendarId = await calendarOf(ada);
    const series = await ada.call('POST', '/events', {
      title: 'Standup, daily', startsAt: hoursFromNow(24), endsAt: hoursFromNow(25), timeZone: 'Europe/Berlin',
      recurrenceRule: 'FREQ=DAILY;COUNT=5', reminders: [{ minutesBefore: 15, method: 'notification' }],
      attendees: [{ email: 'grace@example.com', name: 'Grace Hopper' }],
    });
    expect(series.status).toBe(201);
    seriesId = series.body.event.id;
    const second = iso(Date.parse(hoursFromNow(24)) + DAY);
    const third = iso(Date.parse(hoursFromNow(24)) + 2 * DAY);
    expect((await ada.call('DELETE', `/events/${seriesId}/occurrences/${enc(second)}`)).status).toBe(204);
    const moved = await ada.call('PATCH', `/events/${seriesId}/occurrences/${enc(third)}`, { title: 'Standup (moved)', startsAt: hoursFromNow(75), endsAt: hoursFromNow(76) });
    expect(moved.status).toBe(200);
    expect((await ada.call('POST', '/events', { title: 'Long gone', startsAt: hoursFromNow(-24 * 40), endsAt: hoursFromNow(-24 * 40 + 1) })).status).toBe(201);
    expect((await ada.call('POST', '/events', { title: 'Last week', startsAt: hoursFromNow(-24 * 7), endsAt: hoursFromNow(-24 * 7 + 1), timeZone: 'America/New_York' })).status).toBe(201);
  });

  it('POST gives a secret https/http address and its webcal:// twin; GET serves the calendar as text/calendar with an ETag', async () => {
    const feed = await issueFeed(ada, calendarId);
    expect(feed.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ical\/cf_[\w-]{43}\.ics$/);
    expect(feed.webcalUrl).toBe(feed.url.replace(/^http:/, 'webcal:'));
    const res = await fetchFeed(feed.url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const etag = res.headers.get('etag');
    expect(etag).toMatch(/^".+"$/);
    const text = await res.text();
    const calendar = new ICAL.Component(ICAL.parse(text));
    const vevents = calendar.getAllSubcomponents('vevent');
    const summaries = vevents.map((v) => v.getFirstPropertyValue('summary')).sort();
    // 30 days back on: last week's event is there, the one of 40 days ago is not.
    expect(summaries).toEqual(['Last week', 'Standup (moved)', 'Standup, daily']);
    expect(calendar.getAllSubcomponents('vtimezone').map((z) => z.getFirstPropertyValue('tzid')).sort()).toEqual(['America/New_York', 'Europe/Berlin']);
    const master = vevents.find((v) => v.getFirstPropertyValue('summary') === 'Standup, daily')!;
    expect(master.getFirstPropertyValue('uid')).toBe(`${seriesId}@calendar-service`);
    expect(String(master.getFirstPropertyValue('rrule'))).toBe('FREQ=DAILY;COUNT=5');
    expect(master.getAllProperties('exdate')).toHaveLength(1);
    expect(master.getFirstSubcomponent('valarm')!.getFirstPropertyValue('trigger')!.toString()).toBe('-PT15M');
    expect(master.getFirstPropertyValue('attendee')).toBe('mailto:grace@example.com');
    expect(master.getFirstPropertyValue('organizer')).toBe(`mailto:${ada.email}`);
    const override = vevents.find((v) => v.getFirstPropertyValue('summary') === 'Standup (moved)')!;
    expect(override.getFirstPropertyValue('uid')).toBe(`${seriesId}@calendar-service`);
    expect(override.getFirstProperty('recurrence-id')!.getFirstParameter('tzid')).toBe('Europe/Berlin');

    const again = await fetchFeed(feed.url, { 'If-None-Match': etag! });
    expect(again.status).toBe(304);
    expect(await again.text()).toBe('');
    expect((await fetchFeed(feed.url, { 'If-None-Match': `"other", W/${etag}` })).status).toBe(304);
    expect((await fetchFeed(feed.url, { 'If-None-Match': '"other"' })).status).toBe(200);
    // Also below the API's base path.
    expect((await fetchFeed(feed.url.replace('/ical/', '/api/v1/ical/'))).status).toBe(200);
  });

  it('a change to the calendar moves the ETag', async () => {
    const feed = await issueFeed(ada, calendarId);
    const before = (await fetchFeed(feed.url)).headers.get('etag')!;
    expect((await ada.call('PATCH', `/events/${seriesId}`, { title: 'Standup, renamed' })).status).toBe(200);
    const after = await fetchFeed(feed.url, { 'If-None-Match': before });
    expect(after.status).toBe(200);
    expect(after.headers.get('etag')).not.toBe(before);
    expect(await after.text()).toMatch(/SUMMARY:Standup\\, renamed/);
  });

  it('issuing again replaces the address (the old one 404s); DELETE revokes it; nobody else reaches it', async () => {
    const first = await issueFeed(ada, calendarId);
    const second = await issueFeed(ada, calendarId);
    expect(second.url).not.toBe(first.url);
    expect((await fetchFeed(first.url)).status).toBe(404);
    expect((await fetchFeed(second.url)).status).toBe(200);

    const bob = await signUp(base);
    expectNotFound(await bob.call('POST', `/calendars/${calendarId}/feed`));
    expectNotFound(await bob.call('DELETE', `/calendars/${calendarId}/feed`));
    expect((await fetchFeed(second.url)).status).toBe(200);

    expect((await ada.call('DELETE', `/calendars/${calendarId}/feed`)).status).toBe(204);
    const gone = await fetchFeed(second.url);
    expect(gone.status).toBe(404);
    expect(((await gone.json()) as { error: { code: string } }).error.code).toBe('not_found');
    expectNotFound(await ada.call('DELETE', `/calendars/${calendarId}/feed`));
    expect((await fetchFeed(second.url.replace(/cf_[\w-]+/, 'cf_guessed'))).status).toBe(404);
  });

  it('needs calendars:write, and the calendar must exist', async () => {
    const key = await ada.call('POST', '/api-keys', { name: 'read only', scopes: ['calendars:read'] });
    const res = await request(base, 'POST', `/calendars/${calendarId}/feed`, undefined, { authorization: `Bearer ${key.body.key}` });
    expectError(res, 403, 'insufficient_scope');
    expectNotFound(await ada.call('POST', '/calendars/00000000-0000-4000-8000-000000000000/feed'));
  });
});

const file = (...components: string[][]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Test//EN', ...components.flat(), 'END:VCALENDAR', ''].join('\r\n');
const vevent = (uid: string, ...lines: string[]) => ['BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', ...lines, 'END:VEVENT'];

/** A weekly series in Berlin across the autumn change, an override and an EXDATE, an RDATE, a single and a VTODO. */
const history = (title = 'Team sync') => file(
  vevent('sync@example.org', 'DTSTART;TZID=Europe/Berlin:20261019T100000', 'DTEND;TZID=Europe/Berlin:20261019T110000',
    'RRULE:FREQ=WEEKLY;COUNT=4', 'EXDATE;TZID=Europe/Berlin:20261102T100000', 'RDATE;TZID=Europe/Berlin:20261122T180000',
    `SUMMARY:${title}`, 'BEGIN:VALARM', 'ACTION:DISPLAY', 'TRIGGER:-PT10M', 'DESCRIPTION:x', 'END:VALARM'),
  vevent('sync@example.org', 'RECURRENCE-ID;TZID=Europe/Berlin:20261026T100000', 'DTSTART;TZID=Europe/Berlin:20261026T140000',
    'DTEND;TZID=Europe/Berlin:20261026T150000', 'SUMMARY:Team sync (afternoon)'),
  vevent('dentist@example.org', 'DTSTART:20261020T080000Z', 'DTEND:20261020T090000Z', 'SUMMARY:Dentist', 'LOCATION:Main St. 5'),
  ['BEGIN:VTODO', 'UID:todo@example.org', 'SUMMARY:Taxes', 'END:VTODO'],
);

describe('importing a file', () => {
  let ada: Client;
  let calendarId: string;
  const from = '2026-10-01T00:00:00Z';
  const to = '2026-12-01T00:00:00Z';
  beforeAll(async () => {
    ada = await signUp(base, { timeZone: 'Europe/Berlin' });
    calendarId = await calendarOf(ada);
    // A busy event the imported ones overlap: imports are history, not bookings.
    expect((await ada.call('POST', '/events', { title: 'Busy', startsAt: '2026-10-20T07:30:00Z', endsAt: '2026-10-20T10:00:00Z' })).status).toBe(201);
  });

  it('imports series, overrides, EXDATE, RDATE and TZID; reports what it skipped; the events list as REST ones do', async () => {
    const res = await importFile(ada, calendarId, history());
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      imported: 3, updated: 0, skipped: [{ uid: 'todo@example.org', reason: 'VTODO components are not imported (only VEVENT)' }],
    });
    const listed = (await listEvents(ada, from, to)).filter((e) => e.title !== 'Busy');
    expect(listed.map((e) => [e.title, e.startsAt])).toEqual([
      ['Team sync', '2026-10-19T08:00:00.000Z'], // 10:00 CEST
      ['Dentist', '2026-10-20T08:00:00.000Z'],
      ['Team sync (afternoon)', '2026-10-26T13:00:00.000Z'], // 14:00 CET, after the change
      ['Team sync', '2026-11-09T09:00:00.000Z'], // 11-02 is excluded
      ['Team sync', '2026-11-22T17:00:00.000Z'], // the RDATE
    ]);
    expect(new Set(listed.map((e) => e.icalUid))).toEqual(new Set(['sync@example.org', 'dentist@example.org']));
    const series = await ada.call('GET', `/events/${listed[0].id}`);
    expect(series.body.event).toMatchObject({ recurrenceRule: 'FREQ=WEEKLY;COUNT=4', timeZone: 'Europe/Berlin', reminders: [{ minutesBefore: 10, method: 'notification' }], allowOverlap: true });
    const sync = await ada.call('GET', `/sync?since=${enc('2026-01-01T00:00:00Z')}`);
    expect(sync.body.changes.events.map((e: { id: string }) => e.id)).toEqual(expect.arrayContaining(listed.map((e) => e.id)));
  });

  it('the same file again changes nothing; a changed file updates the events it carried; STATUS:CANCELLED cancels', async () => {
    const again = await importFile(ada, calendarId, history());
    expect(again.body).toMatchObject({ imported: 0, updated: 0 });
    expect(again.headers.get('x-calendar-position')).toBeNull();
    const changed = await importFile(ada, calendarId, history('Team sync (renamed)'));
    expect(changed.body).toMatchObject({ imported: 0, updated: 2 }); // the series and the event its RDATE made
    expect((await listEvents(ada, from, to)).filter((e) => e.title === 'Team sync (renamed)')).toHaveLength(3);
    const cancelled = await importFile(ada, calendarId, file(vevent('dentist@example.org', 'DTSTART:20261020T080000Z', 'DTEND:20261020T090000Z', 'STATUS:CANCELLED')));
    expect(cancelled.body).toMatchObject({ imported: 0, updated: 1 });
    expect((await listEvents(ada, from, to)).map((e) => e.title)).not.toContain('Dentist');
    const revived = await importFile(ada, calendarId, history('Team sync (renamed)'));
    expect(revived.body).toMatchObject({ imported: 0, updated: 0, skipped: expect.arrayContaining([{ uid: 'dentist@example.org', reason: 'cancelled in this calendar: an import does not bring it back' }]) });
  });

  it('a file that is no iCalendar, or breaks the bounds, is 400 (413 past 10 MB) and writes nothing', async () => {
    const bob = await signUp(base);
    const bobCalendar = await calendarOf(bob);
    const cases: Array<[string, number, string]> = [
      ['not a calendar at all', 400, 'invalid_request'],
      ['BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nno colon here\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n', 400, 'invalid_request'],
      [file(...Array.from({ length: 10_001 }, (_, i) => vevent(`e${i}`, 'DTSTART:20261001T080000Z', 'DURATION:PT1H'))), 400, 'invalid_request'],
      [file(vevent('deep', 'BEGIN:VALARM', 'BEGIN:X-ONE', 'BEGIN:X-TWO', 'END:X-TWO', 'END:X-ONE', 'END:VALARM')), 400, 'invalid_request'],
      [file(vevent('big', 'DTSTART:20261001T080000Z', 'DURATION:PT1H', `DESCRIPTION:${'y'.repeat(11_000_000)}`)), 413, 'payload_too_large'],
    ];
    for (const [text, status, code] of cases) expectError(await importFile(bob, bobCalendar, text), status, code);
    expectError(await bob.call('POST', `/calendars/${bobCalendar}/import`, { ics: 'BEGIN:VCALENDAR' }), 400, 'invalid_request');
    expect(await listEvents(bob, '2026-09-01T00:00:00Z', '2027-08-01T00:00:00Z')).toEqual([]);
  });

  it('nobody imports into a calendar of someone else, nor sees what another imported; events:create is needed', async () => {
    const bob = await signUp(base);
    expectNotFound(await importFile(bob, calendarId, history()));
    expect(await listEvents(bob, from, to)).toEqual([]);
    const key = await ada.call('POST', '/api-keys', { name: 'reader', scopes: ['events:read'] });
    const res = await request(base, 'POST', `/calendars/${calendarId}/import`, history(), { authorization: `Bearer ${key.body.key}`, 'content-type': 'text/calendar' });
    expectError(res, 403, 'insufficient_scope');
  });

  it('a feed written by the service is the same events again: in its own calendar nothing changes, in another it makes them', async () => {
    const dana = await signUp(base, { timeZone: 'Europe/Berlin' });
    const first = hoursFromNow(48);
    const series = await dana.call('POST', '/events', {
      title: 'Review', startsAt: first, endsAt: hoursFromNow(49), timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=DAILY;COUNT=6',
    });
    const second = iso(Date.parse(first) + DAY);
    expect((await dana.call('DELETE', `/events/${series.body.event.id}/occurrences/${enc(second)}`)).status).toBe(204);
    const compact = (at: string) => at.replace(/[-:]/g, '').replace(/\.\d{3}/, '');
    const rdated = file(vevent('trip@example.org', `DTSTART:${compact(hoursFromNow(30))}`, 'DURATION:PT2H', 'SUMMARY:Trip',
      `RDATE:${compact(hoursFromNow(100))},${compact(hoursFromNow(200))}`));
    expect((await importFile(dana, await calendarOf(dana), rdated)).body).toMatchObject({ imported: 3, skipped: [] });
    const feed = await issueFeed(dana, await calendarOf(dana));
    const text = await (await fetchFeed(feed.url)).text();
    // Into its own calendar, the feed is the events it came from: nothing to import or change.
    expect((await importFile(dana, await calendarOf(dana), text)).body).toEqual({ imported: 0, updated: 0, skipped: [] });
    const carol = await signUp(base, { timeZone: 'Europe/Berlin' });
    const res = await importFile(carol, await calendarOf(carol), text);
    expect(res.body).toEqual({ imported: 4, updated: 0, skipped: [] });
    const strip = (events: Awaited<ReturnType<typeof listEvents>>) => events.map((e) => [e.title, e.startsAt, e.occurrenceStartsAt]);
    const [a, b] = [hoursFromNow(0), hoursFromNow(24 * 30)];
    expect(strip(await listEvents(carol, a, b))).toEqual(strip(await listEvents(dana, a, b)));
    expect(await listEvents(carol, a, b)).toHaveLength(5 + 3);
  });
});
