/**
 * The roles as separate processes (api, projector, relay) on Kafka and a MongoDB-wire server, sharing one event log:
 * a write made through the api is projected by the projector (the api then reads it back) and relayed into Kafka;
 * the projector and the relay serve the metrics of their own work, and their readiness, on METRICS_PORT.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { openKafkaBus } from '../../services/bus/kafka-bus';
import type { Bus } from '../../services/bus/bus.port';
import { describeOnEngine } from '../support/engines';
import { freePort } from '../bench/util';
import { request } from '../support/service';

const MAIN = path.resolve(__dirname, '../../dist/services/main.js');

describeOnEngine('mongo', 'roles as separate processes', (mongoUrl) => {
  describeOnEngine('kafka', 'with Kafka', (brokers) => {
    const children: ChildProcess[] = [];
    let bus: Bus | null = null;
    afterAll(async () => {
      for (const c of children) c.kill('SIGTERM');
      await bus?.close();
    });

    it('carries a write from the api through the projector back to reads, and through the relay into Kafka', async () => {
      if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first (npm test does)`);
      const dataDir = mkdtempSync(path.join(tmpdir(), 'roles-'));
      const tag = path.basename(dataDir).replace(/\W/g, '_');
      const topic = `roles.${tag}`;
      const port = await freePort();
      const env = {
        ...process.env, DATA_DIR: dataDir, MONGO_URL: mongoUrl(), MONGO_DB: `roles_${tag}`, KAFKA_BROKERS: brokers(),
        KAFKA_TOPIC: topic, LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '1024', HOST: '127.0.0.1', PORT: String(port),
      };
      const metricsPorts = { projector: await freePort(), relay: await freePort() };
      for (const role of ['projector', 'relay', 'api'] as const) {
        const metricsPort = role === 'api' ? {} : { METRICS_PORT: String(metricsPorts[role]) };
        children.push(spawn(process.execPath, [MAIN], { env: { ...env, ROLE: role, ...metricsPort }, stdio: 'ignore' }));
      }
      const base = `http://127.0.0.1:${port}/api/v1`;
      for (let i = 0; ; i++) {
        const up = await fetch(`http://127.0.0.1:${port}/healthz`).then((r) => r.ok, () => false);
        if (up) break;
        if (i > 300) throw new Error('api did not start');
        await new Promise((r) => setTimeout(r, 50));
      }

      // The bus carries events as stored: their data is sealed, their metadata in clear.
      const seen: Array<{ id: string; type: string; metadata: { userId: string | null } }> = [];
      bus = await openKafkaBus(brokers().split(','), { clientId: `roles-${tag}` });
      await bus.subscribe(`roles-test-${tag}`, topic, async (m) => void seen.push(JSON.parse(m.value)), { fromBeginning: true });

      const signup = await request(base, 'POST', '/auth/signup', { email: `${tag}@example.com`, password: 'long enough', name: 'R' });
      expect(signup.status).toBe(201);
      const auth = { authorization: `Bearer ${signup.body.session.token}` };
      const created = await request(base, 'POST', '/events', { title: 'travels', startsAt: '2026-12-01T09:00:00Z', endsAt: '2026-12-01T10:00:00Z' }, auth);
      expect(created.status).toBe(201);
      const id = created.body.event.id as string;

      // Read back through the projector's work (the api process has no projector of its own).
      const read = await request(base, 'GET', `/events/${id}`, undefined, { ...auth, 'X-Calendar-Min-Position': created.headers.get('x-calendar-position')! });
      expect(read.status).toBe(200);
      expect(read.body.event.title).toBe('travels');

      for (let i = 0; !seen.some((e) => e.type === 'event.created' && e.metadata.userId === signup.body.user.id); i++) {
        if (i > 300) throw new Error('event.created never reached Kafka');
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(seen.map((e) => e.type)).toEqual(expect.arrayContaining(['user.registered', 'space.created', 'event.created']));

      // Each role exports its own work: the projector its projections, the relay its checkpoint and the bus.
      const position = Number(created.headers.get('x-calendar-position'));
      const sample = (text: string, series: string) => Number(new RegExp(`^${series} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
      const scrape = (role: keyof typeof metricsPorts) => fetch(`http://127.0.0.1:${metricsPorts[role]}/metrics`).then((r) => r.text());
      const projector = await scrape('projector');
      expect(sample(projector, 'calendar_projection_events_applied_total\\{projection="schedule"\\}')).toBeGreaterThan(0);
      expect(sample(projector, 'calendar_projection_position\\{projection="schedule"\\}')).toBeGreaterThanOrEqual(position);
      expect(projector).not.toMatch(/^calendar_relay_position /m);
      expect(projector).not.toMatch(/^calendar_http_request_duration_seconds_count/m);
      for (let i = 0; sample(await scrape('relay'), 'calendar_relay_position') < position; i++) {
        if (i > 300) throw new Error('the relay never reported the write');
        await new Promise((r) => setTimeout(r, 50));
      }
      const relay = await scrape('relay');
      expect(sample(relay, 'calendar_bus_published_messages_total')).toBeGreaterThan(0);
      expect(relay).not.toMatch(/^calendar_projection_position/m);
      const ready = await request(`http://127.0.0.1:${metricsPorts.relay}`, 'GET', '/readyz');
      expect(ready.status).toBe(200);
      expect(ready.body).toMatchObject({ status: 'ready', stores: { 'event store': 'ok', 'read store': 'ok', bus: 'ok' }, roles: { relay: 'ok' } });
      expect(Object.keys(ready.body.roles)).toEqual(['relay']);
    }, 60_000);
  });
});
