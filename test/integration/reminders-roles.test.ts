/**
 * Reminders with the roles as separate processes on Kafka and a MongoDB-wire server (sharing one event log), two
 * automations processes racing for the same reminders: every reminder due at one instant is recorded once, its owner
 * notified once (projector), `push` ones pushed once to the owner's device and `email` ones mailed once (dispatcher,
 * through Kafka), and the two workers' counts add up to the reminders (neither recorded one the other had).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../bench/util';
import { describeOnEngine } from '../support/engines';
import { until } from '../support/receiver';
import { remindedEvent, reminderNotifications } from '../support/reminders';
import { request } from '../support/service';
import { MAIN, requireBuild } from '../support/service-child';

const ADMIN_TOKEN = 'admin-token-for-reminder-roles';
const WAIT_MS = 120_000;
/** Reminders due at one instant per method; a device lists its latest 5 pushes, so at most 5 push. */
const COUNTS = { notification: 30, push: 4, email: 4 } as const;

describeOnEngine('mongo', 'reminders with two automations processes', (mongoUrl) => {
  describeOnEngine('kafka', 'with Kafka', (brokers) => {
    const children: ChildProcess[] = [];
    afterAll(() => {
      for (const c of children) c.kill('SIGTERM');
    });

    it('records, notifies, pushes and mails each reminder once', async () => {
      requireBuild();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'reminder-roles-'));
      const tag = path.basename(dataDir).replace(/\W/g, '_');
      const port = await freePort();
      const env = {
        ...process.env, DATA_DIR: dataDir, MONGO_URL: mongoUrl(), MONGO_DB: `reminders_${tag}`, KAFKA_BROKERS: brokers(),
        KAFKA_TOPIC: `reminders.${tag}`, LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '1024', HOST: '127.0.0.1', PORT: String(port),
        REMINDER_POLL_MS: '50', ADMIN_TOKEN,
      };
      const workers = [await freePort(), await freePort()];
      for (const role of ['projector', 'relay', 'dispatcher', 'api']) children.push(spawn(process.execPath, [MAIN], { env: { ...env, ROLE: role }, stdio: 'ignore' }));
      for (const metrics of workers) {
        children.push(spawn(process.execPath, [MAIN], { env: { ...env, ROLE: 'automations', METRICS_PORT: String(metrics) }, stdio: 'ignore' }));
      }
      const base = `http://127.0.0.1:${port}/api/v1`;
      await until(() => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false), 60_000, 'api up');
      const signup = await request(base, 'POST', '/auth/signup', { email: `${tag}@example.com`, password: 'long enough', name: 'R' });
      expect(signup.status).toBe(201);
      const auth = { authorization: `Bearer ${signup.body.session.token}` };
      const call = (method: string, p: string, body?: unknown, headers: Record<string, string> = {}) => request(base, method, p, body, { ...auth, ...headers });
      const device = await call('POST', '/devices', { platform: 'ios', name: 'Phone', pushToken: randomBytes(32).toString('hex') });
      expect(device.status).toBe(201);

      const methods = Object.entries(COUNTS).flatMap(([method, n]) => Array.from({ length: n }, () => method));
      // All due at one instant, far enough ahead for every event to be created first, on a slow machine too.
      const at = Date.now() + 30_000;
      const when = { startsAt: new Date(at).toISOString(), endsAt: new Date(at + 3_600_000).toISOString() };
      const created = await Promise.all(methods.map((method) => remindedEvent(call, 0, [{ minutesBefore: 0, method }], { title: `By ${method}`, ...when })));
      const events = new Map(created.map((e, i) => [e.id as string, methods[i]]));
      expect(Date.now()).toBeLessThan(at);

      await until(async () => (await reminderNotifications(call)).length >= methods.length, WAIT_MS, 'every reminder notified');
      const mailTo = async () => {
        const res = await request(`http://127.0.0.1:${port}`, 'GET', '/admin/mail', undefined, { authorization: `Bearer ${ADMIN_TOKEN}` });
        return (res.body.mail as Array<{ to: string; eventType: string }>).filter((m) => m.to === signup.body.user.email);
      };
      const pushes = async () => ((await call('GET', '/devices')).body.devices[0].pushes as Array<{ kind: string; notificationId: string }>);
      await until(async () => (await mailTo()).length >= COUNTS.email && (await pushes()).length >= COUNTS.push, WAIT_MS, 'mail and pushes');
      // A later reminder came after all of them (the worker fires in due order): none came twice before it either.
      const control = await remindedEvent(call, 2000, [{ minutesBefore: 0, method: 'notification' }], { title: 'Control' });
      await until(async () => (await reminderNotifications(call)).some((n) => n.eventId === control.id), WAIT_MS, 'the control reminder');

      const notified = (await reminderNotifications(call)).filter((n) => n.eventId !== control.id);
      expect(notified.map((n) => n.eventId).sort()).toEqual([...events.keys()].sort());
      const pushedIds = new Set(notified.filter((n) => events.get(n.eventId) === 'push').map((n) => n.id));
      const pushed = await pushes();
      expect(pushed.filter((p) => p.kind === 'notification' && pushedIds.has(p.notificationId))).toHaveLength(COUNTS.push);
      expect(new Set(pushed.map((p) => p.notificationId)).size).toBe(pushed.length);
      expect((await mailTo()).map((m) => m.eventType)).toEqual(Array(COUNTS.email).fill('reminder.fired'));

      const fired = async (metrics: number) => {
        const text = await (await fetch(`http://127.0.0.1:${metrics}/metrics`)).text();
        return Number(/^calendar_reminders_recorded_total\{outcome="fired"\} (\S+)$/m.exec(text)?.[1] ?? 0);
      };
      const byWorker = await Promise.all(workers.map(fired));
      expect(byWorker[0] + byWorker[1]).toBe(methods.length + 1);
    }, 300_000);
  });
});
