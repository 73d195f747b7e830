/**
 * `events sql`: DuckDB SQL over a table `events` loaded from the log (see duck.ts for its columns and memory
 * bounds). The query runs with file access disabled, so it can read only that table. Results stream chunk by chunk
 * as CSV or a JSON array; the table form shows at most `maxRows` rows.
 */
import type { DuckDBResult, DuckDBType } from '@duckdb/node-api';
import type { EventStore } from '../eventstore/event-store.port';
import { CliError, UsageError } from './context';
import { duckMessage, EVENTS_TABLE, withDuck } from './duck';
import type { EventFilter } from './log-pages';
import { csvLine, renderTable, stdoutSink, type Sink } from './output';

export type SqlFormat = 'table' | 'json' | 'csv';

export interface SqlOptions {
  format: SqlFormat;
  maxRows: number;
  memoryLimit: string;
  progress: boolean;
}

/** A value as JSON can hold it: integers as numbers while exact (else strings), instants as ISO strings. */
function plain(value: unknown): unknown {
  if (typeof value === 'bigint') return Number.isSafeInteger(Number(value)) ? Number(value) : value.toString();
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return value.map(plain);
  if (value !== null && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  return value;
}

interface Column {
  name: string;
  json: boolean;
  date: boolean;
  numeric: boolean;
}

const NUMERIC = /^(TINYINT|SMALLINT|INTEGER|BIGINT|HUGEINT|UTINYINT|USMALLINT|UINTEGER|UBIGINT|UHUGEINT|FLOAT|DOUBLE|DECIMAL)\b/;

const describe = (name: string, type: DuckDBType): Column => ({
  name,
  json: type.alias === 'JSON',
  date: type.toString() === 'DATE',
  numeric: NUMERIC.test(type.toString()),
});

/** One cell for JSON output: JSON columns parsed, dates as YYYY-MM-DD. */
function jsonValue(column: Column, value: unknown): unknown {
  if (value === null || value === undefined) return null;
  if (column.json && typeof value === 'string') return JSON.parse(value);
  if (column.date && value instanceof Date) return value.toISOString().slice(0, 10);
  return plain(value);
}

/** One cell as text (table and CSV): nested values as JSON; null stays null. */
function textValue(column: Column, value: unknown): string | null {
  const v = jsonValue(column, value);
  if (v === null) return null;
  if (typeof v === 'string') return column.json ? JSON.stringify(v) : v;
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

async function* rowsOf(result: DuckDBResult): AsyncGenerator<unknown[][]> {
  for await (const rows of result.yieldRowsJs()) yield rows;
}

async function writeJson(sink: Sink, columns: Column[], result: DuckDBResult): Promise<number> {
  let count = 0;
  await sink.write('[');
  for await (const rows of rowsOf(result)) {
    const lines = rows.map((row) => JSON.stringify(Object.fromEntries(columns.map((c, i) => [c.name, jsonValue(c, row[i])]))));
    if (lines.length === 0) continue;
    await sink.write(`${count === 0 ? '\n' : ',\n'}${lines.join(',\n')}`);
    count += lines.length;
  }
  await sink.write(count === 0 ? ']\n' : '\n]\n');
  return count;
}

async function writeCsv(sink: Sink, columns: Column[], result: DuckDBResult): Promise<number> {
  let count = 0;
  await sink.write(csvLine(columns.map((c) => c.name)));
  for await (const rows of rowsOf(result)) {
    await sink.write(rows.map((row) => csvLine(columns.map((c, i) => textValue(c, row[i])))).join(''));
    count += rows.length;
  }
  return count;
}

async function writeTable(sink: Sink, columns: Column[], result: DuckDBResult, maxRows: number): Promise<number> {
  const shown: string[][] = [];
  let count = 0;
  for await (const rows of rowsOf(result)) {
    for (const row of rows) {
      if (shown.length < maxRows) shown.push(columns.map((c, i) => textValue(c, row[i]) ?? 'NULL'));
    }
    count += rows.length;
  }
  const table = renderTable(columns.map((c) => c.name), shown, columns.map((c) => c.numeric));
  const more = count > shown.length ? `\n(${count - shown.length} more rows not shown: raise --max-rows, or use --csv or --json)` : '';
  await sink.write(`${table}\n(${count} ${count === 1 ? 'row' : 'rows'})${more}\n`);
  return count;
}

/**
 * Parser errors, and with a single statement binder errors too, show before the log is loaded: the query is
 * prepared against an empty `events` table in a DuckDB without file access.
 */
async function check(query: string): Promise<void> {
  const { DuckDBInstance } = await import('@duckdb/node-api');
  const instance = await DuckDBInstance.create(':memory:', { enable_external_access: 'false' });
  const connection = await instance.connect();
  try {
    await connection.run(EVENTS_TABLE);
    const statements = await connection.extractStatements(query);
    if (statements.count === 0) throw new UsageError('the query has no SQL statement');
    if (statements.count === 1) (await statements.prepare(0)).destroySync();
  } finally {
    connection.closeSync();
    instance.closeSync();
  }
}

const sqlError = (err: unknown) => (err instanceof CliError ? err : new CliError(`SQL error: ${duckMessage(err)}`));

export async function runSql(events: EventStore, query: string, filter: EventFilter, options: SqlOptions): Promise<number> {
  await check(query).catch((err: unknown) => Promise.reject(sqlError(err)));
  return withDuck(options.memoryLimit, options.progress, async ({ connection, run, stage }) => {
    await connection.run(EVENTS_TABLE);
    const staged = await stage(events, filter, { progress: options.progress, label: 'read log' });
    await run(`INSERT INTO events ${staged.relation}`, 'load table');
    staged.discard();
    await connection.run('SET enable_external_access = false');
    try {
      const result = await connection.stream(query);
      const columns = result.columnNames().map((name, i) => describe(name, result.columnType(i)));
      const sink = stdoutSink();
      if (options.format === 'json') return await writeJson(sink, columns, result);
      if (options.format === 'csv') return await writeCsv(sink, columns, result);
      return await writeTable(sink, columns, result, options.maxRows);
    } catch (err) {
      throw sqlError(err);
    }
  });
}
