/**
 * vdirsyncer 0.21 syncs one calendar both ways with a local directory (created, changed and deleted on each side),
 * and khal lists what arrived: the same objects over CalDAV as over REST.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { davClientOf, originOf, vcalendar } from '../support/dav';
import { describeWithTool, missingTool, run } from '../support/dav-tools';
import { signUp, useTestService, type Client } from '../support/service';

const missing = missingTool('vdirsyncer', ['--version']) ?? missingTool('khal', ['--version']);
const RANGE = `from=${encodeURIComponent('2030-01-01T00:00:00Z')}&to=${encodeURIComponent('2030-02-01T00:00:00Z')}`;

describeWithTool('vdirsyncer and khal against /dav/ [dav-clients]', missing, 'pip install vdirsyncer==0.21.0 khal', () => {
  let base: string;
  useTestService((s) => (base = s.base));

  it('syncs creations, changes and deletions both ways; khal lists the result', async () => {
    const owner = await signUp(base);
    const dav = await davClientOf(base, owner);
    const calendarId = (await owner.call('GET', '/calendars')).body.calendars[0].id as string;
    const work = mkdtempSync(path.join(tmpdir(), 'vdirsyncer-'));
    const local = path.join(work, 'local');
    mkdirSync(local);
    writeFileSync(path.join(work, 'config'), [
      '[general]', `status_path = "${work}/status/"`, '',
      '[pair cal]', 'a = "local"', 'b = "remote"', 'collections = null', 'conflict_resolution = "b wins"', '',
      '[storage local]', 'type = "filesystem"', `path = "${local}/"`, 'fileext = ".ics"', '',
      '[storage remote]', 'type = "caldav"', `url = "${originOf(base)}/dav/calendars/${dav.username}/${calendarId}/"`,
      `username = "${dav.username}"`, `password = "${dav.key}"`, '',
    ].join('\n'));
    const env = { VDIRSYNCER_CONFIG: path.join(work, 'config') };
    const sync = async () => {
      const out = await run('vdirsyncer', ['sync'], { env, timeoutMs: 60_000 });
      expect(`${out.status} ${out.stderr}`).toMatch(/^0 /);
    };
    expect((await run('vdirsyncer', ['discover'], { env, timeoutMs: 60_000 })).status).toBe(0);
    const titles = async (c: Client) => ((await c.call('GET', `/events?${RANGE}`)).body.events as Array<{ title: string }>).map((e) => e.title).sort();
    const localText = () => readdirSync(local).map((f) => readFileSync(path.join(local, f), 'utf8')).join('\n');

    // Server to local: an event made over REST.
    const made = await owner.call('POST', '/events', { title: 'From the server', startsAt: '2030-01-07T09:00:00Z', endsAt: '2030-01-07T10:00:00Z' });
    expect(made.status).toBe(201);
    // Local to server: a new file.
    writeFileSync(path.join(local, 'local-1.ics'), vcalendar('local-1', ['DTSTART:20300108T090000Z', 'DTEND:20300108T100000Z', 'SUMMARY:Made locally']));
    await sync();
    expect(localText()).toContain('SUMMARY:From the server');
    expect(await titles(owner)).toEqual(['From the server', 'Made locally']);

    // Changes on each side.
    writeFileSync(path.join(local, 'local-1.ics'), vcalendar('local-1', ['DTSTART:20300108T090000Z', 'DTEND:20300108T100000Z', 'SUMMARY:Changed locally']));
    expect((await owner.call('PATCH', `/events/${made.body.event.id}`, { title: 'Changed on the server' })).status).toBe(200);
    await sync();
    expect(localText()).toContain('SUMMARY:Changed on the server');
    expect(await titles(owner)).toEqual(['Changed locally', 'Changed on the server']);

    // khal reads the synced directory.
    writeFileSync(path.join(work, 'khal.conf'), [
      '[calendars]', '[[mine]]', `path = ${local}/`, 'type = calendar', '',
      '[locale]', 'timeformat = %H:%M', 'dateformat = %Y-%m-%d', 'longdateformat = %Y-%m-%d', 'datetimeformat = %Y-%m-%d %H:%M',
      'longdatetimeformat = %Y-%m-%d %H:%M', 'default_timezone = UTC', 'local_timezone = UTC', '',
      '[sqlite]', `path = ${work}/khal.db`, '',
    ].join('\n'));
    const khal = await run('khal', ['-c', path.join(work, 'khal.conf'), 'list', '--format', '{start} {title}', '2030-01-01', '2030-01-31'], { timeoutMs: 60_000 });
    expect(khal.status).toBe(0);
    expect(khal.stdout).toContain('2030-01-07 09:00 Changed on the server');
    expect(khal.stdout).toContain('2030-01-08 09:00 Changed locally');

    // Deletions on each side.
    rmSync(path.join(local, 'local-1.ics'));
    expect((await owner.call('DELETE', `/events/${made.body.event.id}`)).status).toBe(204);
    await sync();
    expect(readdirSync(local)).toEqual([]);
    expect(await titles(owner)).toEqual([]);
  }, 120_000);
});
