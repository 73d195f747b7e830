/**
 * The CLI's `events` commands and its conventions (help, version, exit codes, progress on stderr), run as the built
 * program against a log this suite writes straight into an embedded store: more than one page of events, several
 * users, Spaces, streams and types, and booking reschedules spread over weeks.
 */
import { DuckDBInstance } from '@duckdb/node-api';
import { randomUUID } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { CLI, ndjson, runCli, seedLog, type SeedEvent } from '../support/cli';
import { prng } from '../support/prng';

const [ana, ben, cai] = [randomUUID(), randomUUID(), randomUUID()];
const [home, work] = [randomUUID(), randomUUID()];
const DAY = 86_400_000;
const MARCH = Date.UTC(2026, 2, 1); // a Sunday

function buildLog(): SeedEvent[] {
  const random = prng(13);
  const out: SeedEvent[] = [];
  const owners = [
    { userId: ana, spaceId: home },
    { userId: ben, spaceId: work },
    { userId: cai, spaceId: work },
  ];
  for (let i = 0; i < 2300; i++) {
    const owner = owners[Math.floor(random() * owners.length)];
    const at = new Date(MARCH + Math.floor(random() * 35 * DAY)).toISOString();
    const r = random();
    if (r < 0.04) {
      const booking = `booking-${Math.floor(random() * 5)}`;
      out.push({ stream: booking, type: 'booking.rescheduled', ...owner, occurredAt: at, data: { data: { id: booking, startsAt: at }, previous: { startsAt: at } } });
    } else if (r < 0.5) {
      out.push({ stream: `space-${owner.spaceId}`, type: 'event.created', ...owner, occurredAt: at, data: { id: randomUUID(), title: `Event ${i}` } });
    } else if (r < 0.8) {
      out.push({ stream: `space-${owner.spaceId}`, type: 'event.updated', ...owner, occurredAt: at, data: { id: randomUUID(), title: `Moved ${i}` } });
    } else {
      out.push({ stream: `tasks-${owner.userId}`, type: 'task.created', userId: owner.userId, occurredAt: at, data: { id: randomUUID(), title: `Task ${i}` } });
    }
  }
  out.push({ stream: 'accounts-system', type: 'user.signed_up', userId: null, occurredAt: new Date(MARCH).toISOString(), data: { note: 'a line, with "quotes"\nand a newline' } });
  return out;
}

let dataDir = '';
let log: RecordedEvent[] = [];
const env = () => ({ DATA_DIR: dataDir });
const outDir = mkdtempSync(path.join(tmpdir(), 'calendar-cli-out-'));

beforeAll(async () => {
  ({ dataDir, recorded: log } = await seedLog(buildLog()));
}, 60_000);

/** Monday (UTC) of the week an instant falls in, as YYYY-MM-DD. */
function mondayOf(iso: string): string {
  const d = new Date(iso);
  const back = (d.getUTCDay() + 6) % 7;
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() - back)).toISOString().slice(0, 10);
}

describe('the CLI program', () => {
  it('is the package bin, and prints help for the program and every command, and its version, with exit code 0', async () => {
    const pkg = JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8'));
    const version = await runCli(['--version']);
    expect(version).toMatchObject({ code: 0, stdout: `${pkg.version}\n` });

    const help = await runCli(['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: calendar-service/);
    expect(help.stdout).toMatch(/events/);
    expect(help.stdout).toMatch(/projections/);

    const bin = path.resolve(__dirname, '../..', pkg.bin['calendar-service']);
    expect(bin).toBe(CLI);
    expect(readFileSync(bin, 'utf8').startsWith('#!/usr/bin/env node\n')).toBe(true);

    const exportHelp = await runCli(['events', 'export', '--help']);
    expect(exportHelp.code).toBe(0);
    for (const option of ['--stream', '--type', '--user', '--space', '--after', '--to', '--since', '--until', '--limit', '--format', '--out']) {
      expect(exportHelp.stdout).toContain(option);
    }
    for (const command of [['events', 'sql'], ['events', 'replay'], ['projections', 'list'], ['projections', 'status'], ['projections', 'rebuild']]) {
      const res = await runCli([...command, '--help']);
      expect(res.code).toBe(0);
      expect(res.stdout).toContain(`Usage: calendar-service ${command.join(' ')}`);
    }
  });

  it('answers a usage error with exit code 2 and a message naming what is wrong', async () => {
    const cases: Array<[string[], RegExp]> = [
      [[], /Usage: calendar-service/],
      [['nope'], /unknown command 'nope'/],
      [['events', 'export', '--bogus'], /unknown option '--bogus'/],
      [['events', 'export', '--after', '-1'], /--after/],
      [['events', 'export', '--to', '1.5'], /--to <position>.*invalid/],
      [['events', 'export', '--since', 'yesterday'], /--since <instant>.*invalid/],
      [['events', 'export', '--format', 'csv'], /--format.*Allowed choices are ndjson, parquet/],
      [['events', 'export', '--format', 'parquet'], /Parquet needs a file: add --out/],
      [['events', 'export', '--after', '10', '--to', '5'], /--to must not be before --after/],
      [['events', 'export', '--since', '2026-03-10', '--until', '2026-03-01'], /--until must be after --since/],
      [['events', 'sql'], /missing required argument 'query'/],
      [['events', 'sql', '--json', '--csv', 'SELECT 1'], /choose one of --json and --csv/],
      [['events', 'replay'], /required option '--to-topic <name>'/],
      [['projections', 'rebuild'], /missing required argument 'name'/],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(args, env())));
    cases.forEach(([args, message], i) => {
      expect({ args, code: results[i].code }).toEqual({ args, code: 2 });
      expect(results[i].stderr).toMatch(message);
      expect(results[i].stdout).toBe('');
    });
  });

  it('fails with exit code 1 and says where it looked when there is no log', async () => {
    const empty = mkdtempSync(path.join(tmpdir(), 'calendar-cli-empty-'));
    const res = await runCli(['events', 'export'], { DATA_DIR: empty });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`no event log at ${path.join(empty, 'events.sqlite')}`);
    expect(existsSync(path.join(empty, 'events.sqlite'))).toBe(false);
  });

  it('exits with code 1 when the log is there but not the read-model store that holds its keys', async () => {
    const keyless = mkdtempSync(path.join(tmpdir(), 'calendar-cli-keyless-'));
    copyFileSync(path.join(dataDir, 'events.sqlite'), path.join(keyless, 'events.sqlite'));
    const res = await runCli(['events', 'export', '--out', path.join(keyless, 'out.ndjson')], { DATA_DIR: keyless });
    expect(res.code).toBe(1);
    expect(res.stderr).toContain(`no read-model store at ${path.join(keyless, 'read-models.sqlite')}`);
  });
});

describe('events export', () => {
  it('writes the whole log as NDJSON on stdout, in log order, across pages', async () => {
    const res = await runCli(['events', 'export'], env());
    expect(res.code).toBe(0);
    expect(res.stderr).toBe('');
    const exported = ndjson(res.stdout);
    expect(exported).toHaveLength(log.length);
    expect(exported).toEqual(log);
  });

  it('keeps exactly the events each filter selects', async () => {
    const at = (e: RecordedEvent) => Date.parse(e.metadata.occurredAt);
    const since = Date.UTC(2026, 2, 9);
    const until = Date.UTC(2026, 2, 16, 12);
    const middle = log[Math.floor(log.length / 2)].position;
    const cases: Array<[string[], (e: RecordedEvent) => boolean]> = [
      [['--stream', `space-${home}`], (e) => e.streamId === `space-${home}`],
      [['--type', 'task.created'], (e) => e.type === 'task.created'],
      [['--type', 'booking.rescheduled', '--type', 'event.updated'], (e) => e.type === 'booking.rescheduled' || e.type === 'event.updated'],
      [['--user', ben], (e) => e.metadata.userId === ben],
      [['--space', work], (e) => e.metadata.spaceId === work],
      [['--after', '100', '--to', String(middle)], (e) => e.position > 100 && e.position <= middle],
      [['--after', String(middle)], (e) => e.position > middle],
      [['--since', '2026-03-09', '--until', '2026-03-16T12:00:00Z'], (e) => at(e) >= since && at(e) < until],
      [['--since', '2026-03-09T01:00:00+01:00'], (e) => at(e) >= since],
      [['--user', cai, '--space', work, '--type', 'event.created', '--until', '2026-03-20'], (e) =>
        e.metadata.userId === cai && e.metadata.spaceId === work && e.type === 'event.created' && at(e) < Date.UTC(2026, 2, 20)],
    ];
    const results = await Promise.all(cases.map(([args]) => runCli(['events', 'export', ...args], env())));
    cases.forEach(([args, keep], i) => {
      expect({ args, code: results[i].code, stderr: results[i].stderr }).toEqual({ args, code: 0, stderr: '' });
      const expected = log.filter(keep);
      expect(expected.length).toBeGreaterThan(0);
      expect(expected.length).toBeLessThan(log.length);
      expect(ndjson(results[i].stdout)).toEqual(expected);
    });
  });

  it('stops after --limit matching events', async () => {
    const res = await runCli(['events', 'export', '--type', 'event.updated', '--after', '50', '--limit', '2500'], env());
    const updates = log.filter((e) => e.type === 'event.updated' && e.position > 50);
    expect(ndjson(res.stdout)).toEqual(updates);
    const few = await runCli(['events', 'export', '--type', 'event.updated', '--after', '50', '--limit', '7'], env());
    expect(ndjson(few.stdout)).toEqual(updates.slice(0, 7));
  });

  it('writes a file with --out and prints a summary, as JSON with --json', async () => {
    const file = path.join(outDir, 'tasks.ndjson');
    const res = await runCli(['events', 'export', '--type', 'task.created', '--out', file, '--json'], env());
    expect(res.code).toBe(0);
    const tasks = log.filter((e) => e.type === 'task.created');
    expect(JSON.parse(res.stdout)).toEqual({
      events: tasks.length, format: 'ndjson', out: file, firstPosition: tasks[0].position, lastPosition: tasks[tasks.length - 1].position,
    });
    expect(ndjson(readFileSync(file, 'utf8'))).toEqual(tasks);
    expect(existsSync(`${file}.partial`)).toBe(false);

    const plain = await runCli(['events', 'export', '--user', ana, '--out', path.join(outDir, 'ana.ndjson')], env());
    expect(plain.stdout).toMatch(/^exported \d+ events \(positions \d+\.\.\d+\) as ndjson to .*ana\.ndjson\n$/);
  });

  it('writes Parquet that DuckDB reads back as the same events', async () => {
    const file = path.join(outDir, 'work.parquet');
    const res = await runCli(['events', 'export', '--space', work, '--since', '2026-03-05', '--format', 'parquet', '--out', file], env());
    expect(res.code).toBe(0);
    const expected = log.filter((e) => e.metadata.spaceId === work && Date.parse(e.metadata.occurredAt) >= Date.UTC(2026, 2, 5));
    expect(res.stdout).toContain(`exported ${expected.length} events`);

    const duck = await (await DuckDBInstance.create(':memory:')).connect();
    const read = await duck.runAndReadAll(
      `SELECT position, stream, revision, event_id, type, epoch_ms(occurred_at) AS at, user_id, space_id, correlation_id, schema_version, data::VARCHAR AS data
       FROM read_parquet('${file}') ORDER BY position`,
    );
    const rows = read.getRowObjectsJS();
    duck.closeSync();
    expect(rows.map((r) => ({ ...r, position: Number(r.position), revision: Number(r.revision), at: Number(r.at), data: JSON.parse(r.data as string) }))).toEqual(
      expected.map((e) => ({
        position: e.position, stream: e.streamId, revision: e.revision, event_id: e.id, type: e.type, at: Date.parse(e.metadata.occurredAt),
        user_id: e.metadata.userId, space_id: e.metadata.spaceId, correlation_id: e.metadata.correlationId, schema_version: e.metadata.schemaVersion, data: e.data,
      })),
    );
  });

  it('draws progress on stderr only when forced, keeping stdout clean', async () => {
    const forced = await runCli(['--progress', 'events', 'export', '--type', 'event.created'], env());
    expect(forced.code).toBe(0);
    expect(forced.stderr).toMatch(/export \[.*\] 100% \| \d+\/\d+ positions/);
    expect(ndjson(forced.stdout)).toEqual(log.filter((e) => e.type === 'event.created'));

    const piped = await runCli(['events', 'export', '--type', 'event.created'], env());
    expect(piped.stderr).toBe('');
  });
});

describe('events sql', () => {
  const perWeek = `SELECT date_trunc('week', occurred_at)::DATE AS week, count(*) AS rescheduled
    FROM events WHERE type = 'booking.rescheduled' GROUP BY week ORDER BY week`;

  function expectedPerWeek(): Array<{ week: string; rescheduled: number }> {
    const counts = new Map<string, number>();
    for (const e of log.filter((x) => x.type === 'booking.rescheduled')) {
      const week = mondayOf(e.metadata.occurredAt);
      counts.set(week, (counts.get(week) ?? 0) + 1);
    }
    return [...counts].sort(([a], [b]) => a.localeCompare(b)).map(([week, rescheduled]) => ({ week, rescheduled }));
  }

  it('counts the bookings rescheduled per week (JSON)', async () => {
    const res = await runCli(['events', 'sql', '--json', perWeek], env());
    expect(res.code).toBe(0);
    const expected = expectedPerWeek();
    expect(expected.length).toBeGreaterThan(3);
    expect(JSON.parse(res.stdout)).toEqual(expected);
  });

  it('prints a table by default and CSV with --csv', async () => {
    const expected = expectedPerWeek();
    const table = await runCli(['events', 'sql', perWeek], env());
    expect(table.code).toBe(0);
    const lines = table.stdout.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^week\s+rescheduled$/);
    expect(lines[1]).toMatch(/^-+\s+-+$/);
    expect(lines.slice(2, -1).map((l) => l.split(/\s+/))).toEqual(expected.map((r) => [r.week, String(r.rescheduled)]));
    expect(lines[lines.length - 1]).toBe(`(${expected.length} rows)`);

    const csv = await runCli(['events', 'sql', '--csv', perWeek], env());
    expect(csv.stdout).toBe(`week,rescheduled\r\n${expected.map((r) => `${r.week},${r.rescheduled}\r\n`).join('')}`);

    const quoted = await runCli(['events', 'sql', '--csv', "SELECT data->>'note' AS note FROM events WHERE type = 'user.signed_up'"], env());
    expect(quoted.stdout).toBe('note\r\n"a line, with ""quotes""\nand a newline"\r\n');
  });

  it('exposes every column of the view and loads only what the filters keep', async () => {
    const res = await runCli(['events', 'sql', '--json', '--user', ana, 'SELECT * FROM events ORDER BY position DESC LIMIT 1'], env());
    expect(res.code).toBe(0);
    const last = log.filter((e) => e.metadata.userId === ana).pop()!;
    expect(JSON.parse(res.stdout)).toEqual([{
      position: last.position, stream: last.streamId, revision: last.revision, event_id: last.id, type: last.type,
      occurred_at: last.metadata.occurredAt, user_id: ana, space_id: last.metadata.spaceId ?? null, correlation_id: last.metadata.correlationId,
      causation_id: last.metadata.causationId, schema_version: last.metadata.schemaVersion, data: last.data,
    }]);

    const counted = await runCli(['events', 'sql', '--csv', '--type', 'task.created', 'SELECT count(*) AS n, count(DISTINCT type) AS types FROM events'], env());
    expect(counted.stdout).toBe(`n,types\r\n${log.filter((e) => e.type === 'task.created').length},1\r\n`);
  });

  it('caps the table at --max-rows and says how many rows it left out', async () => {
    const res = await runCli(['events', 'sql', '--max-rows', '3', 'SELECT position FROM events ORDER BY position'], env());
    expect(res.code).toBe(0);
    const lines = res.stdout.trimEnd().split('\n');
    expect(lines.slice(2, 5).map((l) => Number(l.trim()))).toEqual(log.slice(0, 3).map((e) => e.position));
    expect(res.stdout).toContain(`(${log.length} rows)\n(${log.length - 3} more rows not shown`);
  });

  it('answers an empty result with an empty JSON array', async () => {
    const res = await runCli(['events', 'sql', '--json', "SELECT * FROM events WHERE type = 'nothing.happened'"], env());
    expect(res).toMatchObject({ code: 0, stdout: '[]\n' });
  });

  it('fails with exit code 1 and the database message on a bad query, printing no result', async () => {
    const syntax = await runCli(['events', 'sql', 'SELEC count(*) FROM events'], env());
    expect(syntax.code).toBe(1);
    expect(syntax.stderr).toMatch(/^error: SQL error: Parser Error: syntax error at or near "SELEC"/);
    expect(syntax.stdout).toBe('');

    const column = await runCli(['events', 'sql', 'SELECT nope FROM events'], env());
    expect(column.code).toBe(1);
    expect(column.stderr).toMatch(/Binder Error: Referenced column "nope" not found/);
  });

  it('cannot reach files: the query sees the events table only', async () => {
    const res = await runCli(['events', 'sql', "SELECT * FROM read_csv('/etc/passwd')"], env());
    expect(res.code).toBe(1);
    expect(res.stderr).toMatch(/Permission Error/);
    expect(res.stdout).toBe('');
  });
});
