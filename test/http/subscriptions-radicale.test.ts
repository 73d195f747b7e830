/**
 * A subscription to a real CalDAV server: Radicale 3.9 on a temporary folder with HTTP Basic (htpasswd, plain). A
 * calendar and a busy event are made in it with plain CalDAV requests (MKCALENDAR, PUT); the service subscribes to
 * the collection with the user's name and password, and the host's public booking slots at that time disappear; an
 * unchanged collection (same getctag) appends nothing; the event deleted there frees the slots again; a wrong password
 * is `lastError`. Without radicale on PATH the suite says so in one line and is skipped; REQUIRE_DAV_CLIENTS=1 (or
 * REQUIRE_PYTHON_CLIENTS=1, as CI sets: .ci/python-clients.txt installs it) makes that a failure.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { hostWithType, mondayAhead, slotsOf, type Host } from '../support/bookings';
import { icsOf } from '../support/ics-source';
import { request, useTestService, type TestService } from '../support/service';
import { subscriptionsOf } from '../support/subscriptions';

const probe = spawnSync('radicale', ['--version'], { encoding: 'utf8' });
const missing = probe.error || probe.status !== 0 ? 'radicale is not on PATH (pip install radicale==3.9.0)' : null;
const required = process.env.REQUIRE_DAV_CLIENTS === '1' || process.env.REQUIRE_PYTHON_CLIENTS === '1';

let svc: TestService;
const { subscribed, refreshed } = subscriptionsOf(() => svc);

const USER = 'ada';
const PASSWORD = 'radicale-pass-1';
const auth = (password = PASSWORD) => `Basic ${Buffer.from(`${USER}:${password}`).toString('base64')}`;

const freePort = () => new Promise<number>((resolve) => {
  const s = createServer().listen(0, '127.0.0.1', () => {
    const { port } = s.address() as { port: number };
    s.close(() => resolve(port));
  });
});

let radicale: ChildProcess | undefined;
let davBase = '';
/** Radicale's log (each request it served is a line). */
let stderr = '';

async function dav(method: string, at: string, body?: string, contentType = 'application/xml; charset=utf-8') {
  const res = await fetch(`${davBase}${at}`, { method, headers: { authorization: auth(), ...(body ? { 'content-type': contentType } : {}) }, body });
  await res.arrayBuffer();
  return res.status;
}

async function startRadicale(): Promise<void> {
  const dir = mkdtempSync(path.join(tmpdir(), 'radicale-'));
  writeFileSync(path.join(dir, 'users'), `${USER}:${PASSWORD}\n`);
  const port = await freePort();
  davBase = `http://127.0.0.1:${port}`;
  radicale = spawn('radicale', [
    '--server-hosts', `127.0.0.1:${port}`, '--storage-filesystem-folder', path.join(dir, 'collections'),
    '--auth-type', 'htpasswd', '--auth-htpasswd-filename', path.join(dir, 'users'), '--auth-htpasswd-encryption', 'plain',
    '--rights-type', 'owner_only', '--logging-level', 'info',
  ], { stdio: ['ignore', 'ignore', 'pipe'] });
  radicale.stderr!.on('data', (chunk: Buffer) => void (stderr += chunk.toString()));
  for (const started = Date.now(); Date.now() - started < 15_000;) {
    if (radicale.exitCode !== null) throw new Error(`radicale exited: ${stderr}`);
    try {
      await fetch(`${davBase}/`);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  throw new Error(`radicale did not start: ${stderr}`);
}

if (missing) {
  describe('a subscription to a Radicale collection [radicale]', () => {
    if (required) {
      it(`needs radicale 3.9 (REQUIRE_DAV_CLIENTS=1), but ${missing}`, () => {
        throw new Error(missing);
      });
    } else {
      it.skip(`skipped: ${missing}`, () => undefined);
    }
  });
} else {
  describe('a subscription to a Radicale collection [radicale]', () => {
    useTestService((s) => (svc = s), { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', SUBSCRIPTION_POLL_MS: '30', SUBSCRIPTION_REFRESH_MS: '3600000' });
    beforeAll(startRadicale, 30_000);
    afterAll(() => void radicale?.kill());

    const monday = mondayAhead('UTC');
    const slot = (h: number, m = 0) => `${monday}T${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}:00.000Z`;
    const query = `?from=${monday}&days=1&timeZone=UTC`;
    const startsOf = async (host: Host) => {
      const headers = { 'X-Calendar-Min-Position': String(await svc.service.context.events.headPosition()) };
      const res = await request(svc.base, 'GET', `${host.page}/slots${query}`, undefined, headers);
      expect(res.status).toBe(200);
      return (res.body.slots as Array<{ startsAt: string }>).map((s) => s.startsAt);
    };

    it('its busy event removes the matching booking slots; unchanged appends nothing; deleted there frees them', async () => {
      expect(await dav('MKCALENDAR', `/${USER}/work/`)).toBe(201);
      const busy = icsOf([{ uid: 'dentist@radicale.test', summary: 'Dentist', start: slot(10), end: slot(11) }]);
      expect(await dav('PUT', `/${USER}/work/dentist.ics`, busy, 'text/calendar; charset=utf-8')).toBe(201);

      const host = await hostWithType(svc.base, { durationMinutes: 30 }, { timeZone: 'UTC' });
      expect(await slotsOf(svc.base, host, query)).toEqual(expect.arrayContaining([expect.objectContaining({ startsAt: slot(10, 30) })]));
      const { id, first } = await subscribed(host.client, { url: `${davBase}/${USER}/work/`, name: 'Work', username: USER, password: PASSWORD });
      expect(first.lastError).toBeNull();
      // Read as a CalDAV collection (PROPFIND, then a calendar-query REPORT), not as one GET.
      expect(stderr).toMatch(/PROPFIND request for '\/ada\/work\/'/);
      expect(stderr).toMatch(/REPORT request for '\/ada\/work\/'/);
      const after = await startsOf(host);
      expect(after).not.toContain(slot(10));
      expect(after).not.toContain(slot(10, 30));
      expect(after).toEqual(expect.arrayContaining([slot(9, 30), slot(11)]));

      const head = await svc.service.context.events.headPosition();
      expect((await refreshed(host.client, id)).lastError).toBeNull();
      expect(await svc.service.context.events.headPosition()).toBe(head);

      expect(await dav('DELETE', `/${USER}/work/dentist.ics`)).toBe(200);
      expect((await refreshed(host.client, id)).lastError).toBeNull();
      expect(await startsOf(host)).toEqual(expect.arrayContaining([slot(10), slot(10, 30)]));
    });

    it('a wrong password is the fetch\'s lastError', async () => {
      const host = await hostWithType(svc.base);
      const { first } = await subscribed(host.client, { url: `${davBase}/${USER}/work/`, name: 'Work', username: USER, password: 'wrong' });
      expect(first.lastError).toMatch(/HTTP 401/);
    });
  });
}
