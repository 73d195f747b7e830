/**
 * The CLI's `ical import <file> --calendar <id>`, run as the built program against a running test service: it
 * sends the file to POST /calendars/{id}/import with a progress bar on stderr and prints the service's report; run
 * again it imports nothing; a refused token, a file that is not iCalendar and a calendar of someone else fail with
 * one line and exit 1, a malformed id with exit 2, and nothing is written.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runCli } from '../support/cli';
import { signUp, startTestService, type Client, type TestService } from '../support/service';

jest.setTimeout(60_000);

let svc: TestService;
let ada: Client;
let calendarId: string;
let env: Record<string, string>;
const dir = mkdtempSync(path.join(tmpdir(), 'cli-ical-'));
const file = (name: string, text: string) => {
  const at = path.join(dir, name);
  writeFileSync(at, text);
  return at;
};
const vevent = (uid: string, day: number) => [
  'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', `DTSTART;TZID=Europe/Berlin:202611${String(day).padStart(2, '0')}T090000`,
  'DURATION:PT1H', `SUMMARY:Imported ${day}`, 'END:VEVENT',
];
const calendarText = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...vevent('a@x', 2), ...vevent('b@x', 3), 'END:VCALENDAR', ''].join('\r\n');

beforeAll(async () => {
  svc = await startTestService();
  ada = await signUp(svc.base);
  calendarId = (await ada.call('GET', '/calendars')).body.calendars[0].id;
  env = { API_URL: new URL(svc.base).origin, CALENDAR_TOKEN: ada.token };
});
afterAll(() => svc?.stop());

it('imports the file with a progress bar, then, run again, imports nothing', async () => {
  const ics = file('two.ics', calendarText);
  const first = await runCli(['--progress', 'ical', 'import', ics, '--calendar', calendarId], env);
  expect(first).toMatchObject({ code: 0, stdout: 'imported 2, updated 0, skipped 0\n' });
  expect(first.stderr).toMatch(/import \[[^\]]*\] 100% \| \d+\/\d+ bytes/);
  const again = await runCli(['ical', 'import', ics, '--calendar', calendarId, '--json'], env);
  expect(again.code).toBe(0);
  expect(JSON.parse(again.stdout)).toEqual({ imported: 0, updated: 0, skipped: [] });
  const listed = await ada.call('GET', `/events?from=${encodeURIComponent('2026-11-01T00:00:00Z')}&to=${encodeURIComponent('2026-11-05T00:00:00Z')}`);
  expect(listed.body.events.map((e: { title: string; startsAt: string }) => [e.title, e.startsAt])).toEqual([
    ['Imported 2', '2026-11-02T08:00:00.000Z'], ['Imported 3', '2026-11-03T08:00:00.000Z'],
  ]);
});

it('fails in one line, writing nothing: a refused token, no iCalendar, someone else\'s calendar; a bad id is usage', async () => {
  const ics = file('one.ics', calendarText.replace('a@x', 'c@x').replace('b@x', 'd@x'));
  const refused = await runCli(['ical', 'import', ics, '--calendar', calendarId], { ...env, CALENDAR_TOKEN: 'cs_nope' });
  expect(refused.code).toBe(1);
  expect(refused.stderr).toMatch(/^error: the service at .* refused CALENDAR_TOKEN\n$/);
  const junk = await runCli(['ical', 'import', file('junk.ics', 'hello'), '--calendar', calendarId], env);
  expect(junk.code).toBe(1);
  expect(junk.stderr).toMatch(/^error: import refused \(400\): Not iCalendar/);
  const bob = await signUp(svc.base);
  const foreign = await runCli(['ical', 'import', ics, '--calendar', calendarId], { ...env, CALENDAR_TOKEN: bob.token });
  expect(foreign.code).toBe(1);
  expect(foreign.stderr).toMatch(/^error: import refused \(404\)/);
  expect((await runCli(['ical', 'import', ics, '--calendar', 'nope'], env)).code).toBe(2);
  const listed = await ada.call('GET', `/events?from=${encodeURIComponent('2026-11-01T00:00:00Z')}&to=${encodeURIComponent('2026-11-05T00:00:00Z')}`);
  expect(listed.body.events).toHaveLength(2);
});
