/**
 * What the webhook and automation benches share: a receiver on 127.0.0.1 that notes when each request arrived,
 * events appended straight to the event store (so the figures are the pipeline's: relay -> bus -> consumer ->
 * durable documents -> worker -> HTTP), and the two measures: a burst's throughput and open-loop latency.
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
import { eventBody, json, percentile, sleep, tempDir } from './util';

/** Arrival time (performance.now()) of each delivery, by receiver path and event id. */
export class Receiver {
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

/** The fields of the n-th copy: its own 30-minute slot in 2035 by default. */
const benchSlot = (slot: number) => {
  const body = eventBody(Date.UTC(2035, 0, 1), slot, 'Bench');
  return { title: body.title, startsAt: body.startsAt, endsAt: body.endsAt };
};

/**
 * Records one event.created of `user` through the API and answers a function that appends a copy of it as a new
 * event straight to the event store (with `fields(n)` for the n-th copy), resolving with the new event's id once committed.
 */
export async function eventCloner(
  service: Service, base: string, auth: Record<string, string>, fields: (slot: number) => Record<string, unknown> = benchSlot,
): Promise<() => Promise<string>> {
  const created = await json(`${base}/events`, 'POST', eventBody(Date.UTC(2035, 0, 1), -1, 'Template'), auth);
  if (created.status !== 201) throw new Error(`creating the template event: ${created.status}`);
  const position = Number(created.headers.get('x-calendar-position'));
  const [template] = await service.context.events.readAll(position - 1, 1);
  let slot = 0;
  return async (): Promise<string> => {
    const id = randomUUID();
    const now = new Date().toISOString();
    const data = { ...(template.data as object), id: randomUUID(), ...fields(slot++), createdAt: now, updatedAt: now };
    const metadata: RecordedEvent['metadata'] = { ...template.metadata, occurredAt: now };
    await service.context.events.append(template.streamId, [{ id, type: 'event.created', data, metadata }], 'any');
    return id;
  };
}

export interface PipelineFigures {
  /** From the first append of the burst to the last arrival it caused. */
  seconds: number;
  latency: Percentiles & { samples: number };
}

/**
 * Throughput: `events` appended by `burst` (8 in flight) until `perEvent` requests each have arrived. Latency: one
 * `probe` every `intervalMs`, from its commit to the arrival of `probeKey(eventId)`.
 */
export async function measurePipeline(receiver: Receiver, o: {
  burst: () => Promise<string>; events: number; perEvent: number;
  probe: () => Promise<string>; probes: number; intervalMs: number; probeKey: (eventId: string) => string;
}): Promise<PipelineFigures> {
  const before = receiver.arrivals.size;
  const t0 = performance.now();
  let next = 0;
  await Promise.all(Array.from({ length: 8 }, async () => {
    while (next++ < o.events) await o.burst();
  }));
  const expected = before + o.events * o.perEvent;
  if (!(await receiver.until(expected, 300_000))) throw new Error(`only ${receiver.arrivals.size - before} of ${o.events * o.perEvent} requests arrived`);
  const seconds = (Math.max(...receiver.arrivals.values()) - t0) / 1000;

  const committed = new Map<string, number>();
  const pending: Array<Promise<void>> = [];
  const started = performance.now();
  for (let i = 0; i < o.probes; i++) {
    const wait = started + i * o.intervalMs - performance.now();
    if (wait >= 1) await sleep(wait);
    pending.push(o.probe().then((id) => void committed.set(id, performance.now())));
  }
  await Promise.all(pending);
  await receiver.until(expected + o.probes, 60_000);
  const latencies = [...committed].flatMap(([id, at]) => {
    const arrived = receiver.arrivals.get(o.probeKey(id));
    return arrived === undefined ? [] : [arrived - at];
  });
  return {
    seconds,
    latency: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies), samples: latencies.length },
  };
}

/** The service in this process (embedded, fresh data, receivers on 127.0.0.1 allowed) and a receiver, around `run`. */
export async function withPipeline<T>(name: string, run: (service: Service, base: string, receiver: Receiver) => Promise<T>): Promise<T> {
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: tempDir(name), LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '1024',
    WEBHOOK_ALLOW_PRIVATE_URLS: 'true', ...BENCH_SERVICE_ENV,
  });
  const receiver = new Receiver();
  await receiver.start();
  const service = await startService(config, pino({ level: 'silent' }));
  try {
    return await run(service, `${service.url}/api/v1`, receiver);
  } finally {
    await service.stop();
    await receiver.stop();
  }
}
