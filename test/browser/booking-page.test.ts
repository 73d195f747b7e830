/**
 * The booking page in a real browser (chromium, in the guest's time zone Asia/Tokyo): it shows the type, lists the
 * slots the API gives for the browser's zone, books one with the keyboard, shows the confirmation, and its links
 * move and cancel the booking. No script errors and no Content-Security-Policy violations along the way.
 */
import type { BrowserContext, Page } from 'playwright-core';
import { describeWithBrowser } from '../support/browser';
import { hostWithType, slotsOf, type Host } from '../support/bookings';
import { useTestService, type TestService } from '../support/service';

jest.setTimeout(90_000);

/** What the callbacks run in the page use of the DOM (the project's TypeScript has no DOM library). */
declare const document: {
  activeElement: { id: string } | null;
  getElementById(id: string): { textContent: string | null } | null;
  querySelector(selector: string): unknown;
};

let svc: TestService;
useTestService((s) => (svc = s));

const GUEST_ZONE = 'Asia/Tokyo';

describeWithBrowser('the booking page', (browser) => {
  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let host: Host;

  beforeAll(async () => {
    host = await hostWithType(svc.base, { name: 'Intro call', description: 'A first talk.', location: 'Video' }, { timeZone: 'Europe/Berlin', name: 'Mia Weber' });
  });

  beforeEach(async () => {
    context = await browser().newContext({ timezoneId: GUEST_ZONE, locale: 'en-GB' });
    page = await context.newPage();
    problems = [];
    page.on('pageerror', (err) => problems.push(err.message));
    page.on('console', (msg) => void (msg.type() === 'error' && problems.push(msg.text())));
  });
  afterEach(() => context.close());

  const bookings = async () => (await host.client.call('GET', '/bookings')).body.bookings as Array<Record<string, any>>;

  it('lists slots in the browser\'s zone, books one with the keyboard, and its links move and cancel it', async () => {
    const answer = await page.goto(`${svc.service.url}/book/${host.username}/intro`);
    expect(answer!.status()).toBe(200);
    expect(await page.textContent('h1')).toBe('Intro call');
    expect(await page.textContent('.meta')).toContain('with Mia Weber · 30 minutes · Video');
    await page.waitForSelector('button.slot');
    expect(await page.textContent('#zone-name')).toBe(GUEST_ZONE);

    const api = await slotsOf(svc.base, host, `?days=7&timeZone=${GUEST_ZONE}`);
    const shown = await page.$$eval('button.slot', (buttons) => buttons.map((b) => ({ start: b.getAttribute('data-start'), text: b.textContent })));
    expect(shown.slice(0, 5)).toEqual(api.slice(0, 5).map((s) => ({ start: s.startsAt, text: s.time })));

    // Every field has a label.
    const unlabelled = await page.$$eval('input, textarea', (fields) => fields.filter((f) => !document.querySelector(`label[for="${f.id}"]`)).map((f) => f.id));
    expect(unlabelled).toEqual([]);

    // Choose the third slot and fill the form from the keyboard alone.
    await page.focus(`button.slot[data-start="${api[2].startsAt}"]`);
    await page.keyboard.press('Enter');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('name');
    await page.keyboard.type('Ana Costa');
    await page.keyboard.press('Tab');
    await page.keyboard.type('ana@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('About the workshop');
    await page.keyboard.press('Tab');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('book');
    await page.keyboard.press('Enter');

    await page.waitForSelector('#done:not([hidden])');
    expect(await page.textContent('#done-title')).toBe('You are booked');
    expect(await page.evaluate(() => document.activeElement?.id)).toBe('done');
    expect(await page.textContent('#done-text')).toContain('ana@example.com');
    const [made] = await bookings();
    expect(made).toMatchObject({ startsAt: api[2].startsAt, status: 'confirmed', note: 'About the workshop', guest: { name: 'Ana Costa', email: 'ana@example.com', timeZone: GUEST_ZONE } });
    const rescheduleHref = await page.getAttribute('#reschedule-link', 'href');
    expect(rescheduleHref).toMatch(new RegExp(`^/booking/${made.id}/reschedule#token=bk_`));

    // Move it to another time on the reschedule page.
    await page.click('#reschedule-link');
    await page.waitForSelector('button.slot');
    expect(await page.textContent('#booking')).toContain('Intro call with Mia Weber');
    await page.click(`button.slot[data-start="${api[6].startsAt}"]`);
    await page.waitForSelector('#done:not([hidden])');
    expect(await page.textContent('#done-title')).toBe('Moved');
    expect((await bookings())[0]).toMatchObject({ id: made.id, startsAt: api[6].startsAt, version: 2 });

    // Cancel it from the cancel page.
    await page.click('#cancel-link');
    await page.waitForSelector('#confirm-cancel:not([hidden])');
    await page.click('#confirm-cancel');
    await page.waitForSelector('#done:not([hidden])');
    expect(await page.textContent('#done-title')).toBe('Cancelled');
    expect((await bookings())[0]).toMatchObject({ id: made.id, status: 'cancelled', cancelledBy: 'guest' });
    expect(problems).toEqual([]);
  });

  it('tells the guest when the chosen time was taken meanwhile, and lists the times again', async () => {
    await page.goto(`${svc.service.url}/book/${host.username}/intro`);
    await page.waitForSelector('button.slot');
    const first = await page.getAttribute('button.slot', 'data-start');
    await page.click('button.slot');
    // Someone else books the same time first.
    const taken = await fetch(`${svc.base}/public/${host.username}/intro/bookings`, {
      method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ startsAt: first, guest: { name: 'Bo', email: 'bo@example.com' } }),
    });
    expect(taken.status).toBe(201);
    await page.fill('#name', 'Ana Costa');
    await page.fill('#email', 'ana@example.com');
    await page.click('#book');
    await page.waitForFunction(() => /just took that time/.test(document.getElementById('status')?.textContent ?? ''));
    await page.waitForFunction((start) => !document.querySelector(`button.slot[data-start="${start}"]`), first);
    expect(await page.isHidden('#done')).toBe(true);
    expect(problems.filter((p) => !/status of 409/.test(p))).toEqual([]);
  });

  it('answers unknown pages with a 404 page, and a link without its token with a message', async () => {
    const missing = await page.goto(`${svc.service.url}/book/${host.username}/no-such-type`);
    expect(missing!.status()).toBe(404);
    expect(await page.textContent('h1')).toBe('This booking page does not exist');
    const manage = await page.goto(`${svc.service.url}/booking/00000000-0000-4000-8000-000000000000/cancel`);
    expect(manage!.status()).toBe(200);
    await page.waitForFunction(() => /link is incomplete/.test(document.getElementById('status')?.textContent ?? ''));
  });
});
