/**
 * Webhook delivery, embedded mode, service in process, receiver on 127.0.0.1 in process (answers 200 at once).
 * Events are appended straight to the event store (as the lag bench does), so the figures are the pipeline's:
 * relay -> bus -> dispatcher -> delivery documents -> worker -> HTTP.
 *
 *   throughput: a burst of events to a user with several webhooks; deliveries/s from the first append to the last
 *               delivery received
 *   latency:    one event every few ms to a user with one webhook; append committed -> delivery received
 */
import { randomUUID } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { startService, type Service } from '../../services/composition';
import { loadConfig } from '../../services/config';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { BENCH_SERVICE_ENV } from './children';
import type { Percentiles } from './lag-bench';
import { eventBody, json, percentile, sleep, signUp, tempDir } from './util';

export interface WebhookBenchResult {
  events: number;
  webhooks: number;
  deliveries: number;
  seconds: number;
  deliveriesPerSec: number;
  latency: Percentiles & { samples: number };
}

/** Arrival time (performance.now()) of each delivery, by receiver path and event id. */
class Receiver {
  readonly arrivals = new Map<string, number>();
  private waiters: Array<{ count: number; resolve: () => void }> = [];
  private server: Server | null = null;
  url = '';

  async start(): Promise<void> {
    this.server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const at = performance.now();
        const { id } = JSON.parse(Buffer.concat(chunks).toString()) as { id: string };
        res.writeHead(200).end();
        const key = `${req.url}|${id}`;
        if (!this.arrivals.has(key)) this.arrivals.set(key, at);
        this.waiters = this.waiters.filter((w) => (this.arrivals.size >= w.count ? (w.resolve(), false) : true));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}`;
  }

  until(count: number, timeoutMs: number): Promise<boolean> {
    if (this.arrivals.size >= count) return Promise.resolve(true);
    return Promise.race([
      new Promise<boolean>((resolve) => this.waiters.push({ count, resolve: () => resolve(true) })),
      sleep(timeoutMs).then(() => false),
    ]);
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}

/** A user with `webhooks` webhooks to the receiver and a recorded event.created to clone. */
async function subscriber(service: Service, base: string, receiver: Receiver, name: string, webhooks: number) {
  const user = await signUp(base);
  const auth = { authorization: `Bearer ${user.token}` };
  for (let i = 0; i < webhooks; i++) {
    const res = await json(`${base}/webhooks`, 'POST', { name: `${name}-${i}`, url: `${receiver.url}/${name}/${i}`, events: ['event.created'] }, auth);
    if (res.status !== 201) throw new Error(`creating a webhook: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const created = await json(`${base}/events`, 'POST', eventBody(Date.UTC(2035, 0, 1), -1, 'Webhook template'), auth);
  if (created.status !== 201) throw new Error(`creating the template event: ${created.status}`);
  const position = Number(created.headers.get('x-calendar-position'));
  const [template] = await service.context.events.readAll(position - 1, 1);
  let slot = 0;
  /** Appends a copy of the template as a new event; resolves with its id once committed. */
  return async (): Promise<string> => {
    const id = randomUUID();
    const body = eventBody(Date.UTC(2035, 0, 1), slot++, 'Webhook bench');
    const now = new Date().toISOString();
    const data = { ...(template.data as object), id: randomUUID(), title: body.title, startsAt: body.startsAt, endsAt: body.endsAt, createdAt: now, updatedAt: now };
    const metadata: RecordedEvent['metadata'] = { ...template.metadata, occurredAt: now };
    await service.context.events.append(template.streamId, [{ id, type: 'event.created', data, metadata }], 'any');
    return id;
  };
}

export async function webhookBench(events: number, webhooks: number, probes: number, intervalMs: number): Promise<WebhookBenchResult> {
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: tempDir('webhooks'), LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '1024',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true', ...BENCH_SERVICE_ENV,
  });
  const receiver = new Receiver();
  await receiver.start();
  const service = await startService(config, pino({ level: 'silent' }));
  try {
    const base = `${service.url}/api/v1`;
    const burst = await subscriber(service, base, receiver, 'burst', webhooks);
    const probe = await subscriber(service, base, receiver, 'probe', 1);
    await receiver.until(webhooks + 1, 30_000); // the two template events

    // Throughput: append concurrently (8 in flight), wait for every delivery.
    const before = receiver.arrivals.size;
    const t0 = performance.now();
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next++ < events) await burst();
    }));
    const all = await receiver.until(before + events * webhooks, 300_000);
    if (!all) throw new Error(`only ${receiver.arrivals.size - before} of ${events * webhooks} deliveries arrived`);
    const lastArrival = Math.max(...[...receiver.arrivals.values()]);
    const seconds = (lastArrival - t0) / 1000;

    // Latency: open loop, one event every intervalMs.
    const committed = new Map<string, number>();
    const pending: Array<Promise<void>> = [];
    const started = performance.now();
    for (let i = 0; i < probes; i++) {
      const wait = started + i * intervalMs - performance.now();
      if (wait >= 1) await sleep(wait);
      pending.push(probe().then((id) => void committed.set(id, performance.now())));
    }
    await Promise.all(pending);
    await receiver.until(before + events * webhooks + probes, 60_000);
    const latencies = [...committed].flatMap(([id, at]) => {
      const arrived = receiver.arrivals.get(`/probe/0|${id}`);
      return arrived === undefined ? [] : [arrived - at];
    });
    return {
      events,
      webhooks,
      deliveries: events * webhooks,
      seconds,
      deliveriesPerSec: (events * webhooks) / seconds,
      latency: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies), samples: latencies.length },
    };
  } finally {
    await service.stop();
    await receiver.stop();
  }
}
