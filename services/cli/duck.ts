/**
 * DuckDB over the log. The events a filter keeps are staged, page by page, as one flat NDJSON row each in a temp
 * directory; DuckDB reads that file with its built-in `read_json` (no extension is downloaded) into a Parquet file
 * or into an on-disk table. Memory stays bounded on both sides: the log is read in pages, and DuckDB spills to the
 * temp directory beyond `memory_limit`. Disk use is about twice the staged rows while a job runs.
 */
import type { DuckDBConnection } from '@duckdb/node-api';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.port';
import { matchingPages, type EventFilter, type ScanOptions } from './log-pages';
import { fileSink } from './output';

/** Columns of the `events` table and of an exported Parquet file, in order. */
const COLUMNS = {
  position: 'BIGINT',
  stream: 'VARCHAR',
  revision: 'BIGINT',
  event_id: 'VARCHAR',
  type: 'VARCHAR',
  occurred_at: 'VARCHAR',
  user_id: 'VARCHAR',
  space_id: 'VARCHAR',
  correlation_id: 'VARCHAR',
  causation_id: 'VARCHAR',
  schema_version: 'INTEGER',
  data: 'JSON',
} as const;

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

/** The staged rows as a relation with typed columns; an occurredAt that is not an instant becomes NULL. */
function stagedRows(file: string): string {
  const columns = Object.entries(COLUMNS).map(([name, type]) => `${sqlString(name)}: ${sqlString(type)}`).join(', ');
  const select = Object.keys(COLUMNS)
    .map((name) => (name === 'occurred_at' ? 'TRY_CAST(occurred_at AS TIMESTAMPTZ) AS occurred_at' : name))
    .join(', ');
  return `SELECT ${select} FROM read_json(${sqlString(file)}, format = 'newline_delimited', columns = {${columns}})`;
}

export interface DuckJob {
  connection: DuckDBConnection;
  /** Rows staged (events kept by the filter) and the positions of the first and last. */
  rows: number;
  first: number | null;
  last: number | null;
  /** SELECT over the staged rows, in log order. */
  relation: string;
}

/**
 * Stages the events `filter` keeps and opens DuckDB (UTC, `memoryLimit`) on a database file beside them; everything
 * is removed when `use` settles.
 */
export async function withStagedEvents<T>(
  events: EventStore,
  filter: EventFilter,
  scan: ScanOptions & { memoryLimit: string },
  use: (job: DuckJob) => Promise<T>,
): Promise<T> {
  const dir = mkdtempSync(path.join(tmpdir(), 'calendar-cli-'));
  try {
    const file = path.join(dir, 'events.ndjson');
    const sink = fileSink(file);
    let rows = 0;
    let first: number | null = null;
    let last: number | null = null;
    try {
      for await (const page of matchingPages(events, filter, scan)) {
        rows += page.length;
        first ??= page[0].position;
        last = page[page.length - 1].position;
        await sink.write(`${page.map(flatRow).join('\n')}\n`);
      }
      await sink.close();
    } catch (err) {
      sink.abort();
      throw err;
    }
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const instance = await DuckDBInstance.create(path.join(dir, 'log.duckdb'), {
      memory_limit: scan.memoryLimit,
      temp_directory: path.join(dir, 'spill'),
    });
    const connection = await instance.connect();
    try {
      await connection.run("SET TimeZone = 'UTC'");
      return await use({ connection, rows, first, last, relation: stagedRows(file) });
    } finally {
      connection.closeSync();
      instance.closeSync();
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A DuckDB error as one clear message (the parser's "Failed to extract statements:" prefix dropped). */
export function duckMessage(err: unknown): string {
  const text = err instanceof Error ? err.message : String(err);
  return text.replace(/^Failed to extract statements: /, '').trim();
}
