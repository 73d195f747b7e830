/**
 * DuckDB over the log. The events a filter keeps are staged, page by page, as one flat NDJSON row each in a temp
 * directory; DuckDB reads that file with its built-in `read_json` (no extension is downloaded) into a Parquet file
 * or into the on-disk table `events`. Memory stays bounded on both sides: the log is read in pages, and DuckDB
 * spills to the temp directory beyond `memory_limit`. Disk use is about twice the staged rows while a job runs.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.port';
import { matchingPages, type EventFilter, type ScanOptions } from './log-pages';
import { fileSink } from './output';
import { progressBar, type Progress } from './progress';

/** Columns of the `events` table and of an exported Parquet file, in order. */
const COLUMNS = {
  position: 'BIGINT',
  stream: 'VARCHAR',
  revision: 'BIGINT',
  event_id: 'VARCHAR',
  type: 'VARCHAR',
  occurred_at: 'TIMESTAMPTZ',
  user_id: 'VARCHAR',
  space_id: 'VARCHAR',
  correlation_id: 'VARCHAR',
  causation_id: 'VARCHAR',
  schema_version: 'INTEGER',
  data: 'JSON',
} as const;

export const EVENTS_TABLE = `CREATE TABLE events (${Object.entries(COLUMNS).map(([name, type]) => `${name} ${type}`).join(', ')})`;

export const DEFAULT_MEMORY_LIMIT = '1GB';

function flatRow(e: RecordedEvent): string {
  const m = e.metadata;
  return JSON.stringify({
    position: e.position, stream: e.streamId, revision: e.revision, event_id: e.id, type: e.type,
    occurred_at: m.occurredAt, user_id: m.userId ?? null, space_id: m.spaceId ?? null,
    correlation_id: m.correlationId ?? null, causation_id: m.causationId ?? null, schema_version: m.schemaVersion ?? null,
    data: e.data ?? null,
  });
}

export const sqlString = (s: string) => `'${s.replace(/'/g, "''")}'`;

/** The staged rows as a relation with the table's columns; an occurredAt that is not an instant becomes NULL. */
function stagedRows(file: string): string {
  const asRead = (type: string) => (type === 'TIMESTAMPTZ' ? 'VARCHAR' : type);
  const columns = Object.entries(COLUMNS).map(([name, type]) => `${sqlString(name)}: ${sqlString(asRead(type))}`).join(', ');
  const select = Object.keys(COLUMNS)
    .map((name) => (name === 'occurred_at' ? 'TRY_CAST(occurred_at AS TIMESTAMPTZ) AS occurred_at' : name))
    .join(', ');
  return `SELECT ${select} FROM read_json(${sqlString(file)}, format = 'newline_delimited', columns = {${columns}})`;
}

export interface Staged {
  /** Rows staged (events kept by the filter) and the positions of the first and last. */
  rows: number;
  first: number | null;
  last: number | null;
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
  const sink = fileSink(file);
  const staged: Staged = { rows: 0, first: null, last: null, relation: stagedRows(file), discard: () => rmSync(file, { force: true }) };
  try {
    for await (const page of matchingPages(events, filter, scan)) {
      staged.rows += page.length;
      staged.first ??= page[0].position;
      staged.last = page[page.length - 1].position;
      await sink.write(`${page.map(flatRow).join('\n')}\n`);
    }
    await sink.close();
    return staged;
  } catch (err) {
    sink.abort();
    throw err;
  }
}

/** A DuckDB error as one clear message (the parser's "Failed to extract statements:" prefix dropped). */
export function duckMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/^Failed to extract statements: /, '').trim();
}
