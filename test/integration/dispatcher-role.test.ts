/**
 * ROLE=dispatcher as its own process, beside api, projector and relay processes on Kafka and a MongoDB-wire server:
 * a change made through the api reaches a webhook receiver through the relay and the dispatcher.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { verifyWebhookSignature } from '../../contracts/webhook-signature';
import { describeOnEngine } from '../support/engines';
import { startReceiver, until, type Receiver } from '../support/receiver';
import { request } from '../support/service';
import { freePort } from '../bench/util';

const MAIN = path.resolve(__dirname, '../../dist/services/main.js');

describeOnEngine('mongo', 'the dispatcher role', (mongoUrl) => {
  describeOnEngine('kafka', 'with Kafka', (brokers) => {
    const children: ChildProcess[] = [];
    let receiver: Receiver | null = null;
    afterAll(async () => {
      for (const c of children) c.kill('SIGTERM');
      await receiver?.close();
    });

    it('delivers a change made through the api process to a webhook, signed', async () => {
      if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first (npm test does)`);
      receiver = await startReceiver();
      const dataDir = mkdtempSync(path.join(tmpdir(), 'dispatcher-'));
      const tag = path.basename(dataDir).replace(/\W/g, '_');
      const port = await freePort();
      const env = {
        ...process.env, DATA_DIR: dataDir, MONGO_URL: mongoUrl(), MONGO_DB: `dispatcher_${tag}`, KAFKA_BROKERS: brokers(),
        KAFKA_TOPIC: `dispatcher.${tag}`, LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '1024', HOST: '127.0.0.1',
        PORT: String(port), WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      };
      for (const role of ['projector', 'relay', 'dispatcher', 'api']) {
        children.push(spawn(process.execPath, [MAIN], { env: { ...env, ROLE: role }, stdio: 'ignore' }));
      }
      const base = `http://127.0.0.1:${port}/api/v1`;
      await until(() => fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false), 30_000, 'api up');

      const signup = await request(base, 'POST', '/auth/signup', { email: `${tag}@example.com`, password: 'long enough', name: 'D' });
      expect(signup.status).toBe(201);
      const auth = { authorization: `Bearer ${signup.body.session.token}` };
      const hook = await request(base, 'POST', '/webhooks', { name: 'r', url: receiver.url('/roles'), events: ['event.created'] }, auth);
      expect(hook.status).toBe(201);
      const created = await request(base, 'POST', '/events', { title: 'across roles', startsAt: '2026-12-01T09:00:00Z', endsAt: '2026-12-01T10:00:00Z' }, auth);
      expect(created.status).toBe(201);

      await until(() => receiver!.received('/roles').length > 0, 60_000, 'delivery from the dispatcher process');
      const [got] = receiver.received('/roles');
      expect(got.json).toMatchObject({ type: 'event.created', data: { id: created.body.event.id, title: 'across roles' } });
      expect(verifyWebhookSignature({
        secret: hook.body.secret, timestamp: got.headers['x-calendar-timestamp'], signature: got.headers['x-calendar-signature'], body: got.body,
      })).toBe(true);
    }, 90_000);
  });
});
