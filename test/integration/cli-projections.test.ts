/**
 * The CLI's `projections` commands against a running test service (its /admin endpoints, ADMIN_TOKEN): list and
 * status agree with the service's own report, rebuild --wait follows a real rebuild to its switch, every failure is
 * exit code 1 with a sentence, and list --offline reads the same figures from the stores once the service stopped.
 */
import { PROJECTIONS } from '../../services/composition';
import { eventBody, freePort } from '../bench/util';
import { runCli } from '../support/cli';
import { request, signUp, startTestService, type Client, type TestService } from '../support/service';

const ADMIN_TOKEN = 'admin-token-for-the-cli-projections-test';
const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };
const EVENTS = 12;
const WEEK = Date.UTC(2031, 2, 3);

let svc: TestService;
let root = '';
let user: Client;
let running = false;

const cliEnv = () => ({ ADMIN_TOKEN, ADMIN_URL: root });

interface Row {
  name: string;
  version: number | null;
  active: string | null;
  building: unknown;
  checkpoint: number;
  lagPositions: number;
  lagSeconds: number;
  deadLetters: number;
}

async function adminReport() {
  const res = await request(root, 'GET', '/admin/projections', undefined, admin);
  expect(res.status).toBe(200);
  return res.body as { head: number; projections: Array<{ name: string; position: number; registry: { active: string } }> };
}

/** Waits until every projection has applied the whole log, so two reports taken one after the other agree. */
async function caughtUp(): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const r = await adminReport();
    if (r.projections.every((p) => p.position === r.head)) return;
    if (Date.now() > deadline) throw new Error('projections did not catch up');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

async function weekTitles(): Promise<string[]> {
  const from = new Date(WEEK).toISOString();
  const to = new Date(WEEK + 7 * 86_400_000).toISOString();
  const res = await user.call('GET', `/events?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return res.body.events.map((e: { title: string }) => e.title).sort();
}

beforeAll(async () => {
  svc = await startTestService({ ADMIN_TOKEN });
  running = true;
  root = svc.service.url!;
  user = await signUp(svc.base);
  for (let i = 0; i < EVENTS; i++) expect((await user.call('POST', '/events', eventBody(WEEK, i, 'Planning'))).status).toBe(201);
  await caughtUp();
});

afterAll(async () => {
  if (running) await svc.stop();
});

describe('projections list and status, from the running service', () => {
  it('lists every projection with its version, storage, checkpoint, lag and dead letters', async () => {
    const report = await adminReport();
    const res = await runCli(['projections', 'list', '--json'], cliEnv());
    expect(res.code).toBe(0);
    const listed = JSON.parse(res.stdout) as { head: number; projections: Row[] };
    expect(listed.head).toBe(report.head);
    expect(listed.projections.map((p) => p.name).sort()).toEqual(PROJECTIONS.map((p) => p.name).sort());
    for (const p of listed.projections) {
      const def = PROJECTIONS.find((d) => d.name === p.name)!;
      const served = report.projections.find((r) => r.name === p.name)!;
      expect(p).toEqual({
        name: def.name, version: def.version, active: served.registry.active, building: null,
        checkpoint: report.head, lagPositions: 0, lagSeconds: 0, deadLetters: 0,
      });
      expect(p.active).toMatch(new RegExp(`^${def.name}_v${def.version}_g\\d+$`));
    }

    const table = await runCli(['projections', 'list'], cliEnv());
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^NAME\s+VERSION\s+ACTIVE\s+BUILDING\s+CHECKPOINT\s+LAG \(positions\)\s+LAG \(s\)\s+DEAD LETTERS$/);
    const schedule = lines.find((l) => l.startsWith('schedule '))!.split(/\s+/);
    const def = PROJECTIONS.find((d) => d.name === 'schedule')!;
    expect(schedule).toEqual(['schedule', String(def.version), listed.projections.find((p) => p.name === 'schedule')!.active, '-', String(report.head), '0', '0.0', '0']);
    expect(lines[lines.length - 1]).toBe(`log head: ${report.head}`);
  });

  it('shows the status of one projection, or all, as text or the full JSON report', async () => {
    const report = await adminReport();
    const one = await runCli(['projections', 'status', 'schedule'], cliEnv());
    expect(one.code).toBe(0);
    const active = report.projections.find((p) => p.name === 'schedule')!.registry.active;
    expect(one.stdout).toContain(`log head: ${report.head}\n\nschedule (version ${PROJECTIONS.find((d) => d.name === 'schedule')!.version})`);
    expect(one.stdout).toContain(`active storage:   ${active}\n`);
    expect(one.stdout).toContain(`checkpoint:       ${report.head} (0 positions and 0.0 s behind the head)`);
    expect(one.stdout).toContain('dead letters:     0');
    expect(one.stdout).not.toContain('inbox');

    const all = await runCli(['projections', 'status', '--json'], cliEnv());
    expect(JSON.parse(all.stdout)).toEqual({ ...report, projections: report.projections.map((p) => ({ ...p, lagSeconds: 0 })) });
  });

  it('fails with exit code 1 and a sentence when the name, the token or the service is wrong', async () => {
    const closed = `http://127.0.0.1:${await freePort()}`;
    const cases: Array<[string[], Record<string, string>, RegExp]> = [
      [['projections', 'status', 'nope'], cliEnv(), /no projection named nope \(known: .*schedule/],
      [['projections', 'rebuild', 'nope'], cliEnv(), /no projection named nope/],
      [['projections', 'list'], { ADMIN_URL: root }, /set ADMIN_TOKEN/],
      [['projections', 'list'], { ADMIN_URL: root, ADMIN_TOKEN: 'not-the-admin-token-at-all' }, /refused ADMIN_TOKEN/],
      [['projections', 'rebuild', 'schedule'], { ADMIN_TOKEN, ADMIN_URL: closed }, new RegExp(`cannot reach the service at ${closed} \\(ECONNREFUSED\\)`)],
    ];
    for (const [args, env, message] of cases) {
      const res = await runCli(args, env);
      expect({ args, code: res.code }).toEqual({ args, code: 1 });
      expect(res.stderr).toMatch(message);
      expect(res.stdout).toBe('');
    }
  });
});

describe('projections rebuild', () => {
  it('requests a rebuild and returns at once without --wait', async () => {
    const before = (await adminReport()).projections.find((p) => p.name === 'inbox')!.registry.active;
    const res = await runCli(['projections', 'rebuild', 'inbox', '--json'], cliEnv());
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ name: 'inbox', rebuildRequested: true, serving: before });
  });

  it('with --wait follows the build with a progress bar until the projection serves from new storage', async () => {
    const titles = await weekTitles();
    expect(titles).toHaveLength(EVENTS);
    const before = (await adminReport()).projections.find((p) => p.name === 'schedule')!.registry.active;
    const res = await runCli(['--progress', 'projections', 'rebuild', 'schedule', '--wait', '--json'], cliEnv());
    expect(res.code).toBe(0);
    expect(res.stderr).toMatch(/rebuild schedule \[.*\] 100%/);
    const outcome = JSON.parse(res.stdout);
    const generation = (key: string) => Number(/_g(\d+)$/.exec(key)![1]);
    expect(outcome).toMatchObject({ name: 'schedule', previous: before, position: await svc.service.context.events.headPosition() });
    expect(generation(outcome.active)).toBeGreaterThan(generation(before));

    const after = (await adminReport()).projections.find((p) => p.name === 'schedule')!;
    expect(after.registry.active).toBe(outcome.active);
    expect(await weekTitles()).toEqual(titles);
  });
});

describe('projections list --offline', () => {
  it('reads the same figures from the stores once the service is stopped', async () => {
    await caughtUp();
    const online = JSON.parse((await runCli(['projections', 'list', '--json'], cliEnv())).stdout);
    const config = svc.service.context.config;
    await svc.stop();
    running = false;
    const stores: Record<string, string> = { DATA_DIR: config.DATA_DIR, MONGO_DB: config.MONGO_DB };
    if (config.MONGO_URL) stores.MONGO_URL = config.MONGO_URL;
    if (config.EVENTSTORE_URL) stores.EVENTSTORE_URL = config.EVENTSTORE_URL;
    const res = await runCli(['projections', 'list', '--offline', '--json'], stores);
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual(online);
  });
});
