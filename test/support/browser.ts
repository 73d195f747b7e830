/**
 * A real browser for the page suites: Debian's chromium driven by playwright-core. Without /usr/bin/chromium the
 * suite is skipped with one visible line (the summary reporter prints it); REQUIRE_BROWSER=1 (CI) turns that skip
 * into a failure.
 */
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

const ARGS = [
  '--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
  '--disable-component-update', '--disable-sync',
];

export function describeWithBrowser(title: string, body: (browser: () => Browser) => void): void {
  if (!existsSync(CHROMIUM)) {
    describe(`${title} [browser]`, () => {
      if (process.env.REQUIRE_BROWSER === '1') {
        it(`needs a browser (REQUIRE_BROWSER=1) but ${CHROMIUM} is missing`, () => {
          throw new Error(`required browser missing: ${CHROMIUM} (apt-get install -y chromium)`);
        });
      } else {
        it.skip(`skipped: no browser at ${CHROMIUM}`, () => undefined);
      }
    });
    return;
  }
  describe(`${title} [browser: ${CHROMIUM}]`, () => {
    let browser: Browser | undefined;
    beforeAll(async () => {
      browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
    }, 60_000);
    afterAll(() => browser?.close());
    body(() => browser!);
  });
}
