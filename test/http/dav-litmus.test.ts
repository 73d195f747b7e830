/**
 * litmus (the WebDAV test suite) `basic` against the calendar home, with Basic auth. A CalDAV home is no general
 * WebDAV store: its collections are calendars holding calendar objects only (RFC 4791 4.2), so the tests that store
 * plain files or nest collections are not claimed (UNCLAIMED, and docs/caldav.md); every other one must pass.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { davClientOf, originOf } from '../support/dav';
import { describeWithTool, missingTool, run } from '../support/dav-tools';
import { signUp, useTestService } from '../support/service';

const missing = missingTool('sh', ['-c', 'command -v litmus']);

const CLAIMED = ['init', 'begin', 'options', 'put_no_parent', 'delete_null', 'mkcol_no_parent', 'mkcol_with_body', 'finish'];
const UNCLAIMED: Record<string, string> = {
  put_get: 'a plain file (not iCalendar, not {UID}.ics) is no calendar object: 403',
  put_get_utf8_segment: 'as put_get',
  mkcol_over_plain: 'needs put_get',
  delete: 'needs put_get',
  delete_fragment: 'needs a collection inside a calendar collection',
  mkcol: 'calendar collections hold no collections (RFC 4791 4.2): 403',
  mkcol_again: 'needs mkcol',
  delete_coll: 'needs mkcol',
};

describeWithTool('litmus basic against /dav/ [dav-clients]', missing, 'apt-get install -y litmus', () => {
  let base: string;
  useTestService((s) => (base = s.base));

  it('passes every basic test a calendar home can', async () => {
    const dav = await davClientOf(base, await signUp(base));
    const out = await run('litmus', [`${originOf(base)}/dav/calendars/${dav.username}/`, dav.username, dav.key], {
      env: { TESTS: 'basic' }, cwd: mkdtempSync(path.join(tmpdir(), 'litmus-')), timeoutMs: 60_000,
    });
    console.log(`litmus basic:\n${out.stdout}`);
    const results = new Map([...out.stdout.matchAll(/\d+\. (\w+)\.+ (?:\1\.+ )?(pass|FAIL|SKIPPED|WARNING)/g)].map((m) => [m[1], m[2]]));
    const passed = [...results].filter(([, r]) => r === 'pass' || r === 'WARNING').map(([t]) => t);
    expect(passed.sort()).toEqual([...CLAIMED].sort());
    expect([...results.keys()].sort()).toEqual([...CLAIMED, ...Object.keys(UNCLAIMED)].sort());
  }, 90_000);
});
