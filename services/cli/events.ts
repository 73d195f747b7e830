/** The `events` commands: export, sql and replay over the event log (read straight from the configured store). */
import { Option, type Command } from 'commander';
import { showProgress, UsageError, withDecodedLog, withEventLog } from './context';
import { DEFAULT_MEMORY_LIMIT } from './duck';
import { exportEvents, type ExportFormat } from './export';
import type { EventFilter } from './log-pages';
import { collect, instant, memoryLimit, position, positiveInteger } from './options';
import { writeLine } from './output';
import { replayToKafka } from './replay';
import { runSql } from './sql';

interface FilterOptions {
  stream?: string;
  type?: string[];
  user?: string;
  space?: string;
  after: number;
  to?: number;
  since?: number;
  until?: number;
  limit?: number;
}

function withFilterOptions(command: Command): Command {
  return command
    .option('--stream <id>', 'only events of this stream')
    .option('--type <type>', 'only events of this type (repeatable)', collect)
    .option('--user <id>', 'only events whose metadata.userId is this user')
    .option('--space <id>', 'only events whose metadata.spaceId is this Space')
    .option('--after <position>', 'only events after this log position (exclusive)', position, 0)
    .option('--to <position>', 'only events up to this log position (inclusive)', position)
    .option('--since <instant>', 'only events that occurred at or after this instant (metadata.occurredAt)', instant)
    .option('--until <instant>', 'only events that occurred before this instant', instant)
    .option('--limit <n>', 'stop after this many matching events', positiveInteger)
    .addOption(
      new Option('--memory-limit <size>', 'memory DuckDB may use (Parquet, sql) before it spills to the temp directory')
        .argParser(memoryLimit)
        .default(DEFAULT_MEMORY_LIMIT),
    );
}

function filterFrom(o: FilterOptions): EventFilter {
  if (o.to !== undefined && o.to < o.after) throw new UsageError('--to must not be before --after');
  if (o.since !== undefined && o.until !== undefined && o.until <= o.since) throw new UsageError('--until must be after --since');
  const { after, to, stream, type: types, user, space, since, until, limit } = o;
  return { after, to, stream, types, user, space, since, until, limit };
}

const positions = (first: number | null, last: number | null) => (first === null ? '' : ` (positions ${first}..${last})`);

export function eventsCommands(program: Command): void {
  const events = program.command('events').description('export, query and replay the event log');

  withFilterOptions(
    events
      .command('export')
      .description('write the events the filters keep, in log order, as NDJSON (stdout or --out) or Parquet (--out)')
      .addOption(new Option('--format <format>', 'output format').choices(['ndjson', 'parquet']).default('ndjson'))
      .option('--out <file>', 'write to this file (required for Parquet); NDJSON goes to stdout without it')
      .option('--json', 'print the summary as JSON (with --out)'),
  ).action(async (o: FilterOptions & { format: ExportFormat; out?: string; json?: boolean; memoryLimit: string }, command: Command) => {
    const filter = filterFrom(o);
    if (o.json && !o.out) throw new UsageError('--json describes an export written with --out (without it, stdout carries the events)');
    const progress = showProgress(command);
    const summary = await withDecodedLog((log) =>
      exportEvents(log, filter, { format: o.format, out: o.out, progress, memoryLimit: o.memoryLimit }),
    );
    const where = summary.out ? ` to ${summary.out}` : '';
    const line = `exported ${summary.events} events${positions(summary.firstPosition, summary.lastPosition)} as ${summary.format}${where}`;
    if (o.json) writeLine(JSON.stringify(summary));
    else if (o.out) writeLine(line);
    else if (progress) process.stderr.write(`${line}\n`);
  });

  withFilterOptions(
    events
      .command('sql')
      .description(
        'run DuckDB SQL over the log, loaded as the table events(position, stream, revision, event_id, type, ' +
          'occurred_at, user_id, space_id, correlation_id, causation_id, schema_version, data JSON)',
      )
      .argument('<query>', 'SQL; e.g. "SELECT type, count(*) FROM events GROUP BY type"')
      .option('--json', 'rows as a JSON array of objects')
      .option('--csv', 'rows as CSV with a header line')
      .option('--max-rows <n>', 'rows the table form shows', positiveInteger, 1000),
  ).action(async (query: string, o: FilterOptions & { json?: boolean; csv?: boolean; maxRows: number; memoryLimit: string }, command: Command) => {
    if (o.json && o.csv) throw new UsageError('choose one of --json and --csv');
    const filter = filterFrom(o);
    const format = o.json ? 'json' : o.csv ? 'csv' : 'table';
    const progress = showProgress(command);
    await withDecodedLog((log) => runSql(log, query, filter, { format, maxRows: o.maxRows, memoryLimit: o.memoryLimit, progress }));
  });

  events
    .command('replay')
    .description('re-publish the log (or a position range) into a Kafka topic, keyed by stream id like the relay (needs KAFKA_BROKERS)')
    .requiredOption('--to-topic <name>', 'the topic to publish into (created when missing)')
    .option('--from <position>', 'first log position to publish (inclusive)', position, 0)
    .option('--to <position>', 'last log position to publish (inclusive); the head when omitted', position)
    .option('--allow-live-topic', "allow publishing into the service's own KAFKA_TOPIC")
    .option('--json', 'print the summary as JSON')
    .action(async (o: { toTopic: string; from: number; to?: number; allowLiveTopic?: boolean; json?: boolean }, command: Command) => {
      if (o.to !== undefined && o.to < o.from) throw new UsageError('--to must not be before --from');
      const progress = showProgress(command);
      const summary = await withEventLog((log, cfg) =>
        replayToKafka(log, cfg, { topic: o.toTopic, from: o.from, to: o.to, allowLiveTopic: o.allowLiveTopic === true, progress }),
      );
      if (o.json) writeLine(JSON.stringify(summary));
      else writeLine(`replayed ${summary.events} events${positions(summary.firstPosition, summary.lastPosition)} to ${summary.topic}`);
    });
}
