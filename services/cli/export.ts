/**
 * `events export`: the events a filter keeps, in log order, as NDJSON (one recorded event per line, the shape a
 * replay reads back) or as Parquet (one typed row per event, the columns of `events sql`).
 */
import { renameSync, rmSync } from 'node:fs';
import type { EventStore } from '../eventstore/event-store.port';
import { CliError, UsageError } from './context';
import { duckMessage, sqlString, withDuck } from './duck';
import { writeNdjson, type EventFilter } from './log-pages';
import { fileSink, partialName, stdoutSink } from './output';

export type ExportFormat = 'ndjson' | 'parquet';

export interface ExportOptions {
  format: ExportFormat;
  /** A file; NDJSON goes to stdout without one. */
  out?: string;
  progress: boolean;
  memoryLimit: string;
}

export interface ExportSummary {
  events: number;
  format: ExportFormat;
  out: string | null;
  firstPosition: number | null;
  lastPosition: number | null;
}

async function exportNdjson(events: EventStore, filter: EventFilter, options: ExportOptions): Promise<ExportSummary> {
  const sink = options.out ? fileSink(options.out) : stdoutSink();
  const written = await writeNdjson(events, filter, sink, { progress: options.progress, label: 'export' });
  return { ...written, format: 'ndjson', out: options.out ?? null };
}

async function exportParquet(events: EventStore, filter: EventFilter, options: ExportOptions & { out: string }): Promise<ExportSummary> {
  const partial = partialName(options.out);
  return withDuck(options.memoryLimit, options.progress, async (duck) => {
    const staged = await duck.stage(events, filter, { progress: options.progress, label: 'read log' });
    try {
      await duck.run(`COPY (${staged.relation}) TO ${sqlString(partial)} (FORMAT PARQUET, COMPRESSION ZSTD)`, 'write parquet');
      renameSync(partial, options.out);
      return { ...staged.written, format: 'parquet', out: options.out };
    } catch (err) {
      rmSync(partial, { force: true });
      throw new CliError(`writing ${options.out}: ${duckMessage(err)}`);
    }
  });
}

export function exportEvents(events: EventStore, filter: EventFilter, options: ExportOptions): Promise<ExportSummary> {
  if (options.format === 'ndjson') return exportNdjson(events, filter, options);
  if (!options.out) throw new UsageError('Parquet needs a file: add --out <file>');
  return exportParquet(events, filter, { ...options, out: options.out });
}
