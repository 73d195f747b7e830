/**
 * Public booking over real HTTP, no credential: the type's page, slots in the guest's time zone (the type's hours
 * in the host's zone, busy time, buffers, notice), booking (201 {booking, manageToken}, an event in the host's
 * calendar), every refusal writing nothing, 20 concurrent bookings of one slot, retries, and the per-address limit.
 */
import { TimeZone } from '../../contracts/common';
import { addDays, epochAt } from '../../services/time/local-time';
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { book, booked, guest, hostWithType, mondayAhead, slotsOf, type Host } from '../support/bookings';
import { request, startTestService, useTestService, type TestService } from '../support/service';

let svc: TestService;
useTestService((s) => (svc = s));

const head = () => svc.service.context.events.headPosition();
const BERLIN = 'Europe/Berlin';
const MINUTE = 60_000;

const MONDAY = mondayAhead(BERLIN);
const berlin = (minute: number, date = MONDAY) => new Date(epochAt(date, minute, BERLIN)).toISOString();
const H = 60;

/** A Berlin host whose type is open Mondays 09:00-11:00. */
const berlinHost = (type: Record<string, unknown> = {}) =>
  hostWithType(svc.base, { hours: [{ day: 1, startMinute: 9 * H, endMinute: 11 * H }], ...type }, { timeZone: BERLIN, name: 'Mia Weber' });

const startsOf = async (host: Host, query = `?from=${MONDAY}&days=1&timeZone=${BERLIN}`) => (await slotsOf(svc.base, host, query)).map((s) => s.startsAt);

describe('GET /public/{username}/{slug}', () => {
  it('shows the type and its host, to anyone', async () => {
    const host = await berlinHost({ description: 'A first talk', location: 'Video' });
    const res = await request(svc.base, 'GET', host.page);
    expect(res.status).toBe(200);
    const mia = { name: 'Mia Weber', username: host.username, timeZone: BERLIN };
    expect(res.body).toEqual({
      host: mia, hosts: [mia],
      meetingType: {
        name: 'Intro call', slug: 'intro', durationMinutes: 30, durations: [30], seats: 1, requiresConfirmation: false, assignment: null,
        description: 'A first talk', location: 'Video',
      },
    });
    expect(res.headers.get('ratelimit-limit')).toBeTruthy();
  });

  it('is 404 for unknown usernames and slugs, and for disabled types', async () => {
    const host = await berlinHost({ enabled: false });
    expectNotFound(await request(svc.base, 'GET', host.page));
    expectNotFound(await request(svc.base, 'GET', `/public/${host.username}/other`));
    expectNotFound(await request(svc.base, 'GET', '/public/nobody-here-at-all/intro'));
    expectNotFound(await request(svc.base, 'GET', `/public/nobody-here-at-all/intro/slots`));
  });
});

describe('GET /public/{username}/{slug}/slots', () => {
  it('offers the type\'s hours in the host\'s zone, read in the guest\'s zone', async () => {
    const host = await berlinHost({ durationMinutes: 30 });
    const inBerlin = await slotsOf(svc.base, host, `?from=${MONDAY}&days=1&timeZone=${BERLIN}`);
    expect(inBerlin.map((s) => s.time)).toEqual(['09:00', '09:15', '09:30', '09:45', '10:00', '10:15', '10:30']);
    expect(inBerlin[0]).toEqual({ startsAt: berlin(9 * H), endsAt: berlin(9 * H + 30), date: MONDAY, time: '09:00', seatsLeft: 1 });
    const inTokyo = await request(svc.base, 'GET', `${host.page}/slots?from=${addDays(MONDAY, -1)}&days=3&timeZone=Asia/Tokyo`);
    expect(inTokyo.body.timeZone).toBe('Asia/Tokyo');
    expect(inTokyo.body.slots.map((s: { startsAt: string }) => s.startsAt)).toEqual(inBerlin.map((s) => s.startsAt));
    expect(inTokyo.body.slots[0].time).toBe(new Date(inBerlin[0].startsAt).toLocaleTimeString('en-GB', { timeZone: 'Asia/Tokyo', hour: '2-digit', minute: '2-digit' }));
  });

  it('steps by 30 minutes for meetings longer than half an hour', async () => {
    const host = await berlinHost({ durationMinutes: 45 });
    expect(await startsOf(host)).toEqual([berlin(9 * H), berlin(9 * H + 30), berlin(10 * H)]);
  });

  it('leaves out busy time and the type\'s buffers around it', async () => {
    const host = await berlinHost({ bufferBeforeMinutes: 15, bufferAfterMinutes: 0 });
    const busy = await host.client.call('POST', '/events', { title: 'Busy', startsAt: berlin(9 * H), endsAt: berlin(9 * H + 30) });
    expect(busy.status).toBe(201);
    // Fifteen free minutes before each meeting: nothing may start before 09:45.
    expect(await startsOf(host)).toEqual([9 * H + 45, 10 * H, 10 * H + 15, 10 * H + 30].map((m) => berlin(m)));
    const free = await host.client.call('POST', '/events', { title: 'Free', startsAt: berlin(10 * H), endsAt: berlin(11 * H), busy: false });
    expect(free.status).toBe(201);
    expect(await startsOf(host)).toHaveLength(4);
  });

  it('keeps the buffer after a meeting free too', async () => {
    const host = await berlinHost({ bufferBeforeMinutes: 0, bufferAfterMinutes: 30 });
    expect((await host.client.call('POST', '/events', { title: 'Busy', startsAt: berlin(10 * H + 30), endsAt: berlin(11 * H) })).status).toBe(201);
    // A meeting must end 30 minutes before 10:30: the last start is 09:30.
    expect(await startsOf(host)).toEqual([9 * H, 9 * H + 15, 9 * H + 30].map((m) => berlin(m)));
  });

  it('honours the minimum notice', async () => {
    const host = await hostWithType(svc.base, { minimumNoticeMinutes: 3 * 24 * 60 });
    const slots = await slotsOf(svc.base, host, '?days=7');
    expect(slots.length).toBeGreaterThan(0);
    expect(Date.parse(slots[0].startsAt)).toBeGreaterThanOrEqual(Date.now() + 3 * 24 * 60 * MINUTE - MINUTE);
  });

  it.each([
    ['?days=0', 'query.days'], ['?days=32', 'query.days'], ['?days=two', 'query.days'], ['?timeZone=Mars/Olympus', 'query.timeZone'],
    ['?from=2026-13-01', 'query.from'], ['?from=tomorrow', 'query.from'], ['?from=3001-01-01', 'query.from'],
  ])('refuses %s (400 naming %s)', async (query, path) => {
    const host = await berlinHost();
    expectInvalid(await request(svc.base, 'GET', `${host.page}/slots${query}`), path);
  });
});

describe('POST /public/{username}/{slug}/bookings', () => {
  it('books a slot: 201 {booking, manageToken}, an event in the host\'s calendar, the host\'s bookings', async () => {
    const host = await berlinHost({ location: 'Room 4' });
    const res = await book(svc.base, host, berlin(9 * H + 30), { guest: guest(1), note: 'About the workshop', timeZone: 'America/New_York' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['booking', 'manageToken']);
    expect(res.body.manageToken).toMatch(/^bk_[A-Za-z0-9_-]{43}$/);
    expect(res.body.booking).toMatchObject({
      startsAt: berlin(9 * H + 30), endsAt: berlin(10 * H), timeZone: BERLIN, status: 'confirmed', cancelledBy: null, version: 1,
      guest: { ...guest(1), timeZone: 'America/New_York' }, note: 'About the workshop', location: 'Room 4',
      host: { name: 'Mia Weber', username: host.username }, meetingType: { slug: 'intro', durationMinutes: 30 },
    });
    expect(res.body.booking).not.toHaveProperty('hostId');
    const [listed] = (await host.client.call('GET', '/bookings')).body.bookings;
    expect(listed).toMatchObject({ id: res.body.booking.id, hostId: host.client.userId, meetingTypeId: host.type.id, meetingTypeName: 'Intro call' });
    const event = await host.client.call('GET', `/events/${listed.eventId}`);
    expect(event.body.event).toMatchObject({
      title: 'Intro call with Guest 1', startsAt: berlin(9 * H + 30), endsAt: berlin(10 * H), busy: true, timeZone: BERLIN,
      location: 'Room 4', description: 'About the workshop', attendees: [{ email: guest(1).email, name: 'Guest 1', userId: null, response: 'yes' }],
    });
    expect(await startsOf(host)).not.toContain(berlin(9 * H + 30));
  });

  it('refuses a taken slot and any slot overlapping a booking (409 slot_taken), writing nothing', async () => {
    const host = await berlinHost();
    await booked(svc.base, host, berlin(9 * H + 30));
    const before = await head();
    expectError(await book(svc.base, host, berlin(9 * H + 30)), 409, 'slot_taken');
    expectError(await book(svc.base, host, berlin(9 * H + 15)), 409, 'slot_taken');
    expectError(await book(svc.base, host, berlin(9 * H + 45)), 409, 'slot_taken');
    expect(await head()).toBe(before);
    expect((await book(svc.base, host, berlin(10 * H))).status).toBe(201);
  });

  it('refuses time taken by the host\'s own events and their buffers (409 slot_taken)', async () => {
    const host = await berlinHost({ bufferAfterMinutes: 15 });
    expect((await host.client.call('POST', '/events', { title: 'Busy', startsAt: berlin(10 * H), endsAt: berlin(10 * H + 30) })).status).toBe(201);
    const before = await head();
    expectError(await book(svc.base, host, berlin(10 * H)), 409, 'slot_taken');
    expectError(await book(svc.base, host, berlin(9 * H + 30)), 409, 'slot_taken'); // ends 10:00, needs 15 free minutes after
    expect(await head()).toBe(before);
  });

  it.each([
    { what: 'outside the type\'s hours', at: () => berlin(11 * H), reason: 'outside_hours' },
    { what: 'on another weekday', at: () => berlin(9 * H, addDays(MONDAY, 1)), reason: 'outside_hours' },
    { what: 'in the past', at: () => new Date(Date.now() - 3_600_000).toISOString().slice(0, 14) + '00:00.000Z', reason: 'in_past' },
    { what: 'off the 15-minute grid', at: () => berlin(9 * H + 7), reason: 'misaligned' },
    { what: 'more than 366 days ahead', at: () => berlin(9 * H, addDays(MONDAY, 371)), reason: 'too_far' },
  ])('refuses a time $what (409 slot_unavailable, reason $reason), writing nothing', async ({ at, reason }) => {
    const host = await berlinHost();
    const before = await head();
    const res = await book(svc.base, host, at());
    expectError(res, 409, 'slot_unavailable');
    expect(res.body.error.details).toEqual({ reason });
    expect(await head()).toBe(before);
  });

  it('refuses a time inside the minimum notice (slot_unavailable, too_soon)', async () => {
    const host = await hostWithType(svc.base, { minimumNoticeMinutes: 2 * 24 * 60 });
    const soon = new Date(Math.ceil((Date.now() + 24 * 3_600_000) / (15 * MINUTE)) * 15 * MINUTE).toISOString();
    const res = await book(svc.base, host, soon);
    expectError(res, 409, 'slot_unavailable');
    expect(res.body.error.details).toEqual({ reason: 'too_soon' });
  });

  it('is 404 for unknown usernames and slugs and for disabled types, writing nothing', async () => {
    const host = await berlinHost();
    const before = await head();
    expectNotFound(await request(svc.base, 'POST', `/public/${host.username}/nope/bookings`, { startsAt: berlin(9 * H), guest: guest() }));
    expectNotFound(await request(svc.base, 'POST', '/public/nobody-here-at-all/intro/bookings', { startsAt: berlin(9 * H), guest: guest() }));
    await host.client.call('PATCH', '/meeting-types', { id: host.type.id, enabled: false });
    const afterPatch = await head();
    expect(afterPatch).toBeGreaterThan(before);
    expectNotFound(await book(svc.base, host, berlin(9 * H)));
    expect(await head()).toBe(afterPatch);
  });

  it.each([
    { body: { guest: guest() }, path: 'body.startsAt' },
    { body: { startsAt: 'Monday 9am', guest: guest() }, path: 'body.startsAt' },
    { body: { startsAt: '2031-01-01T09:00:00' }, path: 'body.guest' },
    { body: { startsAt: '2031-01-01T09:00:00Z', guest: { name: 'A' } }, path: 'body.guest.email' },
    { body: { startsAt: '2031-01-01T09:00:00Z', guest: { name: 'A', email: 'not-an-email' } }, path: 'body.guest.email' },
    { body: { startsAt: '2031-01-01T09:00:00Z', guest: { name: ' ', email: 'a@example.com' } }, path: 'body.guest.name' },
    { body: { startsAt: '2031-01-01T09:00:00Z', guest: { ...guest(), phone: '1' } }, path: 'body.guest' },
    { body: { startsAt: '2031-01-01T09:00:00Z', guest: guest(), note: 'x'.repeat(2001) }, path: 'body.note' },
    { body: { startsAt: '2031-01-01T09:00:00Z', guest: guest(), timeZone: 'Nowhere/Land' }, path: 'body.timeZone' },
    { body: { startsAt: '2031-01-01T09:00:00Z', guest: guest(), hostId: 'x' }, path: 'body.hostId' },
  ])('refuses a bad $path (400), writing nothing', async ({ body, path }) => {
    const host = await berlinHost();
    const before = await head();
    expectInvalid(await request(svc.base, 'POST', `${host.page}/bookings`, body), path);
    expect(await head()).toBe(before);
  });

  it('of 20 concurrent bookings of one slot, exactly one wins; the others are 409 slot_taken', async () => {
    const host = await berlinHost();
    const at = berlin(10 * H);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => book(svc.base, host, at, { guest: guest(i) })));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses).toEqual([201, ...Array(19).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('slot_taken');
    expect((await host.client.call('GET', '/bookings')).body.bookings).toHaveLength(1);
    const events = await host.client.call('GET', `/events?from=${berlin(0)}&to=${berlin(24 * H)}`);
    expect(events.body.events.filter((e: { title: string }) => e.title.startsWith('Intro call'))).toHaveLength(1);
  });

  it('answers a retry with the same Idempotency-Key with the first booking and token, booking nothing twice', async () => {
    const host = await berlinHost();
    const body = { startsAt: berlin(9 * H), guest: guest() };
    const first = await request(svc.base, 'POST', `${host.page}/bookings`, body, { 'Idempotency-Key': 'book-once' });
    const retry = await request(svc.base, 'POST', `${host.page}/bookings`, body, { 'Idempotency-Key': 'book-once' });
    expect(first.status).toBe(201);
    expect(retry.status).toBe(201);
    expect(retry.body).toEqual(first.body);
    expect((await host.client.call('GET', '/bookings')).body.bookings).toHaveLength(1);
  });
});

describe('the booking pages as served (their behaviour: test/browser/booking-page.test.ts)', () => {
  const page = async (path: string) => {
    const res = await fetch(`${svc.service.url}${path}`);
    return { status: res.status, type: res.headers.get('content-type'), csp: res.headers.get('content-security-policy') ?? '', html: await res.text() };
  };

  it('serves the type\'s page with a month picker and a zone select, no day paging, and no inline script', async () => {
    const host = await berlinHost();
    const res = await page(`/book/${host.username}/intro`);
    expect([res.status, res.type]).toEqual([200, 'text/html; charset=utf-8']);
    const scriptSources = /(?:^|;)\s*script-src ([^;]*)/.exec(res.csp)![1];
    expect(scriptSources).toContain("'self'");
    expect(scriptSources).not.toContain('unsafe-inline');
    expect(res.html).not.toMatch(/<script>|<script [^>]*>[^<]/);
    for (const id of ['prev-month', 'next-month', 'month-days', 'slots']) expect(res.html).toContain(`id="${id}"`);
    expect(res.html).toContain('<label for="zone">Time zone</label> <select id="zone">');
    expect(res.html).not.toMatch(/Earlier days|Later days/);
  });

  it('serves the script with the primary zone of each alias browsers report, and the stylesheet', async () => {
    const script = await page('/book/assets/booking.js');
    expect([script.status, script.type]).toEqual([200, 'text/javascript; charset=utf-8']);
    const primary = JSON.parse(/var PRIMARY_ZONE = (\{.*\});/.exec(script.html)![1]) as Record<string, string>;
    expect(primary).toMatchObject({ 'Asia/Calcutta': 'Asia/Kolkata', 'Europe/Kiev': 'Europe/Kyiv', 'Asia/Saigon': 'Asia/Ho_Chi_Minh' });
    expect(primary['Europe/Berlin']).toBeUndefined();
    // The API takes every primary id the page may send in place of an alias.
    expect([...new Set(Object.values(primary))].filter((zone) => !TimeZone.safeParse(zone).success)).toEqual([]);
    const host = await berlinHost();
    expect((await request(svc.base, 'GET', `${host.page}/slots?days=1&timeZone=Asia/Kolkata`)).status).toBe(200);
    const css = await page('/book/assets/booking.css');
    expect([css.status, css.type]).toEqual([200, 'text/css; charset=utf-8']);
  });

  it('asks before a move: the reschedule page has a hidden Confirm / Back step, and lists no times before it knows the booking', async () => {
    const res = await page('/booking/00000000-0000-4000-8000-000000000000/reschedule');
    expect(res.status).toBe(200);
    expect(res.html).toMatch(/<section id="pick" aria-labelledby="pick-title" hidden>/);
    expect(res.html).toMatch(/<section id="confirm-move" hidden[^>]*>[\s\S]*id="confirm-move-yes"[^>]*>Confirm<\/button>[\s\S]*id="move-back">Back<\/button>/);
    expect((await page('/booking/not-a-booking/reschedule')).status).toBe(404);
  });

  it('gives a cancelled booking\'s guest what the page says: cancelled, no times, and where to book again', async () => {
    const host = await berlinHost();
    const { booking, token } = await booked(svc.base, host, berlin(9 * H));
    expect((await request(svc.base, 'POST', `/public/bookings/${booking.id}/cancel`, undefined, { 'X-Booking-Token': token })).status).toBe(200);
    const seen = await request(svc.base, 'GET', `/public/bookings/${booking.id}/reschedule?from=${MONDAY}&days=31&timeZone=Asia/Kolkata`, undefined, { 'X-Booking-Token': token });
    expect(seen.status).toBe(200);
    expect(seen.body.booking).toMatchObject({ status: 'cancelled', host: { username: host.username }, meetingType: { slug: 'intro' } });
    expect(seen.body.slots).toEqual([]);
    expect((await page(`/book/${seen.body.booking.host.username}/${seen.body.booking.meetingType.slug}`)).status).toBe(200);
  });

  it('answers a whole month of slots in one request (the month view), every slot inside it', async () => {
    const host = await berlinHost();
    const res = await request(svc.base, 'GET', `${host.page}/slots?from=${MONDAY}&days=31&timeZone=Asia/Kolkata`);
    expect(res.status).toBe(200);
    const dates = res.body.slots.map((s: { date: string }) => s.date);
    expect(dates.length).toBeGreaterThan(0);
    expect(dates.every((d: string) => d >= MONDAY && d <= addDays(MONDAY, 30))).toBe(true);
  });
});

describe('the per-address rate limit', () => {
  let limited: TestService;
  beforeAll(async () => {
    limited = await startTestService({ RATE_LIMIT_PER_IP: '5' });
  });
  afterAll(() => limited?.stop());

  it('applies to the public booking pages (429 rate_limited with Retry-After)', async () => {
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await request(limited.base, 'GET', '/public/nobody-here-at-all/intro/slots'));
    expect(answers.slice(0, 5).map((a) => a.status)).toEqual([404, 404, 404, 404, 404]);
    expectError(answers[5], 429, 'rate_limited');
    expect(answers[5].headers.get('retry-after')).toBeTruthy();
  });
});
