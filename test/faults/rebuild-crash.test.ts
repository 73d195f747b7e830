/**
 * A rebuild killed half-way resumes where it stopped, and no write made while it runs is lost. The service runs as a
 * child (the built dist) over a seeded log of sealed events; two users keep writing through the API while
 * `schedule` is rebuilt; the process is killed with SIGKILL once the new storage has a checkpoint, and restarted on
 * the same data. The same storage must carry on and switch, and every acknowledged write must be listed after it.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { openReadStore } from '../../services/composition';
import { loadConfig } from '../../services/config';
import { historyStore } from '../../services/eventstore/decoding-event-store';
import { eventBody, freePort } from '../bench/util';
import { seedLog } from '../bench/scale-seed';
import { killed, requireBuild, startChild } from '../support/service-child';
import { request, signUp, type Client } from '../support/service';
import { afterBusy } from '../support/settled';

/** On MongoDB-wire (FerretDB) each projection catches up one write at a time: a smaller log still takes seconds to rebuild. */
const SEEDED = process.env.MONGO_URL ? 1_200 : 20_000;
const ADMIN_TOKEN = 'rebuild-crash-admin-token';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const WEEK = Date.UTC(2032, 4, 3);
const WRITES_PER_USER = 150;

interface ScheduleReport {
  head: number;
  schedule: { position: number; registry: { active: string; building: string | null }; building: { storage: string; position: number } | null };
}

const dataDir = mkdtempSync(path.join(tmpdir(), 'rebuild-crash-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function seed(): Promise<void> {
  const config = loadConfig({ ...process.env, DATA_DIR: dataDir, MONGO_DB: `kill_${path.basename(dataDir).replace(/\W/g, '_')}` });
  const keys = await openReadStore(config);
  const owner = { userId: randomUUID(), spaceId: randomUUID(), calendarId: randomUUID() };
  await seedLog(path.join(dataDir, 'events.sqlite'), SEEDED, owner, (inner) => historyStore(inner, keys).events);
  await keys.close();
}

async function until<T>(what: string, probe: () => Promise<T | undefined>, ms = 240_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const found = await probe().catch(() => undefined);
    if (found !== undefined) return found;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Keeps writing events for one user, through kills and restarts; a write counts as made only once answered 201. It
 * writes until it has `allowed` acknowledged writes, then waits for `allow` to raise the bound: a writer that finished
 * before the kill could otherwise never show writes made after the switch.
 */
function writer(user: Client, tag: string) {
  const acked: string[] = [];
  let allowed = WRITES_PER_USER;
  let sent = 0;
  let stop = false;
  const done = (async () => {
    while (!stop) {
      if (acked.length >= allowed) {
        await new Promise((r) => setTimeout(r, 25));
        continue;
      }
      const body = eventBody(WEEK, sent++, tag); // a new title each time: one whose answer was lost may be there
      const res = await user.call('POST', '/events', body).catch(() => null);
      if (res?.status === 201) acked.push(body.title);
      if (!res) await new Promise((r) => setTimeout(r, 50)); // the service is down
    }
  })();
  return {
    acked,
    sent: () => sent,
    allow: (more: number) => void (allowed = acked.length + more),
    finish: () => ((stop = true), done),
  };
}

it('resumes a rebuild killed half-way in the same storage, switches, and keeps every acknowledged write', async () => {
  requireBuild();
  await seed();
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const report = async (): Promise<ScheduleReport> => {
    const res = await request(base, 'GET', '/admin/projections', undefined, admin);
    if (res.status !== 200) throw new Error(`admin report: ${res.status}`);
    return { head: res.body.head, schedule: res.body.projections.find((p: { name: string }) => p.name === 'schedule') };
  };
  let child: ChildProcess = await startChild(dataDir, port, { ADMIN_TOKEN });
  try {
    await until('the first build', async () => {
      const r = await report();
      return r.schedule.registry.building === null && r.schedule.position >= SEEDED ? r : undefined;
    });
    const api = `${base}/api/v1`;
    const [ada, bob] = [await signUp(api), await signUp(api)];
    const writers = [writer(ada, 'Ada'), writer(bob, 'Bob')];
    await until('writes before the rebuild', async () => (writers.every((w) => w.acked.length > 0) ? true : undefined));
    const before = (await report()).schedule.registry.active;

    expect((await request(base, 'POST', '/admin/projections/schedule/rebuild', undefined, admin)).status).toBe(202);
    const half = await until('a checkpoint of the new storage', async () => {
      const r = await report();
      if (r.schedule.registry.active !== before) throw new Error('the rebuild switched before it could be killed: seed more');
      return r.schedule.building && r.schedule.building.position > 0 ? r.schedule.building : undefined;
    });
    await killed(child);
    const ackedBeforeKill = writers.map((w) => w.acked.length);
    for (const w of writers) w.allow(20); // each event takes a new half-hour of the week: 336 fit

    child = await startChild(dataDir, port, { ADMIN_TOKEN });
    const resumed = await report();
    expect([resumed.schedule.registry.building, resumed.schedule.registry.active]).toContain(half.storage);
    if (resumed.schedule.building) expect(resumed.schedule.building.position).toBeGreaterThanOrEqual(half.position);
    await until('the switch', async () => ((await report()).schedule.registry.active === half.storage ? true : undefined));
    await until('writes after the switch', async () => (writers.every((w, i) => w.acked.length > ackedBeforeKill[i] + 5) ? true : undefined));

    await Promise.all(writers.map((w) => w.finish()));
    const head = (await report()).head;
    await until('the writes to be applied', async () => ((await report()).schedule.position >= head ? true : undefined));
    for (const [user, w] of [[ada, writers[0]], [bob, writers[1]]] as const) {
      const from = new Date(WEEK).toISOString();
      const to = new Date(WEEK + 7 * 86_400_000).toISOString();
      const res = await afterBusy(() => user.call('GET', `/events?from=${from}&to=${to}`)); // FerretDB scans the week
      expect(res.status).toBe(200);
      const titles: string[] = res.body.events.map((e: { title: string }) => e.title);
      expect(new Set(titles).size).toBe(titles.length);
      expect(titles).toEqual(expect.arrayContaining(w.acked));
      expect(titles.length).toBeLessThanOrEqual(w.sent());
    }
  } finally {
    await killed(child);
  }
}, 900_000);
