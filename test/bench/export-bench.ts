/**
 * Export rate on the embedded store: a log of N events (~0.8 kB each, 1,000 streams), appended straight to the
 * store (not over HTTP), then read by the built CLI as a child process: `events export` to NDJSON and to Parquet,
 * and `events sql` (load into DuckDB plus one count). Wall times include the CLI's start.
 * Standalone: `node dist/test/bench/export-bench.js [events]` (default 1,000,000).
 */
import { execFile } from 'node:child_process';
import { statSync } from 'node:fs';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { promisify } from 'node:util';
import { historyStore } from '../../services/eventstore/decoding-event-store';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import { sampleEvent } from './store-bench';
import { fmt, removeTempDirs, tempDir } from './util';

const CLI = path.resolve(__dirname, '../../services/cli/program.js');
const STREAMS = 1000;
const PER_APPEND = 500;
const IN_FLIGHT = 4;

export interface ExportRun {
  label: string;
  seconds: number;
  eventsPerSec: number;
  bytes: number | null;
}

export interface ExportResult {
  events: number;
  seedSeconds: number;
  runs: ExportRun[];
}

/** Sealed as the service seals them, with the users' keys in the read-model store, where the CLI looks for them. */
async function seed(dataDir: string, events: number): Promise<void> {
  const keys = await openEmbeddedReadStore(path.join(dataDir, 'read-models.sqlite'));
  const store = historyStore(await openSqliteEventStore(path.join(dataDir, 'events.sqlite')), keys).events;
  try {
    let next = 0;
    const writer = async () => {
      while (next < events) {
        const start = next;
        next = Math.min(events, next + PER_APPEND);
        const batch = Array.from({ length: next - start }, (_, i) => sampleEvent(start + i));
        await store.append(`bench-${start % STREAMS}`, batch, 'any');
      }
    };
    await Promise.all(Array.from({ length: IN_FLIGHT }, writer));
  } finally {
    await store.close();
    await keys.close();
  }
}

const run = promisify(execFile);

async function timed(label: string, events: number, dataDir: string, args: string[], out?: string): Promise<ExportRun> {
  const t0 = performance.now();
  const { stdout } = await run(process.execPath, [CLI, '--no-progress', ...args], {
    env: { ...process.env, DATA_DIR: dataDir },
    maxBuffer: 16 * 1024 * 1024,
  });
  const seconds = (performance.now() - t0) / 1000;
  if (!out && !stdout.includes(String(events))) throw new Error(`${label}: unexpected output ${stdout.slice(0, 300)}`);
  return { label, seconds, eventsPerSec: events / seconds, bytes: out ? statSync(out).size : null };
}

export async function exportBench(events: number): Promise<ExportResult> {
  const dataDir = tempDir('export');
  const t0 = performance.now();
  await seed(dataDir, events);
  const seedSeconds = (performance.now() - t0) / 1000;
  const ndjson = path.join(dataDir, 'log.ndjson');
  const parquet = path.join(dataDir, 'log.parquet');
  return {
    events,
    seedSeconds,
    runs: [
      await timed('events export, NDJSON to a file', events, dataDir, ['events', 'export', '--out', ndjson], ndjson),
      await timed('events export --format parquet', events, dataDir, ['events', 'export', '--format', 'parquet', '--out', parquet], parquet),
      await timed('events sql (load + count)', events, dataDir, ['events', 'sql', '--csv', 'SELECT count(*) AS n FROM events']),
    ],
  };
}

export function printExport(result: ExportResult, log: (line: string) => void): void {
  log(`  seeded ${fmt(result.events, 0)} events straight into the store in ${fmt(result.seedSeconds, 1)} s`);
  for (const r of result.runs) {
    const size = r.bytes === null ? '' : `, ${fmt(r.bytes / 1024 / 1024, 0)} MB`;
    log(`  ${r.label.padEnd(36)} ${fmt(r.seconds, 1).padStart(6)} s  ${fmt(r.eventsPerSec, 0).padStart(9)} events/s${size}`);
  }
}

if (require.main === module) {
  const events = Number(process.argv[2] ?? 1_000_000);
  exportBench(events)
    .then((result) => printExport(result, (line) => process.stdout.write(`${line}\n`)))
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    })
    .finally(removeTempDirs);
}
