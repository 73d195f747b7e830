/**
 * OAuth in a real browser (chromium), on a desktop and a phone viewport:
 * - a third-party app sends a person without a session to /oauth/authorize: the sign-in page (a wrong password is
 *   shown on it), then the consent page, Allow, and the app's callback gets a code that the token endpoint turns into
 *   a token the API accepts; Deny sends `error=access_denied` back;
 * - the /docs Authorize button: swagger-ui's popup signs in, consents, comes back to the redirect page, and swagger-ui
 *   redeems the code (PKCE) for a token.
 * No script errors and no Content-Security-Policy violations along the way. Screenshots go to a folder under the OS
 * tmp dir (printed once), to be looked at.
 */
import { mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import jwt from 'jsonwebtoken';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { describeWithBrowser } from '../support/browser';
import { pkce } from '../support/oauth';
import { startReceiver, type Receiver } from '../support/receiver';
import { request, signUp, useTestService, type Client, type TestService } from '../support/service';

jest.setTimeout(120_000);

/** What the callbacks run in the page use of the DOM (the project's TypeScript has no DOM library). */
declare const document: {
  activeElement: { id: string } | null;
  documentElement: { scrollWidth: number };
  querySelector(selector: string): unknown;
};
declare const window: { innerWidth: number; getComputedStyle(e: unknown): { fontSize: string } };

let svc: TestService;
let origin: string;
useTestService((s) => {
  svc = s;
  origin = new URL(svc.base).origin;
});
/** The third-party app's site, on another origin (a loopback port: http redirect URIs are allowed there). */
let client: Receiver;
beforeAll(async () => {
  client = await startReceiver();
});
afterAll(() => client.close());

const SHOTS = path.join(tmpdir(), 'oauth-browser-screenshots');
const PASSWORD = 'correct horse'; // what signUp gives every user


const VIEWPORTS: Array<[string, BrowserContextOptions]> = [
  ['desktop', { viewport: { width: 1280, height: 800 } }],
  ['phone', { viewport: { width: 390, height: 844 }, deviceScaleFactor: 2, isMobile: true, hasTouch: true }],
];

async function registerApp(developer: Client, body: Record<string, unknown>) {
  const res = await developer.call('POST', '/oauth/applications', body);
  expect(res.status).toBe(201);
  return { clientId: res.body.clientId as string, clientSecret: res.body.clientSecret as string | null };
}

const eventsWith = (accessToken: string) =>
  request(svc.base, 'GET', `/events?from=${encodeURIComponent('2032-05-01T00:00:00Z')}&to=${encodeURIComponent('2032-06-01T00:00:00Z')}`, undefined, {
    authorization: `Bearer ${accessToken}`,
  });

describeWithBrowser('OAuth sign-in, consent and the /docs Authorize button', (browser) => {
  beforeAll(() => {
    mkdirSync(SHOTS, { recursive: true });
    process.stdout.write(`oauth browser screenshots: ${SHOTS}\n`);
  });

  let context: BrowserContext;
  let page: Page;
  let problems: string[];
  let shot: (name: string, on?: Page) => Promise<void>;
  /** The browser logs the wrong password's 401 as a failed resource; anything else is a problem. */
  const unexpected = () => problems.filter((p) => !/status of 401/.test(p));

  const watch = (p: Page) => {
    p.on('pageerror', (err) => problems.push(err.message));
    p.on('console', (msg) => void (msg.type() === 'error' && problems.push(`${msg.text()} (${msg.location().url})`)));
  };

  const open = async (label: string, options: BrowserContextOptions) => {
    context = await browser().newContext({ ...options, locale: 'en-GB' });
    page = await context.newPage();
    problems = [];
    watch(page);
    // The docs page is long: only what is on the screen.
    shot = async (name, on = page) => void (await on.screenshot({ path: path.join(SHOTS, `${label}-${name}.png`), fullPage: !label.startsWith('docs') }));
  };
  afterEach(() => context?.close());

  /** Every visible field has a label, and on a phone nothing is wider than the screen and the controls are big enough. */
  async function expectUsable(p: Page, label: string) {
    const unlabelled = await p.$$eval('input:not([type=hidden])', (fields) =>
      fields.filter((f) => !document.querySelector(`label[for="${f.id}"]`)).map((f) => f.outerHTML));
    expect(unlabelled).toEqual([]);
    if (label !== 'phone') return;
    expect(await p.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    const heights = await p.$$eval('button, input:not([type=hidden])', (els) => els.map((e) => e.getBoundingClientRect().height));
    expect(heights.every((h) => h >= 44)).toBe(true);
    // Text fields at 16 px or more: phones do not zoom into them.
    const sizes = await p.$$eval('input:not([type=hidden])', (els) => els.map((e) => parseFloat(window.getComputedStyle(e).fontSize)));
    expect(sizes.every((s) => s >= 16)).toBe(true);
  }

  /** On the sign-in page: a wrong password first (shown on the page), then the right one; lands on the consent page. */
  async function signIn(p: Page, label: string, user: Client, appName: string) {
    expect(await p.textContent('h1')).toBe(`Sign in to continue to ${appName}`);
    await expectUsable(p, label);
    await shot('1-sign-in', p);
    await p.fill('#email', user.email);
    await p.fill('#password', 'not the password');
    const [refused] = await Promise.all([p.waitForResponse((r) => r.url().endsWith('/oauth/sign-in')), p.click('button[type=submit]')]);
    expect(refused.status()).toBe(401);
    expect(await p.textContent('[role=alert]')).toBe('Email or password is wrong.');
    expect(await p.inputValue('#email')).toBe(user.email);
    expect(await p.evaluate(() => document.activeElement?.id)).toBe('password');
    await shot('2-sign-in-wrong-password', p);
    await p.fill('#password', PASSWORD);
    await Promise.all([p.waitForURL(/\/api\/v1\/oauth\/authorize\?/), p.click('button[type=submit]')]);
    expect(await p.textContent('h1')).toBe(`${appName} wants to access your calendar account`);
    await expectUsable(p, label);
  }

  describe.each(VIEWPORTS)('on a %s', (label, options) => {
    it('a person without a session signs in, allows, and the app\'s code becomes a working token', async () => {
      await open(`consent-${label}`, options);
      const developer = await signUp(svc.base);
      const user = await signUp(svc.base);
      const callback = client.url('/consent-callback');
      const app = await registerApp(developer, { name: 'Acme Planner', redirectUri: callback, scopes: ['events:read', 'calendars:read'] });
      const { verifier, challenge } = pkce();
      const query = new URLSearchParams({
        response_type: 'code', client_id: app.clientId, redirect_uri: callback, scope: 'events:read calendars:read',
        state: 'st-123', code_challenge: challenge, code_challenge_method: 'S256',
      });

      const answer = await page.goto(`${svc.base}/oauth/authorize?${query}`);
      expect(answer!.status()).toBe(200);
      await signIn(page, label, user, 'Acme Planner');
      expect(await page.$$eval('li', (items) => items.map((i) => i.textContent))).toEqual([
        'See your events and invitations events:read', 'See your calendars calendars:read',
      ]);
      await shot('3-consent');

      const [consent] = await Promise.all([page.waitForRequest((r) => r.method() === 'POST'), page.click('button[value=allow]')]);
      await page.waitForURL(`${callback}?**`);
      // The form's POST said where it came from, so the Origin check let it through; the app learnt nothing of the
      // consent page's address.
      expect(consent.headers().origin).toBe(origin);
      expect(client.received('/consent-callback')[0].headers.referer).toBeUndefined();
      const back = new URL(page.url());
      expect(back.searchParams.get('state')).toBe('st-123');
      const code = back.searchParams.get('code');
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const token = await fetch(`${svc.base}/oauth/token`, {
        method: 'POST',
        body: new URLSearchParams({
          grant_type: 'authorization_code', code: code!, redirect_uri: callback, code_verifier: verifier,
          client_id: app.clientId, client_secret: app.clientSecret!,
        }),
      });
      expect(token.status).toBe(200);
      const tokens = (await token.json()) as { access_token: string; scope: string };
      expect(tokens.scope).toBe('events:read calendars:read');
      expect((jwt.decode(tokens.access_token) as { iss: string; sub: string })).toMatchObject({ iss: origin, sub: user.userId });
      expect((await eventsWith(tokens.access_token)).status).toBe(200);
      expect(unexpected()).toEqual([]);
    });

    it('Deny sends error=access_denied back, and no code', async () => {
      await open(`deny-${label}`, options);
      const developer = await signUp(svc.base);
      const user = await signUp(svc.base);
      const callback = client.url('/deny-callback');
      const app = await registerApp(developer, { name: 'Acme Planner', redirectUri: callback, scopes: ['events:read'] });
      await context.addCookies([{ name: 'session', value: user.token, url: origin }]);
      await page.goto(`${svc.base}/oauth/authorize?${new URLSearchParams({ response_type: 'code', client_id: app.clientId, redirect_uri: callback, state: 's' })}`);
      await Promise.all([page.waitForURL(`${callback}?**`), page.click('button[value=deny]')]);
      const back = new URL(page.url());
      expect(back.searchParams.get('error')).toBe('access_denied');
      expect(back.searchParams.get('state')).toBe('s');
      expect(back.searchParams.get('code')).toBeNull();
      expect(unexpected()).toEqual([]);
    });

    it('the /docs Authorize button signs in, consents in the popup, and swagger-ui gets a token with PKCE', async () => {
      await open(`docs-${label}`, options);
      const developer = await signUp(svc.base);
      const user = await signUp(svc.base);
      const app = await registerApp(developer, {
        name: 'API docs', redirectUri: `${origin}/docs/oauth2-redirect.html`, scopes: ['events:read', 'calendars:read'], public: true,
      });

      await page.goto(`${origin}/docs`);
      await page.click('.auth-wrapper button.authorize');
      const oauth2 = page.locator('.auth-container', { hasText: 'authorizationCode' });
      await oauth2.locator('#client_id_authorizationCode').fill(app.clientId);
      await oauth2.locator('label[for="events:read-authorizationCode-checkbox-oauth2"]').click();
      await oauth2.locator('button.authorize').scrollIntoViewIfNeeded();
      await shot('1-docs-authorize-dialog');

      const tokenAnswer = page.waitForResponse((r) => r.url() === `${svc.base}/oauth/token`);
      const [popup] = await Promise.all([page.waitForEvent('popup'), oauth2.locator('button.authorize').click()]);
      watch(popup);
      await popup.waitForLoadState();
      await signIn(popup, label, user, 'API docs');
      await shot('3-docs-consent', popup);
      await Promise.all([popup.waitForEvent('close'), popup.click('button[value=allow]')]);

      const answer = await tokenAnswer;
      expect(answer.status()).toBe(200);
      const sent = new URLSearchParams(answer.request().postData() ?? '');
      expect(sent.get('grant_type')).toBe('authorization_code');
      expect(sent.get('redirect_uri')).toBe(`${origin}/docs/oauth2-redirect.html`);
      expect(sent.get('code_verifier')).toMatch(/^[A-Za-z0-9._~-]{43,128}$/);
      const tokens = await answer.json();
      expect(tokens.scope).toBe('events:read');
      expect((await eventsWith(tokens.access_token)).status).toBe(200);
      await oauth2.locator('button', { hasText: 'Logout' }).scrollIntoViewIfNeeded();
      expect(await oauth2.locator('h6').textContent()).toBe('Authorized');
      await shot('4-docs-authorized');
      expect(unexpected()).toEqual([]);
    });
  });
});
