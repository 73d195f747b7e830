/**
 * The booking pages in a real browser (chromium), as a guest meets them at desktop size (1280x800) and on a phone
 * (390x844): a month with the days that have free time, then that day's times in the guest's locale and zone (named,
 * changeable); booking with the keyboard; moving after a confirm step; cancelling; a cancelled booking's links say
 * so. Every step is screenshotted (SCREENSHOT_DIR, default .tmp/booking-page) and its tap targets measured; no
 * script errors and no Content-Security-Policy violations along the way.
 */
import { mkdirSync } from 'node:fs';
import { resolve } from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { addDays, localDate } from '../../services/time/local-time';
import { describeWithBrowser } from '../support/browser';
import { hostWithType, slotsOf, type Host } from '../support/bookings';
import { request, signUp, useTestService, type TestService } from '../support/service';

jest.setTimeout(120_000);

/** What the callbacks run in the page use of the DOM (the project's TypeScript has no DOM library). */
interface Node {
  id: string;
  className: string;
  tagName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  getClientRects(): { length: number };
  getBoundingClientRect(): { height: number };
}
declare const document: {
  activeElement: Node | null;
  documentElement: { scrollHeight: number; scrollWidth: number };
  getElementById(id: string): Node | null;
  querySelector(selector: string): Node | null;
};

let svc: TestService;
useTestService((s) => (svc = s));

const SHOTS = resolve(process.env.SCREENSHOT_DIR ?? resolve(__dirname, '../../.tmp/booking-page'));
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** A phone page at most two screens tall: the month, one day's times (scrolling in their box) and the header. */
const PHONE_MAX_HEIGHT = 2 * PHONE.height;
const WEEKDAYS_9_TO_5 = [1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 540, endMinute: 1020 }));

const spaces = (text: string | null) => (text ?? '').replace(/\s/g, ' ');
const timeIn = (locale: string, timeZone: string) => (instant: string) =>
  spaces(new Intl.DateTimeFormat(locale, { timeStyle: 'short', timeZone }).format(new Date(instant)));

/**
 * The slots and dates with free time the API lists for the month the page opens on in `timeZone`: the rest of this
 * month, or the next month with free time (the page looks at most two months on).
 */
async function firstFreeMonth(host: Host, slug: string, timeZone: string) {
  let from = localDate(Date.now(), timeZone);
  for (let month = 0; ; month++) {
    let last = from;
    while (addDays(last, 1).slice(0, 7) === from.slice(0, 7)) last = addDays(last, 1);
    const days = Math.round((Date.parse(last) - Date.parse(from)) / 86_400_000) + 1;
    const slots = await slotsOf(svc.base, { ...host, page: `/public/${host.username}/${slug}` }, `?from=${from}&days=${days}&timeZone=${encodeURIComponent(timeZone)}`);
    if (slots.length || month === 2) return { slots, dates: [...new Set(slots.map((s) => s.date))], thisMonth: month === 0 };
    from = addDays(last, 1);
  }
}

/**
 * A round-robin workshop of an organization's two hosts: 30 or 60 minutes, three guests a time, each booking waiting
 * for its host's confirmation. Returns its address and a reader of every booking of it (the owner sees them all).
 */
async function teamWorkshop() {
  const owner = await signUp(svc.base, { name: 'Olga Owner', timeZone: 'UTC' });
  const org = await owner.call('POST', '/organizations', { name: 'Workshops' });
  const hosts = [await signUp(svc.base, { name: 'Host One' }), await signUp(svc.base, { name: 'Host Two' })];
  for (const h of hosts) expect((await owner.call('POST', `/organizations/${org.body.organization.id}/members`, { email: h.email, role: 'member' })).status).toBe(201);
  const slug = `workshop-${Math.random().toString(36).slice(2, 8)}`;
  const made = await owner.call('POST', '/meeting-types', {
    name: 'Workshop', slug, durationMinutes: 30, durations: [30, 60], seats: 3, requiresConfirmation: true, hours: WEEKDAYS_9_TO_5,
    hosts: hosts.map((h) => h.userId), assignment: 'round_robin',
  });
  expect(made.status).toBe(201);
  const username = (await owner.call('GET', '/me')).body.user.username as string;
  return { username, slug, hostBookings: async () => (await owner.call('GET', '/bookings?limit=100')).body.bookings as Array<Record<string, any>> };
}

describeWithBrowser('the booking pages', (browser) => {
  let host: Host;
  let context: BrowserContext;
  let page: Page;
  let problems: string[];

  beforeAll(async () => {
    mkdirSync(SHOTS, { recursive: true });
    host = await hostWithType(svc.base, { name: 'Intro call', description: 'A first talk.', location: 'Video', hours: WEEKDAYS_9_TO_5 }, { timeZone: 'Europe/Berlin', name: 'Mia Weber' });
    // The worst case for a phone: a type open around the clock (96 times a day).
    expect((await host.client.call('POST', '/meeting-types', { name: 'Open hours', slug: 'open', durationMinutes: 15, hours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, startMinute: 0, endMinute: 1440 })) })).status).toBe(201);
  });

  async function open(viewport: { width: number; height: number }, locale: string, timezoneId: string) {
    context = await browser().newContext({ viewport, locale, timezoneId });
    page = await context.newPage();
    problems = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => void (msg.type() === 'error' && problems.push(msg.text())));
  }
  afterEach(() => context?.close());

  const bookings = async () => (await host.client.call('GET', '/bookings')).body.bookings as Array<Record<string, any>>;
  const shot = (name: string) => page.screenshot({ path: resolve(SHOTS, `${name}.png`), fullPage: true });
  const texts = (selector: string) => page.$$eval(selector, (nodes) => nodes.map((n) => n.textContent ?? ''));
  const attributes = (selector: string, name: string) => page.$$eval(selector, (nodes, a) => nodes.map((n) => n.getAttribute(a) ?? ''), name);
  /** Every visible control shorter than 44 px (the usual minimum tap target), by id or text. */
  const smallTargets = () => page.$$eval('button, select, input, textarea, a[href]', (nodes) => nodes
    .filter((n) => n.getClientRects().length > 0)
    .map((n) => ({ what: n.id || `${n.tagName} ${n.textContent}`, height: Math.round(n.getBoundingClientRect().height) }))
    .filter((t) => t.height < 44));
  const pageSize = () => page.evaluate(() => ({ height: document.documentElement.scrollHeight, width: document.documentElement.scrollWidth }));
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-date') ?? document.activeElement?.getAttribute('data-start') ?? document.activeElement?.id);

  it.each([
    { size: 'desktop', viewport: DESKTOP, slug: 'intro', locale: 'en-US', zone: 'Asia/Kolkata', zoneName: 'India Standard Time', weekStart: 'Sun' },
    { size: 'phone', viewport: PHONE, slug: 'open', locale: 'en-GB', zone: 'Europe/Kyiv', zoneName: 'Eastern European Time', weekStart: 'Mon' },
  ])('$size: month, day times, booking, confirmation, moving after a confirm step, cancelling ($locale, $zone)', async ({ size, viewport, slug, locale, zone, zoneName, weekStart }) => {
    await open(viewport, locale, zone);
    const time = timeIn(locale, zone);
    expect((await page.goto(`${svc.service.url}/book/${host.username}/${slug}`))!.status()).toBe(200);
    await page.waitForSelector('button.slot');

    // The guest's zone by its name, under its primary id (the browser reports Asia/Calcutta and Europe/Kiev).
    expect(await page.$eval('#zone', (n) => (n as unknown as { value: string }).value)).toBe(zone);
    expect(await page.textContent('#zone option:checked')).toContain(zoneName);
    expect(await page.textContent('#zone option:checked')).toBe(`${zone.split('/')[1]} — ${zoneName}`);
    expect(await page.textContent('body')).not.toMatch(/Calcutta|Kiev/);

    // The month: its free days are the API's, the week starts as the locale says, no earlier month to go to (unless
    // the rest of this month had no free time and the page moved on).
    const { slots, dates, thisMonth } = await firstFreeMonth(host, slug, zone);
    expect(await attributes('#month-days button.day:not([disabled])', 'data-date')).toEqual(dates);
    expect((await texts('#weekdays th'))[0]).toBe(weekStart);
    expect(await page.isDisabled('#prev-month')).toBe(thisMonth);
    expect(await page.isEnabled('#next-month')).toBe(true);
    // The first free day is chosen; its times, and only its, are listed, in the guest's locale.
    expect(await page.getAttribute(`button.day[data-date="${dates[0]}"]`, 'aria-pressed')).toBe('true');
    const firstDay = slots.filter((s) => s.date === dates[0]);
    expect(await attributes('button.slot', 'data-start')).toEqual(firstDay.map((s) => s.startsAt));
    expect((await texts('button.slot')).map(spaces)).toEqual(firstDay.map((s) => time(s.startsAt)));
    expect(spaces((await texts('button.slot'))[0])).toMatch(locale === 'en-US' ? /^\d{1,2}:\d{2} [AP]M$/ : /^\d{2}:\d{2}$/);
    expect(await smallTargets()).toEqual([]);
    // Every field has a label.
    expect(await page.$$eval('input, select, textarea', (nodes) => nodes.filter((n) => !document.querySelector(`label[for="${n.id}"]`)).map((n) => n.id))).toEqual([]);
    await shot(`${size}-1-month`);

    // Next month and back.
    await page.click('#next-month');
    await page.waitForFunction(() => !document.querySelector('#pick[aria-busy]'));
    expect(await page.isEnabled('#prev-month')).toBe(true);
    await page.click('#prev-month');
    await page.waitForFunction((d) => document.querySelector(`button.day[data-date="${d}"][aria-pressed="true"]`) !== null, dates[0]);

    // The keyboard: the month is one tab stop, arrows move between free days, Enter chooses, Tab reaches the times.
    await page.focus(`button.day[data-date="${dates[0]}"]`);
    await page.keyboard.press('ArrowRight');
    const secondDay = dates[1] ?? dates[0];
    expect(await focused()).toBe(secondDay);
    await page.keyboard.press('Enter');
    const daySlots = slots.filter((s) => s.date === secondDay);
    await page.waitForFunction((start) => document.querySelector(`button.slot[data-start="${start}"]`) !== null, daySlots[0].startsAt);
    await shot(`${size}-2-day-times`);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe(daySlots[0].startsAt);
    const chosen = daySlots[Math.min(2, daySlots.length - 1)];
    await page.focus(`button.slot[data-start="${chosen.startsAt}"]`);
    await page.keyboard.press('Enter');
    expect(await focused()).toBe('name');
    // The same words for the time in the sentence as on the button.
    expect(spaces(await page.textContent('#chosen'))).toContain(time(chosen.startsAt));
    await page.keyboard.type('Ana Costa');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ana@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('About the workshop');
    expect(await smallTargets()).toEqual([]);
    await page.keyboard.press('Tab');
    expect(await focused()).toBe('book');
    await page.keyboard.press('Enter');

    await page.waitForSelector('#done:not([hidden])');
    expect(await page.textContent('#done-title')).toBe('You are booked');
    expect(await focused()).toBe('done');
    expect(spaces(await page.textContent('#done-text'))).toContain(`${time(chosen.startsAt)} (${zoneName})`);
    expect(await smallTargets()).toEqual([]);
    await shot(`${size}-3-confirmation`);
    const made = (await bookings()).find((b) => b.startsAt === chosen.startsAt)!;
    expect(made).toMatchObject({ status: 'confirmed', note: 'About the workshop', guest: { name: 'Ana Costa', email: 'ana@example.com', timeZone: zone } });

    // Moving: Enter on a time asks first; Back keeps the booking where it is.
    await page.click('#reschedule-link');
    await page.waitForSelector('button.slot');
    expect(await page.textContent('#booking')).toContain('with Mia Weber');
    // The booking's own time is shown, and cannot be picked.
    await page.click(`button.day[data-date="${chosen.date}"]`);
    expect(await page.isDisabled(`button.slot[data-start="${chosen.startsAt}"]`)).toBe(true);
    expect(await page.textContent(`button.slot[data-start="${chosen.startsAt}"]`)).toContain('(current)');
    const target = (await attributes('button.slot:not([disabled])', 'data-start')).find((s) => s !== chosen.startsAt)!;
    await page.focus(`button.slot[data-start="${target}"]`);
    await page.keyboard.press('Enter');
    await page.waitForSelector('#confirm-move:not([hidden])');
    expect(await focused()).toBe('confirm-move');
    expect(spaces(await page.textContent('#confirm-move-title'))).toMatch(new RegExp(`^Move to .*${time(target)} \\(${zoneName}\\)\\?$`));
    expect(await page.isHidden('#pick')).toBe(true);
    expect(await smallTargets()).toEqual([]);
    await shot(`${size}-4-confirm-move`);
    expect((await bookings()).find((b) => b.id === made.id)).toMatchObject({ startsAt: chosen.startsAt, version: 1 });
    await page.click('#move-back');
    expect(await page.isVisible('#pick')).toBe(true);
    expect(await focused()).toBe(target);
    await page.keyboard.press('Enter');
    await page.click('#confirm-move-yes');
    await page.waitForSelector('#done:not([hidden])');
    expect(await page.textContent('#done-title')).toBe('Moved');
    expect((await bookings()).find((b) => b.id === made.id)).toMatchObject({ startsAt: target, version: 2 });

    // Cancelling asks too; then the booking says it is cancelled and offers to book again.
    await page.click('#cancel-link');
    await page.waitForSelector('#confirm-cancel:not([hidden])');
    await page.click('#confirm-cancel');
    await page.waitForSelector('#done:not([hidden])');
    expect(await page.textContent('#done-title')).toBe('This booking is cancelled');
    expect(await page.isHidden('#manage-links')).toBe(true);
    expect(await page.getAttribute('#book-again', 'href')).toBe(`/book/${host.username}/${slug}`);
    expect((await bookings()).find((b) => b.id === made.id)).toMatchObject({ status: 'cancelled', cancelledBy: 'guest' });

    // The cancelled booking's move link: no times, the same news.
    await page.goto((await page.$eval('#reschedule-link', (n) => (n as unknown as { href: string }).href)));
    await page.waitForSelector('#done:not([hidden])');
    expect(await page.textContent('#done-title')).toBe('This booking is cancelled');
    expect(spaces(await page.textContent('#done-text'))).toContain(time(target));
    expect(await page.isHidden('#pick')).toBe(true);
    expect(await page.$$('button.slot')).toHaveLength(0);
    expect(await page.innerText('main')).not.toMatch(/Pick a new time|No free times/);
    expect(await smallTargets()).toEqual([]);
    await shot(`${size}-5-cancelled`);
    await page.click('#book-again');
    await page.waitForSelector('button.slot');
    expect(problems).toEqual([]);
  });

  it('on a phone shows one day\'s times at a time, in a page at most two screens tall, without sideways scrolling', async () => {
    await open(PHONE, 'en-GB', 'Europe/Berlin');
    await page.goto(`${svc.service.url}/book/${host.username}/open`);
    await page.waitForSelector('button.slot');
    const { slots, dates } = await firstFreeMonth(host, 'open', 'Europe/Berlin');
    expect(await page.$$('button.slot')).toHaveLength(slots.filter((s) => s.date === dates[0]).length);
    const size = await pageSize();
    expect(size.width).toBeLessThanOrEqual(PHONE.width);
    expect(size.height).toBeLessThanOrEqual(PHONE_MAX_HEIGHT);
    const heights = await page.$$eval('button, select', (nodes) => nodes.filter((n) => n.getClientRects().length > 0).map((n) => n.getBoundingClientRect().height));
    expect(Math.min(...heights)).toBeGreaterThanOrEqual(44);
    // The numbers, for the report.
    console.log(`phone: page ${size.height} px tall, ${heights.length} controls, the shortest ${Math.min(...heights)} px`);
    expect(problems).toEqual([]);
  });

  it('de-DE: 24-hour times on the buttons and in the sentences, weeks from Monday, zone names in German', async () => {
    await open(DESKTOP, 'de-DE', 'Europe/Berlin');
    const time = timeIn('de-DE', 'Europe/Berlin');
    await page.goto(`${svc.service.url}/book/${host.username}/intro`);
    await page.waitForSelector('button.slot');
    const starts = await attributes('button.slot', 'data-start');
    const shown = (await texts('button.slot')).map(spaces);
    expect(shown).toEqual(starts.map(time));
    expect(shown.every((t) => /^\d{2}:\d{2}$/.test(t))).toBe(true);
    expect((await texts('#weekdays th'))[0]).toBe('Mo');
    expect(await page.textContent('#zone option:checked')).toBe('Berlin — Mitteleuropäische Zeit');
    await page.click(`button.slot[data-start="${starts[0]}"]`);
    expect(spaces(await page.textContent('#chosen'))).toContain(`${shown[0]} (Mitteleuropäische Zeit)`);

    // Another zone: the times are read again in it.
    await page.click('#back');
    await page.selectOption('#zone', 'America/New_York');
    await page.waitForFunction(() => !document.querySelector('#pick[aria-busy]'));
    const nyc = timeIn('de-DE', 'America/New_York');
    const again = await attributes('button.slot', 'data-start');
    expect((await texts('button.slot')).map(spaces)).toEqual(again.map(nyc));
    expect(problems).toEqual([]);
  });

  it('tells the guest when the chosen time was taken meanwhile, and lists the times again', async () => {
    await open(DESKTOP, 'en-GB', 'Asia/Tokyo');
    await page.goto(`${svc.service.url}/book/${host.username}/intro`);
    await page.waitForSelector('button.slot');
    const first = await page.getAttribute('button.slot', 'data-start');
    await page.click('button.slot');
    // Someone else books the same time first.
    const taken = await request(svc.base, 'POST', `/public/${host.username}/intro/bookings`, { startsAt: first, guest: { name: 'Bo', email: 'bo@example.com' } });
    expect(taken.status).toBe(201);
    await page.fill('#name', 'Ana Costa');
    await page.fill('#email', 'ana@example.com');
    await page.click('#book');
    await page.waitForFunction(() => /just took that time/.test(document.getElementById('status')?.textContent ?? ''));
    await page.waitForFunction((start) => !document.querySelector(`button.slot[data-start="${start}"]`), first);
    expect(await page.isHidden('#done')).toBe(true);
    expect(await page.isVisible('#pick')).toBe(true);
    expect(problems.filter((p) => !/status of 409/.test(p))).toEqual([]);
  });

  it.each([
    { size: 'desktop', viewport: DESKTOP, locale: 'en-US', zone: 'Europe/Berlin' },
    { size: 'phone', viewport: PHONE, locale: 'en-GB', zone: 'America/New_York' },
  ])('$size: a team type\'s lengths, seats left, a request awaiting the host, the host it went to ($locale, $zone)', async ({ size, viewport, locale, zone }) => {
    const team = await teamWorkshop();
    await open(viewport, locale, zone);
    expect((await page.goto(`${svc.service.url}/book/${team.username}/${team.slug}`))!.status()).toBe(200);
    await page.waitForSelector('button.slot');
    expect(spaces(await page.textContent('.meta'))).toBe('with Host One or Host Two · 30 or 60 minutes · up to 3 guests a time');
    expect(await page.textContent('#confirms')).toBe('Host One or Host Two confirms each booking: you will hear by email either way.');
    expect(await texts('button.length')).toEqual(['30 min', '60 min']);
    expect(await attributes('button.length', 'aria-pressed')).toEqual(['true', 'false']);

    // The seat taken already: its time says two are left, the others three.
    const { slots, dates } = await firstFreeMonth({ ...host, username: team.username }, team.slug, zone);
    const day = slots.filter((s) => s.date === dates[0]);
    const taken = day[1];
    const first = await request(svc.base, 'POST', `/public/${team.username}/${team.slug}/bookings`, { startsAt: taken.startsAt, guest: { name: 'Bo', email: 'bo@example.com' } });
    expect(first.status).toBe(201);
    const assigned = first.body.booking.host.name as string;
    await page.click('button.length[data-minutes="60"]');
    await page.waitForFunction(() => !document.querySelector('#pick[aria-busy]'));
    await page.click('button.length[data-minutes="30"]');
    await page.waitForFunction(() => !document.querySelector('#pick[aria-busy]'));
    await page.waitForFunction((start) => document.querySelector(`button.slot[data-start="${start}"] .seats`)?.textContent === '2 seats left', taken.startsAt);
    expect(await page.textContent(`button.slot[data-start="${day[0].startsAt}"] .seats`)).toBe('3 seats left');
    expect(await page.getAttribute(`button.slot[data-start="${taken.startsAt}"]`, 'aria-label')).toBe(`${timeIn(locale, zone)(taken.startsAt)}, 2 seats left`);
    expect(await smallTargets()).toEqual([]);
    await shot(`${size}-team-1-lengths-and-seats`);

    // A longer meeting: the month is read again for 60 minutes.
    await page.click('button.length[data-minutes="60"]');
    await page.waitForFunction(() => !document.querySelector('#pick[aria-busy]'));
    const long = await slotsOf(svc.base, { ...host, page: `/public/${team.username}/${team.slug}` }, `?from=${dates[0]}&days=1&timeZone=${encodeURIComponent(zone)}&durationMinutes=60`);
    expect(await attributes('button.slot', 'data-start')).toEqual(long.filter((s) => s.date === dates[0]).map((s) => s.startsAt));
    await page.click('button.length[data-minutes="30"]');
    await page.waitForFunction((start) => document.querySelector(`button.slot[data-start="${start}"]`) !== null, taken.startsAt);

    // The seat beside Bo's: a request, with the host it went to.
    await page.click(`button.slot[data-start="${taken.startsAt}"]`);
    await page.fill('#name', 'Ana Costa');
    await page.fill('#email', 'ana@example.com');
    expect(await page.textContent('#book')).toBe('Request');
    await page.click('#book');
    await page.waitForSelector('#done:not([hidden])');
    expect(await page.textContent('#done-title')).toBe('Request sent');
    expect(spaces(await page.textContent('#done-text'))).toMatch(new RegExp(`^Workshop with ${assigned}, .+\\. It awaits ${assigned}'s confirmation: you will get an email at ana@example\\.com either way\\.$`));
    expect(await smallTargets()).toEqual([]);
    await shot(`${size}-team-2-request-sent`);
    const all = await team.hostBookings();
    const of = (email: string) => all.find((b) => b.guest.email === email && b.startsAt === taken.startsAt)!;
    expect(of('ana@example.com')).toMatchObject({ status: 'pending', hostId: of('bo@example.com').hostId, eventId: of('bo@example.com').eventId, assignment: { reason: 'joined_slot' } });

    // The booking's own page says it awaits the host.
    await page.click('#reschedule-link');
    await page.waitForSelector('button.slot');
    expect(await page.textContent('#booking')).toMatch(new RegExp(`^Workshop with ${assigned}, .+ \\(awaiting the host's confirmation\\)$`));
    expect(await page.$$('button.length')).toHaveLength(0);
    await shot(`${size}-team-3-awaiting`);
    expect(problems).toEqual([]);
  });

  it('answers unknown pages with a 404 page, and a link without its token with a message', async () => {
    await open(DESKTOP, 'en-GB', 'Asia/Tokyo');
    const missing = await page.goto(`${svc.service.url}/book/${host.username}/no-such-type`);
    expect(missing!.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('This booking page does not exist');
    const manage = await page.goto(`${svc.service.url}/booking/00000000-0000-4000-8000-000000000000/cancel`);
    expect(manage!.status()).toBe(200);
    await page.waitForFunction(() => /link is incomplete/.test(document.getElementById('status')?.textContent ?? ''));
  });
});
