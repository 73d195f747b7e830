/** The API's rate limit holds over CalDAV too: per app password, 429 with Retry-After past it. */
import { davClientOf } from '../support/dav';
import { signUp, useTestService } from '../support/service';

let base: string;
useTestService((s) => (base = s.base), { RATE_LIMIT_PER_CREDENTIAL: '5' });

it('answers 429 past the per-credential limit', async () => {
  const dav = await davClientOf(base, await signUp(base));
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await dav.call('PROPFIND', '/dav/', '', { depth: '0' })).status);
  expect(statuses).toEqual([207, 207, 207, 207, 207, 429]);
  expect(Number((await dav.call('PROPFIND', '/dav/')).headers.get('retry-after'))).toBeGreaterThan(0);
});
