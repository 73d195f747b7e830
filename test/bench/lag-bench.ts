/**
 * Projection lag in embedded mode: the service runs in this process (startService); probes append an
 * `event.created` straight to the event store and time how long until every projection announced its position
 * (watermarks.waitFor). Once at a steady rate with nothing else going on, once while a child process drives
 * POST /events against the same service.
 */
import { randomUUID } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { startService, type Service } from '../../services/composition';
import { loadConfig } from '../../services/config';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import type { Watermarks } from '../../projections/watermarks';
import { BENCH_SERVICE_ENV, forkLoadChild } from './children';
import type { LoadResult, LoadSpec } from './http-load';
import { eventBody, json, percentile, sleep, signUp, tempDir } from './util';

export interface Percentiles {
  p50: number;
  p99: number;
  max: number;
}

export interface LagResult {
  label: string;
  samples: number;
  /** Probes per second actually achieved. */
  rate: number;
  /** append committed (its promise resolved) -> watermarks.waitFor resolved: what a waiting reader sees (ms). */
  visible: Percentiles;
  /** append committed -> the last projection announced the position (the runner applied it everywhere) (ms). */
  applied: Percentiles;
  /** append called (includes group commit + fsync) -> waitFor resolved (ms). */
  e2e: Percentiles;
  /** Probes whose waitFor resolved over 100 ms after every projection had applied them (missed wake-up). */
  stalls: number;
  /** waitFor answered false (not visible within its timeout). */
  timeouts: number;
  /** The background load, when there was one. */
  load?: LoadResult;
}

const WAIT_MS = 5000;
const ISOLATED = 20;
const ISOLATED_WAIT_MS = 250;

const stats = (xs: number[]): Percentiles => ({ p50: percentile(xs, 50), p99: percentile(xs, 99), max: Math.max(...xs) });

/**
 * Records when every projection has announced a position, by wrapping this Watermarks instance's announce():
 * the moment of applying, independent of how waitFor wakes its callers.
 */
class AppliedTracker {
  private readonly positions = new Map<string, number>();
  private waiting: Array<{ position: number; resolve: (at: number) => void }> = [];

  constructor(private readonly watermarks: Watermarks, private readonly names: readonly string[]) {}

  async install(): Promise<void> {
    for (const name of this.names) this.positions.set(name, await this.watermarks.position(name));
    const original = this.watermarks.announce.bind(this.watermarks);
    this.watermarks.announce = (name: string, position: number) => {
      original(name, position);
      this.positions.set(name, position);
      const low = this.low();
      if (this.waiting.length === 0) return;
      const now = performance.now();
      this.waiting = this.waiting.filter((w) => (w.position <= low ? (w.resolve(now), false) : true));
    };
  }

  private low(): number {
    return Math.min(...this.names.map((n) => this.positions.get(n) ?? 0));
  }

  /** Resolves with the performance.now() at which every projection had reached `position`. */
  at(position: number): Promise<number> {
    if (this.low() >= position) return Promise.resolve(performance.now());
    return new Promise((resolve) => this.waiting.push({ position, resolve }));
  }
}

interface Sample {
  visible: number;
  applied: number;
  e2e: number;
  ok: boolean;
}

class Prober {
  private slot = 0;

  constructor(
    private readonly service: Service,
    private readonly template: RecordedEvent,
    private readonly tracker: AppliedTracker,
  ) {}

  /** One probe: append a new event to the probe user's Space stream, then wait until it is projected. */
  async probe(waitMs = WAIT_MS): Promise<Sample> {
    const { events, watermarks, projectionNames } = this.service.context;
    const body = eventBody(Date.UTC(2033, 0, 1), this.slot++, 'Lag probe');
    const now = new Date().toISOString();
    const data = { ...(this.template.data as Record<string, unknown>), id: randomUUID(), title: body.title,
      startsAt: body.startsAt, endsAt: body.endsAt, createdAt: now, updatedAt: now };
    const metadata = { ...this.template.metadata, correlationId: randomUUID(), causationId: randomUUID(), occurredAt: now };
    const t0 = performance.now();
    const { position } = await events.append(this.template.streamId, [{ id: randomUUID(), type: this.template.type, data, metadata }], 'any');
    const t1 = performance.now();
    const applied = this.tracker.at(position);
    const ok = await watermarks.waitFor(projectionNames, position, waitMs);
    const t2 = performance.now();
    return { visible: t2 - t1, applied: (await applied) - t1, e2e: t2 - t0, ok };
  }

  /** `count` probes started every `intervalMs` (open loop: a slow probe does not delay the next one). */
  async run(label: string, count: number, intervalMs: number): Promise<LagResult> {
    const started = performance.now();
    const pending: Array<Promise<Sample>> = [];
    for (let i = 0; i < count; i++) {
      const wait = started + i * intervalMs - performance.now();
      if (wait >= 1) await sleep(wait);
      pending.push(this.probe());
    }
    const elapsed = (performance.now() - started) / 1000;
    return summarise(label, await Promise.all(pending), elapsed);
  }

  /** Probes one at a time, each waiting for the previous: nothing else happens in the log meanwhile. */
  async isolated(label: string, count: number, waitMs: number): Promise<LagResult> {
    const started = performance.now();
    const samples: Sample[] = [];
    for (let i = 0; i < count; i++) samples.push(await this.probe(waitMs));
    return summarise(label, samples, (performance.now() - started) / 1000);
  }
}

function summarise(label: string, samples: Sample[], elapsed: number): LagResult {
  return {
    label,
    samples: samples.length,
    rate: samples.length / elapsed,
    visible: stats(samples.map((s) => s.visible)),
    applied: stats(samples.map((s) => s.applied)),
    e2e: stats(samples.map((s) => s.e2e)),
    stalls: samples.filter((s) => s.visible - s.applied > 100).length,
    timeouts: samples.filter((s) => !s.ok).length,
  };
}

function runLoadInChild(label: string, spec: LoadSpec): Promise<LoadResult> {
  const child = forkLoadChild();
  return new Promise((resolve, reject) => {
    child.once('message', (m: { result?: LoadResult; error?: string }) => (m.result ? resolve(m.result) : reject(new Error(m.error))));
    child.once('exit', (code) => reject(new Error(`load child exited (${code}) without a result`)));
    child.send({ label, spec });
  });
}

export async function lagBench(samples: number, intervalMs: number, loadSeconds: number): Promise<LagResult[]> {
  const config = loadConfig({
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: tempDir('lag'),
    LOG_LEVEL: 'silent',
    PASSWORD_HASH_COST: '1024',
    ...BENCH_SERVICE_ENV,
  });
  const service = await startService(config, pino({ level: 'silent' }));
  try {
    const base = `${service.url}/api/v1`;
    const prober = await makeProber(service, base);
    // Warm the path up (JIT, caches) before measuring.
    await prober.run('warmup', 200, 1);

    const results: LagResult[] = [await prober.run(`steady, 1 probe / ${intervalMs} ms`, samples, intervalMs)];
    results.push(await prober.isolated(`isolated, ${ISOLATED} probes one at a time (waitFor timeout ${ISOLATED_WAIT_MS} ms)`, ISOLATED, ISOLATED_WAIT_MS));

    if (loadSeconds > 0) {
      const user = await signUp(base);
      const load = runLoadInChild('POST /events (load for the lag probe)', {
        kind: 'post-events', url: service.url!, seconds: loadSeconds, tokens: [user.token], baseMs: Date.UTC(2034, 0, 1),
      });
      load.catch(() => undefined);
      const warm = Math.min(1000, (loadSeconds * 1000) / 5);
      await sleep(warm);
      // Spread the samples over the rest of the load, leaving half a second at its end.
      const interval = Math.max(intervalMs, Math.floor((loadSeconds * 1000 - warm - 500) / samples));
      const underLoad = await prober.run(`under POST load, 1 probe / ${interval} ms`, samples, interval);
      underLoad.load = await load;
      results.push(underLoad);
    }
    return results;
  } finally {
    await service.stop();
  }
}

/** Signs a probe user up and creates one event through the API, whose recorded form is the probes' template. */
async function makeProber(service: Service, base: string): Promise<Prober> {
  const user = await signUp(base);
  const res = await json(`${base}/events`, 'POST', eventBody(Date.UTC(2033, 0, 1), -1, 'Lag template'), {
    authorization: `Bearer ${user.token}`,
  });
  if (res.status !== 201) throw new Error(`creating the template event failed: ${res.status} ${JSON.stringify(res.body)}`);
  const position = Number(res.headers.get('x-calendar-position'));
  const [template] = await service.context.events.readAll(position - 1, 1);
  if (template?.type !== 'event.created' || template.position !== position) {
    throw new Error(`no event.created at position ${position}`);
  }
  const tracker = new AppliedTracker(service.context.watermarks, service.context.projectionNames);
  await tracker.install();
  return new Prober(service, template, tracker);
}
