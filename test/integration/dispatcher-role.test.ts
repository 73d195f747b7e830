/**
 * ROLE=dispatcher and ROLE=automations as their own processes, beside api, projector and relay processes on Kafka
 * and a MongoDB-wire server: a change made through the api reaches a webhook receiver through the relay and the
 * dispatcher, and starts an automation whose run (a notification, a signed call) the automations process carries.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyWebhookSignature } from '../../contracts/webhook-signature';
import { requireBuild, MAIN } from '../support/service-child';
import { describeOnEngine } from '../support/engines';
import { startReceiver, until, type Receiver } from '../support/receiver';
import { request } from '../support/service';
import { freePort } from '../bench/util';

describeOnEngine('mongo', 'the dispatcher and automations roles', (mongoUrl) => {
  describeOnEngine('kafka', 'with Kafka', (brokers) => {
    const children: ChildProcess[] = [];
    let receiver: Receiver | null = null;
    let base = '';
    let auth: Record<string, string> = {};

    beforeAll(async () => {
      requireBuild();
      receiver = await startReceiver();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'dispatcher-'));
      const tag = path.basename(dataDir).replace(/\W/g, '_');
      const port = await freePort();
      const env = {
        ...process.env, DATA_DIR: dataDir, MONGO_URL: mongoUrl(), MONGO_DB: `dispatcher_${tag}`, KAFKA_BROKERS: brokers(),
        KAFKA_TOPIC: `dispatcher.${tag}`, LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '1024', HOST: '127.0.0.1',
        PORT: String(port), WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      };
      for (const role of ['projector', 'relay', 'dispatcher', 'automations', 'api']) {
        children.push(spawn(process.execPath, [MAIN], { env: { ...env, ROLE: role }, stdio: 'ignore' }));
      }
      base = `http://127.0.0.1:${port}/api/v1`;
      await until(() => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false), 30_000, 'api up');
      const signup = await request(base, 'POST', '/auth/signup', { email: `${tag}@example.com`, password: 'long enough', name: 'D' });
      expect(signup.status).toBe(201);
      auth = { authorization: `Bearer ${signup.body.session.token}` };
    }, 60_000);

    afterAll(async () => {
      for (const c of children) c.kill('SIGTERM');
      await receiver?.close();
    });

    it('delivers a change made through the api process to a webhook, signed', async () => {
      const hook = await request(base, 'POST', '/webhooks', { name: 'r', url: receiver!.url('/roles'), events: ['event.created'] }, auth);
      expect(hook.status).toBe(201);
      const created = await request(base, 'POST', '/events', { title: 'across roles', startsAt: '2026-12-01T09:00:00Z', endsAt: '2026-12-01T10:00:00Z' }, auth);
      expect(created.status).toBe(201);

      await until(() => receiver!.received('/roles').length > 0, 60_000, 'delivery from the dispatcher process');
      const [got] = receiver!.received('/roles');
      expect(got.json).toMatchObject({ type: 'event.created', data: { id: created.body.event.id, title: 'across roles' } });
      expect(verifyWebhookSignature({
        secret: hook.body.secret, timestamp: got.headers['x-calendar-timestamp'], signature: got.headers['x-calendar-signature'], body: got.body,
      })).toBe(true);
    }, 90_000);

    it('runs an automation in the automations process: a completed task notifies and calls a receiver, signed', async () => {
      const automation = await request(base, 'POST', '/automations', {
        name: 'across roles', enabled: true, trigger: { type: 'task.completed' },
        actions: [{ kind: 'send_notification', config: { title: 'Done: {{data.title}}' } }, { kind: 'call_webhook', config: { url: receiver!.url('/automation-role') } }],
      }, auth);
      expect(automation.status).toBe(201);
      const task = await request(base, 'POST', '/tasks', { title: 'Ship' }, auth);
      expect((await request(base, 'PATCH', `/tasks/${task.body.task.id}`, { status: 'done' }, auth)).status).toBe(200);

      await until(() => receiver!.received('/automation-role').length > 0, 60_000, 'the call from the automations process');
      const [got] = receiver!.received('/automation-role');
      expect(verifyWebhookSignature({
        secret: automation.body.secret, timestamp: got.headers['x-calendar-timestamp'], signature: got.headers['x-calendar-signature'], body: got.body,
      })).toBe(true);
      await until(async () => (await request(base, 'GET', `/automations/${automation.body.automation.id}/runs`, undefined, auth)).body.runs[0]?.status === 'succeeded', 30_000, 'the run recorded');
      // The projector process makes the notification visible to the api process a moment later.
      const titles = async () => (await request(base, 'GET', '/notifications', undefined, auth)).body.notifications.map((n: { title: string }) => n.title);
      await until(async () => (await titles()).length > 0, 30_000, 'the notification');
      expect(await titles()).toEqual(['Done: Ship']);
    }, 90_000);
  });
});
