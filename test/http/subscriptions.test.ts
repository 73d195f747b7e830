/**
 * Subscriptions to calendars elsewhere over real HTTP, from a local source server: subscribe (every refusal writing
 * nothing), the first fetch, 304 appending nothing, a changed file (an update, a removed UID cancelled), a failure
 * shown in `lastError` then recovery, a hanging source timed out, an oversized body cut off, a redirect to a private
 * address refused; refresh and unsubscribe, someone else's 404; REST writes into it 403 `calendar_read_only`; its busy
 * events removing public booking slots and showing in availability and free/busy.
 */
import type { LookupFunction } from 'node:net';
import { guardedLookup } from '../../services/dispatcher/private-addresses';
import { readSource } from '../../services/subscriptions/read-source';
import { eraseUser } from '../../services/history/erasure';
import { noValidators, SUBSCRIPTIONS, SubscriptionStore } from '../../services/subscriptions/subscription-store';
import { startSubscriptionWorker } from '../../services/subscriptions/subscription-worker';
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { hostWithType, mondayAhead, slotsOf } from '../support/bookings';
import { icsAnswer, icsOf, startIcsSource, type IcsSource } from '../support/ics-source';
import { request, signUp, startTestService, useTestService, type Client, type TestService } from '../support/service';
import { subscriptionsOf } from '../support/subscriptions';

let svc: TestService;
let source: IcsSource;
useTestService((s) => (svc = s), {
  WEBHOOK_ALLOW_PRIVATE_URLS: 'true', SUBSCRIPTION_POLL_MS: '30', SUBSCRIPTION_TIMEOUT_MS: '1500',
  // Only a subscription's first fetch and POST /refresh fetch here: the suite decides when.
  SUBSCRIPTION_REFRESH_MS: '3600000', SUBSCRIPTION_RETRY_FIRST_MS: '3600000',
});
beforeAll(async () => (source = await startIcsSource()));
afterAll(() => source.close());

const DAY = 86_400_000;
const today = Math.floor(Date.now() / DAY) * DAY;
const at = (days: number, hours: number) => new Date(today + days * DAY + hours * 3_600_000).toISOString();
const enc = encodeURIComponent;
const overlaps = (s: { startsAt: string; endsAt: string }, from: string, to: string) => s.startsAt < to && s.endsAt > from;
const head = () => svc.service.context.events.headPosition();
const caughtUp = async () => ({ 'X-Calendar-Min-Position': String(await head()) });

const standup = { uid: 'standup@elsewhere.test', summary: 'Standup', start: at(3, 9), end: at(3, 10) };
const review = { uid: 'review@elsewhere.test', summary: 'Review', start: at(4, 14), end: at(4, 15) };

const { listed, subscribed: subscribedTo, refreshed, fetched: refreshedOrFetched } = subscriptionsOf(() => svc);

async function titlesIn(c: Client, calendarId: string): Promise<string[]> {
  const res = await c.call('GET', `/events?from=${enc(at(0, 0))}&to=${enc(at(30, 0))}`, undefined, await caughtUp());
  expect(res.status).toBe(200);
  return (res.body.events as Array<{ calendarId: string; title: string }>).filter((e) => e.calendarId === calendarId).map((e) => e.title).sort();
}

/** Subscribes `c` to `path` of the source and waits for the first fetch. */
const subscribed = (c: Client, path: string, extra: Record<string, unknown> = {}) => subscribedTo(c, { url: source.url(path), ...extra });

describe('POST /calendars/subscriptions', () => {
  it('makes a read-only calendar, fetched at once; GET /calendars lists it beside own calendars', async () => {
    const ada = await signUp(svc.base);
    source.serve('/ada.ics', icsAnswer(icsOf([standup, review]), '"v1"'));
    const { id, first, created } = await subscribed(ada, '/ada.ics', { color: '#33aa66', username: 'ada', password: 'secret-pass-1' });
    expect(created).toMatchObject({ name: 'Elsewhere', color: '#33aa66', role: 'owner', readOnly: true, source: { url: source.url('/ada.ics'), lastFetchedAt: null, lastError: null } });
    expect(JSON.stringify(created)).not.toContain('secret-pass-1');
    expect(first.lastError).toBeNull();
    expect(first.lastFetchedAt).not.toBeNull();
    // Credentials of a plain .ics address: Basic auth on the GET (after the PROPFIND that found no collection).
    expect(source.seen.filter((s) => s.path === '/ada.ics').every((s) => s.authorization === `Basic ${Buffer.from('ada:secret-pass-1').toString('base64')}`)).toBe(true);
    expect(await titlesIn(ada, id)).toEqual(['Review', 'Standup']);
    const calendars = (await ada.call('GET', '/calendars')).body.calendars as Array<{ id: string; readOnly: boolean }>;
    expect(calendars.map((c) => c.readOnly)).toEqual([false, true]);
    expect(JSON.stringify(calendars)).not.toContain('secret-pass-1');
  });

  it('refuses what it cannot fetch, writing nothing', async () => {
    const ada = await signUp(svc.base);
    const before = await head();
    expectInvalid(await ada.call('POST', '/calendars/subscriptions', { url: 'ftp://example.com/cal.ics', name: 'X' }), 'body.url');
    expectInvalid(await ada.call('POST', '/calendars/subscriptions', { url: 'https://ada:pw@example.com/cal.ics', name: 'X' }), 'body.url');
    expectInvalid(await ada.call('POST', '/calendars/subscriptions', { url: 'webcal:', name: 'X' }), 'body.url');
    expectInvalid(await ada.call('POST', '/calendars/subscriptions', { url: 'https://example.com/cal.ics', name: 'X', username: 'ada' }), 'body.password');
    expectInvalid(await ada.call('POST', '/calendars/subscriptions', { url: 'https://example.com/cal.ics' }), 'body.name');
    expect(await head()).toBe(before);
    const key = await ada.call('POST', '/api-keys', { name: 'read only', scopes: ['calendars:read'] });
    const res = await request(svc.base, 'POST', '/calendars/subscriptions', { url: 'https://example.com/a.ics', name: 'X' }, { authorization: `Bearer ${key.body.key}` });
    expectError(res, 403, 'insufficient_scope');
    expect((await request(svc.base, 'POST', '/calendars/subscriptions', { url: 'https://example.com/a.ics', name: 'X' })).status).toBe(401);
  });

  it('takes a webcal:// address as https, with an API key of calendars:write', async () => {
    const ada = await signUp(svc.base);
    const key = await ada.call('POST', '/api-keys', { name: 'subscriber', scopes: ['calendars:write'] });
    const res = await request(svc.base, 'POST', '/calendars/subscriptions', { url: 'webcal://calendar.invalid/x.ics', name: 'Holidays' }, { authorization: `Bearer ${key.body.key}` });
    expect(res.status).toBe(201);
    expect(res.body.calendar.source.url).toBe('https://calendar.invalid/x.ics');
  });

  it('refuses private addresses unless WEBHOOK_ALLOW_PRIVATE_URLS', async () => {
    const strict = await startTestService();
    try {
      const ada = await signUp(strict.base);
      for (const url of [source.url('/ada.ics'), 'http://10.1.2.3/cal.ics', 'http://[::1]/cal.ics', 'http://169.254.169.254/latest']) {
        expectInvalid(await ada.call('POST', '/calendars/subscriptions', { url, name: 'X' }), 'body.url');
      }
    } finally {
      await strict.stop();
    }
  });
});

describe('fetching', () => {
  let ada: Client;
  let id: string;
  const refresh = () => refreshed(ada, id);

  beforeAll(async () => {
    ada = await signUp(svc.base);
    source.serve('/feed.ics', icsAnswer(icsOf([standup, review]), '"f1"'));
    ({ id } = await subscribed(ada, '/feed.ics'));
  });

  it('an unchanged source (304 to If-None-Match) appends nothing', async () => {
    const before = await head();
    expect((await refresh()).lastError).toBeNull();
    expect(source.seen.filter((s) => s.path === '/feed.ics').at(-1)!.ifNoneMatch).toBe('"f1"');
    expect(await head()).toBe(before);
  });

  it('a fetch\'s events are delivered to the subscriber\'s webhooks', async () => {
    const carl = await signUp(svc.base);
    const delivered: string[] = [];
    source.serve('/hook', (req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString()));
      req.on('end', () => {
        const { type, data } = JSON.parse(body) as { type: string; data: { title: string } };
        delivered.push(`${type} ${data.title}`);
        res.writeHead(204).end();
      });
    });
    expect((await carl.call('POST', '/webhooks', { name: 'events', url: source.url('/hook'), events: ['event.created', 'event.cancelled'] })).status).toBe(201);
    source.serve('/hooked.ics', icsAnswer(icsOf([review]), '"w1"'));
    const { id: hooked } = await subscribed(carl, '/hooked.ics');
    source.serve('/hooked.ics', icsAnswer(icsOf([]), '"w2"'));
    await refreshed(carl, hooked);
    for (const started = Date.now(); delivered.length < 2 && Date.now() - started < 10_000;) await new Promise((resolve) => setTimeout(resolve, 30));
    expect(delivered).toEqual(['event.created Review', 'event.cancelled Review']);
  });

  it('a source with Last-Modified only: If-Modified-Since, and 304 appends nothing', async () => {
    const modified = 'Tue, 01 Dec 2026 08:00:00 GMT';
    source.serve('/dated.ics', (req, res) => {
      if (req.headers['if-modified-since'] === modified) return void res.writeHead(304).end();
      res.writeHead(200, { 'content-type': 'text/calendar', 'last-modified': modified }).end(icsOf([review]));
    });
    const { id: dated } = await subscribed(ada, '/dated.ics');
    const before = await head();
    expect((await refreshed(ada, dated)).lastError).toBeNull();
    expect(source.seen.filter((s) => s.path === '/dated.ics').map((s) => s.ifModifiedSince)).toEqual([undefined, modified]);
    expect(await head()).toBe(before);
  });

  it('a changed file updates by UID and cancels the UIDs gone from it', async () => {
    source.serve('/feed.ics', icsAnswer(icsOf([{ ...standup, summary: 'Standup (moved)', start: at(3, 11), end: at(3, 12) }]), '"f2"'));
    await refresh();
    expect(await titlesIn(ada, id)).toEqual(['Standup (moved)']);
    // The same file again without the ETag (a server without validators): nothing appended either.
    source.serve('/feed.ics', (_req, res) => void res.writeHead(200).end(icsOf([{ ...standup, summary: 'Standup (moved)', start: at(3, 11), end: at(3, 12) }])));
    const before = await head();
    await refresh();
    expect(await head()).toBe(before);
    // A UID that comes back is brought back.
    source.serve('/feed.ics', icsAnswer(icsOf([standup, review]), '"f3"'));
    await refresh();
    expect(await titlesIn(ada, id)).toEqual(['Review', 'Standup']);
  });

  it('a failure shows in lastError, the events stay, and the next good fetch clears it', async () => {
    source.serve('/feed.ics', (_req, res) => void res.writeHead(500).end('boom'));
    expect((await refresh()).lastError).toBe('HTTP 500');
    expect(await titlesIn(ada, id)).toEqual(['Review', 'Standup']);
    source.serve('/feed.ics', (_req, res) => void res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not a calendar</html>'));
    expect((await refresh()).lastError).toMatch(/iCalendar|VCALENDAR/);
    source.serve('/feed.ics', icsAnswer(icsOf([standup]), '"f4"'));
    const ok = await refresh();
    expect(ok.lastError).toBeNull();
    expect(await titlesIn(ada, id)).toEqual(['Standup']);
  });

  it('a hanging source is timed out', async () => {
    source.serve('/feed.ics', () => undefined);
    expect((await refresh()).lastError).toMatch(/timed out after 1500 ms/);
    source.serve('/feed.ics', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      res.write('BEGIN:VCALENDAR\r\n'); // then nothing more
    });
    expect((await refresh()).lastError).toMatch(/timed out/);
  });

  it('a body past 10 MB is cut off, declared or streamed', async () => {
    const chunk = Buffer.alloc(1 << 20, 'X');
    source.serve('/feed.ics', (_req, res) => {
      res.writeHead(200, { 'content-type': 'text/calendar' });
      const more = (n: number): void => {
        if (n === 0 || res.destroyed) return void res.end();
        if (res.write(chunk)) more(n - 1);
        else res.once('drain', () => more(n - 1));
      };
      more(12);
    });
    expect((await refresh()).lastError).toMatch(/larger than 10000000 bytes: cut off/);
    source.serve('/feed.ics', (_req, res) => void res.writeHead(200, { 'content-length': '20000000' }).end());
    expect((await refresh()).lastError).toMatch(/cut off/);
    expect(await titlesIn(ada, id)).toEqual(['Standup']);
  });

  it('refresh and unsubscribe: someone else\'s calendar is 404, a calendar made here 409', async () => {
    const bob = await signUp(svc.base);
    expectNotFound(await bob.call('POST', `/calendars/${id}/refresh`));
    expectNotFound(await bob.call('DELETE', `/calendars/${id}`));
    expect((await bob.call('GET', '/calendars')).body.calendars.map((c: { id: string }) => c.id)).not.toContain(id);
    expectNotFound(await ada.call('POST', '/calendars/00000000-0000-4000-8000-000000000000/refresh'));
    const own = (await ada.call('GET', '/calendars')).body.calendars.find((c: { readOnly: boolean }) => !c.readOnly);
    expectError(await ada.call('POST', `/calendars/${own.id}/refresh`), 409, 'not_a_subscription');
    expectError(await ada.call('DELETE', `/calendars/${own.id}`), 409, 'not_a_subscription');
    expectInvalid(await ada.call('POST', '/calendars/not-a-uuid/refresh'), 'path.id');
  });
});

describe('credentials', () => {
  it('are kept sealed, never in the log, and go with the user\'s erasure', async () => {
    const ada = await signUp(svc.base);
    const from = await head();
    source.serve('/private.ics', icsAnswer(icsOf([standup]), '"c1"'));
    const { id } = await subscribed(ada, '/private.ics', { username: 'ada', password: 'erase-me-pass-9' });
    const docs = svc.service.ports.store.collection(SUBSCRIPTIONS);
    const doc = await docs.get(id);
    expect(doc!.sealedCredentials).toEqual(expect.any(String));
    expect(JSON.stringify(doc)).not.toContain('erase-me-pass-9');
    // As stored: below the decoding store, each event as written (sealed under the user's key or not).
    const logged = await svc.service.ports.events.readAll(from, 1000);
    expect(logged.length).toBeGreaterThan(0);
    expect(JSON.stringify(logged)).not.toContain('erase-me-pass-9');
    await eraseUser(svc.service.context, ada.userId);
    expect(await docs.get(id)).toBeNull();
  });
});

describe('the fetcher', () => {
  it('two workers on one store fetch each subscription once (the lease)', async () => {
    const context = svc.service.context;
    const second = await startSubscriptionWorker(context, new SubscriptionStore(svc.service.ports.store, context.serverKeys));
    try {
      const ada = await signUp(svc.base);
      source.serve('/once.ics', icsAnswer(icsOf([standup]), '"o1"'));
      const hits = () => source.seen.filter((s) => s.path === '/once.ics').length;
      const { id } = await subscribed(ada, '/once.ics');
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(hits()).toBe(1);
      await refreshed(ada, id);
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(hits()).toBe(2);
    } finally {
      await second.stop();
    }
  });

  it('one user\'s many subscriptions take two slots at most: another user\'s is fetched meanwhile', async () => {
    const [ann, ben] = [await signUp(svc.base), await signUp(svc.base)];
    let active = 0;
    let most = 0;
    source.serve('/slow.ics', (_req, res) => {
      most = Math.max(most, ++active);
      setTimeout(() => {
        active--;
        res.writeHead(200, { 'content-type': 'text/calendar' }).end(icsOf([standup]));
      }, 500);
    });
    source.serve('/fast.ics', icsAnswer(icsOf([review]), '"fast"'));
    const ids: string[] = [];
    for (let i = 0; i < 6; i++) ids.push((await ann.call('POST', '/calendars/subscriptions', { url: source.url('/slow.ics'), name: `Slow ${i}` })).body.calendar.id);
    const started = Date.now();
    const { first } = await subscribed(ben, '/fast.ics');
    expect(first.lastError).toBeNull();
    // Ann's six take three rounds of half a second; Ben's went in beside them.
    expect(Date.now() - started).toBeLessThan(1000);
    for (const id of ids) await refreshedOrFetched(ann, id);
    expect(most).toBe(2);
  });
});

describe('a redirect to a private address', () => {
  /** `calendar.test` answers with the source's loopback address as if it were public; every other name is guarded. */
  const lookup = ((host: string, options: object, callback: (...args: unknown[]) => void) => {
    if (host !== 'calendar.test') return guardedLookup(host, options, callback as never);
    const all = (options as { all?: boolean }).all;
    return all ? callback(null, [{ address: '127.0.0.1', family: 4 }]) : callback(null, '127.0.0.1', 4);
  }) as unknown as LookupFunction;
  const limits = { timeoutMs: 2000, maxBytes: 10_000_000, allowPrivate: false, lookup };

  it('is refused, to an address or to a name that resolves to one', async () => {
    const port = new URL(source.url('/')).port;
    source.serve('/public.ics', icsAnswer(icsOf([standup]), '"p1"'));
    source.serve('/to-address', (_req, res) => void res.writeHead(302, { location: source.url('/public.ics') }).end());
    source.serve('/to-name', (_req, res) => void res.writeHead(301, { location: `http://localhost:${port}/public.ics` }).end());
    source.serve('/to-public', (_req, res) => void res.writeHead(307, { location: `http://calendar.test:${port}/public.ics` }).end());
    const fetch = (path: string) => readSource(`http://calendar.test:${port}${path}`, null, noValidators(), limits);
    await expect(fetch('/to-address')).rejects.toThrow(/redirected to http:\/\/127\.0\.0\.1:\d+\/public\.ics: 127\.0\.0\.1 is a loopback/);
    await expect(fetch('/to-name')).rejects.toThrow(/redirected to http:\/\/localhost:\d+\/public\.ics: localhost resolves to/);
    expect(await fetch('/to-public')).toMatchObject({ kind: 'texts', validators: { etag: '"p1"' } });
  });
});

describe('read-only over REST', () => {
  it('refuses writes of events into a subscribed calendar with 403 calendar_read_only, writing nothing', async () => {
    const ada = await signUp(svc.base);
    source.serve('/series.ics', icsAnswer(icsOf([standup]).replace('TRANSP:OPAQUE', 'TRANSP:OPAQUE\r\nRRULE:FREQ=DAILY;COUNT=5'), '"s1"'));
    const { id } = await subscribed(ada, '/series.ics');
    const events = (await ada.call('GET', `/events?from=${enc(at(0, 0))}&to=${enc(at(30, 0))}`, undefined, await caughtUp())).body.events;
    const series = events.find((e: { calendarId: string }) => e.calendarId === id);
    const seriesId = series.seriesId ?? series.id;
    const own = (await ada.call('GET', '/calendars')).body.calendars.find((c: { readOnly: boolean }) => !c.readOnly);
    const mine = await ada.call('POST', '/events', { calendarId: own.id, title: 'Mine', startsAt: at(5, 9), endsAt: at(5, 10), timeZone: 'UTC' });
    expect(mine.status).toBe(201);
    const before = await head();
    const readOnly = (res: Parameters<typeof expectError>[0]) => expectError(res, 403, 'calendar_read_only');
    readOnly(await ada.call('POST', '/events', { calendarId: id, title: 'Sneak', startsAt: at(5, 9), endsAt: at(5, 10), timeZone: 'UTC' }));
    readOnly(await ada.call('PATCH', `/events/${seriesId}`, { title: 'Renamed' }));
    readOnly(await ada.call('PATCH', `/events/${mine.body.event.id}`, { calendarId: id }));
    readOnly(await ada.call('DELETE', `/events/${seriesId}`));
    const second = enc(new Date(Date.parse(standup.start) + DAY).toISOString());
    readOnly(await ada.call('PATCH', `/events/${seriesId}/occurrences/${second}`, { title: 'One' }));
    readOnly(await ada.call('DELETE', `/events/${seriesId}/occurrences/${second}`));
    readOnly(await ada.call('POST', `/events/${seriesId}/split`, { occurrenceStartsAt: new Date(Date.parse(standup.start) + DAY).toISOString(), title: 'Later' }));
    readOnly(await ada.call('POST', `/calendars/${id}/import`, icsOf([review]), { 'content-type': 'text/calendar' }));
    // Bookings cannot be sent there either (the next fetch would cancel them).
    readOnly(await ada.call('POST', '/meeting-types', { name: 'Intro', slug: 'intro', durationMinutes: 30, calendarId: id }));
    expect(await head()).toBe(before);
  });

  it('DELETE /calendars/{id} unsubscribes: its events are cancelled, the calendar leaves the list', async () => {
    const ada = await signUp(svc.base);
    const { cursor } = (await ada.call('GET', '/me/bootstrap')).body;
    source.serve('/gone.ics', icsAnswer(icsOf([standup, review]), '"g1"'));
    const { id } = await subscribed(ada, '/gone.ics');
    expect(await titlesIn(ada, id)).toHaveLength(2);
    const boot = (await ada.call('GET', '/me/bootstrap', undefined, await caughtUp())).body;
    expect(boot.calendars.find((c: { id: string }) => c.id === id)).toMatchObject({ readOnly: true, source: { url: source.url('/gone.ics') } });
    const res = await ada.call('DELETE', `/calendars/${id}`);
    expect(res.status).toBe(204);
    expect(await listed(ada, id)).toBeUndefined();
    expect(await titlesIn(ada, id)).toEqual([]);
    // /sync tells an app that the fetched events came, then went with the calendar.
    const changes = (await ada.call('GET', `/sync?since=${enc(cursor)}`, undefined, await caughtUp())).body.changes;
    expect(changes.calendars.find((c: { id: string }) => c.id === id).deletedAt).not.toBeNull();
    const synced = changes.events.filter((e: { calendarId: string }) => e.calendarId === id);
    expect(synced.map((e: { title: string; status: string }) => `${e.title} ${e.status}`).sort()).toEqual(['Review cancelled', 'Standup cancelled']);
    expectNotFound(await ada.call('POST', `/calendars/${id}/refresh`));
    expectNotFound(await ada.call('DELETE', `/calendars/${id}`));
  });
});

describe('busy time', () => {
  it('a busy subscribed event removes the matching booking slots and counts in availability, free/busy, suggestions and the planner', async () => {
    const host = await hostWithType(svc.base, { durationMinutes: 30 }, { timeZone: 'UTC' });
    const monday = mondayAhead('UTC');
    const slot = (h: number, m = 0) => `${monday}T${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00.000Z`;
    const query = `?from=${monday}&days=1&timeZone=UTC`;
    const before = (await slotsOf(svc.base, host, query)).map((s) => s.startsAt);
    expect(before).toEqual(expect.arrayContaining([slot(10), slot(10, 30)]));
    source.serve('/host.ics', icsAnswer(icsOf([
      { uid: 'busy@elsewhere.test', summary: 'Dentist', start: slot(10), end: slot(11) },
      { uid: 'free@elsewhere.test', summary: 'Reminder only', start: slot(14), end: slot(15), transparent: true },
    ]), '"h1"'));
    await subscribed(host.client, '/host.ics');
    const headers = await caughtUp();
    const after = (await request(svc.base, 'GET', `${host.page}/slots${query}`, undefined, headers)).body.slots.map((s: { startsAt: string }) => s.startsAt);
    expect(after).not.toContain(slot(10));
    expect(after).not.toContain(slot(10, 30));
    expect(after).toContain(slot(9, 30));
    expect(after).toContain(slot(11));
    expect(after).toContain(slot(14));

    const range = `from=${enc(slot(0))}&to=${enc(slot(23))}`;
    const freeBusy = await host.client.call('GET', `/free-busy?${range}`, undefined, headers);
    expect(freeBusy.body.busy).toEqual([{ startsAt: slot(10), endsAt: slot(11) }]);
    const asked = await host.client.call('POST', '/free-busy', { from: slot(0), to: slot(23), people: [host.client.email] }, headers);
    expect(asked.status).toBe(200);
    expect(asked.body.people[0].busy).toEqual([{ startsAt: slot(10), endsAt: slot(11) }]);
    const slots = await host.client.call('GET', `/available-slots?from=${monday}&days=1&durationMinutes=30`, undefined, headers);
    expect(slots.status).toBe(200);
    expect(JSON.stringify(slots.body)).not.toContain(slot(10, 30));

    const day = (await host.client.call('GET', `/availability?from=${monday}&days=1`, undefined, headers)).body.days[0];
    const blocked = day.blocked.find((b: { startsAt: string }) => b.startsAt === slot(10));
    expect(blocked).toMatchObject({ endsAt: slot(11), reasons: [{ type: 'event' }] });
    const suggested = await host.client.call('POST', '/meeting-suggestions', { from: slot(9), to: slot(12), attendees: [host.client.email], durationMinutes: 60 }, headers);
    expect(suggested.status).toBe(200);
    expect(suggested.body.suggestions.length).toBeGreaterThan(0);
    for (const s of suggested.body.suggestions as Array<{ startsAt: string; endsAt: string }>) expect(overlaps(s, slot(10), slot(11))).toBe(false);

    const task = await host.client.call('POST', '/tasks', { title: 'Write the report', estimateMinutes: 90, dueAt: slot(20) });
    expect(task.status).toBe(201);
    const plan = await host.client.call('POST', '/planner/plan', { kind: 'tasks', ids: [task.body.task.id], from: slot(9), to: slot(17) }, headers);
    expect(plan.status).toBe(200);
    expect(plan.body.blocks.length).toBeGreaterThan(0);
    for (const b of plan.body.blocks as Array<{ startsAt: string; endsAt: string }>) expect(overlaps(b, slot(10), slot(11))).toBe(false);
  });
});
