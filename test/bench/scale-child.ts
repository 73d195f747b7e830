/**
 * The loading process of the scale bench (forked with DATA_DIR set): starts the service in this process on a data
 * directory whose log was seeded, waits until every projection, the relay and the bus's consumer groups have taken
 * in the whole log, reports its memory and timings over IPC, and stops when told to.
 */
import { performance } from 'node:perf_hooks';
import pino from 'pino';
import { startService } from '../../services/composition';
import { loadConfig } from '../../services/config';
import { boundHeapGrowth } from '../../services/heap-growth';
import { busBacklog } from './scale-probe';
import { sleep } from './util';

export interface LoadReport {
  head: number;
  /** From start until every projection applied the head (the rebuild of all read models). */
  projectSeconds: number;
  /** Until the relay published the head and every bus group consumed it. */
  drainSeconds: number;
  rssBytes: number;
  heapUsedBytes: number;
}

async function main(): Promise<void> {
  const config = loadConfig();
  boundHeapGrowth(config.HEAP_GROWING_PERCENT); // as services/main.ts does
  const t0 = performance.now();
  const service = await startService({ ...config, PORT: 0, HOST: '127.0.0.1' }, pino({ level: 'silent' }));
  const head = await service.context.events.headPosition();
  const projected = async () => (await service.runner!.status()).every((s) => s.building === null && (s.activePosition ?? 0) >= head);
  while (!(await projected())) await sleep(100);
  const projectSeconds = (performance.now() - t0) / 1000;
  while ((service.relay?.position ?? 0) < head || busBacklog(config.DATA_DIR) > 0) await sleep(100);
  const drainSeconds = (performance.now() - t0) / 1000;
  const memory = process.memoryUsage();
  const report: LoadReport = { head, projectSeconds, drainSeconds, rssBytes: memory.rss, heapUsedBytes: memory.heapUsed };
  process.send!(report);
  process.once('message', () => {
    void service.stop().then(() => process.exit(0));
  });
}

main().catch((err: unknown) => {
  console.error('scale child failed:', err instanceof Error ? err.stack : err);
  process.exit(1);
});
