/**
 * DuckDB over the log. The events a filter keeps are staged, page by page, as NDJSON (the lines `events export`
 * writes) in a temp directory; DuckDB reads that file with its built-in `read_json` (no extension is downloaded)
 * into a Parquet file or into the on-disk table `events`. Memory stays bounded on both sides: the log is read in
 * pages, and DuckDB spills to the temp directory beyond `memory_limit`. Disk use is about twice the staged rows while
 * a job runs.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EventStore } from '../eventstore/event-store.port';
import { writeNdjson, type EventFilter, type ScanOptions, type Written } from './log-pages';
import { fileSink } from './output';
import { progressBar, type Progress } from './progress';

/** Columns of the `events` table and of an exported Parquet file, in order, with where each is in a staged line. */
const COLUMNS = {
  position: ['BIGINT', 'position'],
  stream: ['VARCHAR', 'streamId'],
  revision: ['BIGINT', 'revision'],
  event_id: ['VARCHAR', 'id'],
  type: ['VARCHAR', 'type'],
  occurred_at: ['TIMESTAMPTZ', 'metadata.occurredAt'],
  user_id: ['VARCHAR', 'metadata.userId'],
  space_id: ['VARCHAR', 'metadata.spaceId'],
  correlation_id: ['VARCHAR', 'metadata.correlationId'],
  causation_id: ['VARCHAR', 'metadata.causationId'],
  schema_version: ['INTEGER', 'metadata.schemaVersion'],
  data: ['JSON', 'data'],
} as const;

export const EVENTS_TABLE = `CREATE TABLE events (${Object.entries(COLUMNS).map(([name, [type]]) => `${name} ${type}`).join(', ')})`;

export const DEFAULT_MEMORY_LIMIT = '1GB';

export const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/**
 * The staged lines as a relation with the table's columns: read_json keeps the fields named (metadata as a struct of
 * the columns' types), and an occurredAt that is not an instant becomes NULL.
 */
function stagedRows(file: string): string {
  const asRead = (type: string) => (type === 'TIMESTAMPTZ' ? 'VARCHAR' : type);
  const fields = new Map<string, string>();
  const metadata: string[] = [];
  for (const [type, source] of Object.values(COLUMNS)) {
    if (source.startsWith('metadata.')) metadata.push(`${source.slice('metadata.'.length)} ${asRead(type)}`);
    else fields.set(source, type);
  }
  fields.set('metadata', `STRUCT(${metadata.join(', ')})`);
  const columns = [...fields].map(([name, type]) => `${sqlString(name)}: ${sqlString(type)}`).join(', ');
  const select = Object.entries(COLUMNS)
    .map(([name, [type, source]]) => (type === 'TIMESTAMPTZ' ? `TRY_CAST(${source} AS TIMESTAMPTZ)` : source) + ` AS ${name}`)
    .join(', ');
  return `SELECT ${select} FROM read_json(${sqlString(file)}, format = 'newline_delimited', columns = {${columns}})`;
}

export interface Staged {
  /** Events staged (those the filter kept) and the positions of the first and last. */
  written: Written;
  /** SELECT over the staged rows, in log order. */
  relation: string;
  /** Deletes the staged file (once DuckDB holds the rows). */
  discard(): void;
}

export interface Duck {
  connection: DuckDBConnection;
  /** Runs one statement, with a percentage bar on stderr while it runs when `progress` is on. */
  run(sql: string, label: string): Promise<void>;
  /** Writes the events `filter` keeps beside the database, page by page. */
  stage(events: EventStore, filter: EventFilter, scan: ScanOptions): Promise<Staged>;
}

const PROGRESS_POLL_MS = 250;

async function runStatement(connection: DuckDBConnection, sql: string, bar: Progress): Promise<void> {
  const poll = setInterval(() => {
    const { percentage } = connection.progress;
    if (percentage >= 0) bar.update(Math.floor(percentage));
  }, PROGRESS_POLL_MS);
  try {
    await connection.run(sql);
    bar.update(100);
  } finally {
    clearInterval(poll);
    bar.stop();
  }
}

/** Opens DuckDB (UTC, `memoryLimit`) on a database file in a temp directory, removed with it when `use` settles. */
export async function withDuck<T>(memoryLimit: string, progress: boolean, use: (duck: Duck) => Promise<T>): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), 'calendar-cli-'));
  try {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(path.join(dir, 'log.duckdb'), {
      memory_limit: memoryLimit,
      temp_directory: path.join(dir, 'spill'),
    });
    const connection = await instance.connect();
    try {
      await connection.run("SET TimeZone = 'UTC'");
      if (progress) await connection.run('SET enable_progress_bar = true; SET enable_progress_bar_print = false');
      return await use({
        connection,
        run: (sql, label) => runStatement(connection, sql, progressBar(progress, label, 100)),
        stage: (events, filter, scan) => stage(path.join(dir, 'events.ndjson'), events, filter, scan),
      });
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

async function stage(file: string, events: EventStore, filter: EventFilter, scan: ScanOptions): Promise<Staged> {
  const written = await writeNdjson(events, filter, fileSink(file), scan);
  return { written, relation: stagedRows(file), discard: () => rmSync(file, { force: true }) };
}

/** A DuckDB error as one clear message (the parser's "Failed to extract statements:" prefix dropped). */
export function duckMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/^Failed to extract statements: /, '').trim();
}
