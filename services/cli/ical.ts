/**
 * `ical import <file> --calendar <id>`: sends an iCalendar file to the running service's
 * POST /calendars/{id}/import (at API_URL, by default http://127.0.0.1:$PORT, with CALENDAR_TOKEN: a session token
 * or an API key with events:create), a progress bar over the bytes sent, then the service's report on stdout. The
 * file is imported as the API imports it: all or nothing, idempotent by UID.
 */
import { createReadStream, statSync } from 'node:fs';
import { Readable } from 'node:stream';
import { InvalidArgumentError, type Command } from 'commander';
import { Uuid } from '../../contracts/common';
import { IMPORT_MAX_BYTES } from '../../contracts/ical';
import { CliError, config, showProgress } from './context';
import { writeLine } from './output';
import { progressBar } from './progress';

interface ImportOptions {
  calendar: string;
  json?: boolean;
}

interface Report {
  imported: number;
  updated: number;
  skipped: Array<{ uid: string | null; reason: string }>;
}

function calendarId(value: string): string {
  if (!Uuid.safeParse(value).success) throw new InvalidArgumentError('Expected a calendar id (a UUID).');
  return value;
}

/** The file's bytes as a request body, moving the bar as each piece leaves. */
function countedBody(file: string, size: number, onSent: (bytes: number) => void): ReadableStream<Uint8Array> {
  let sent = 0;
  const counted = Readable.from((async function* () {
    for await (const chunk of createReadStream(file, { highWaterMark: 256 * 1024 })) {
      sent += (chunk as Buffer).length;
      onSent(Math.min(sent, size));
      yield chunk as Buffer;
    }
  })());
  return Readable.toWeb(counted) as ReadableStream<Uint8Array>;
}

async function importFile(file: string, o: ImportOptions, progress: boolean): Promise<Report> {
  const cfg = config();
  const token = process.env.CALENDAR_TOKEN;
  if (!token) throw new CliError('set CALENDAR_TOKEN to a session token or an API key with events:create');
  let size: number;
  try {
    size = statSync(file).size;
  } catch {
    throw new CliError(`cannot read ${file}`);
  }
  if (size > IMPORT_MAX_BYTES) throw new CliError(`${file} is ${size} bytes; an import takes at most ${IMPORT_MAX_BYTES} (10 MB)`);
  const base = (process.env.API_URL ?? `http://127.0.0.1:${cfg.PORT}`).replace(/\/+$/, '');
  const bar = progressBar(progress, 'import', size, 'bytes');
  let res: Response;
  try {
    res = await fetch(`${base}/api/v1/calendars/${o.calendar}/import`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'text/calendar; charset=utf-8', 'content-length': String(size) },
      body: countedBody(file, size, (sent) => bar.update(sent)),
      duplex: 'half',
    } as RequestInit);
  } catch (err) {
    const { cause } = err as { cause?: { code?: string; message?: string } };
    throw new CliError(`cannot reach the service at ${base} (${cause?.code ?? cause?.message ?? String(err)}); is it running? set API_URL`);
  } finally {
    bar.stop();
  }
  const body = (await res.json().catch(() => null)) as (Report & { error?: { message?: string } }) | null;
  if (res.status === 401) throw new CliError(`the service at ${base} refused CALENDAR_TOKEN`);
  if (!res.ok) throw new CliError(`import refused (${res.status}): ${body?.error?.message ?? 'no message'}`);
  return body as Report;
}

export function icalCommands(program: Command): void {
  const ical = program.command('ical').description('iCalendar (.ics) files and the running service');
  ical
    .command('import')
    .description('import an .ics file into a calendar through the running service (API_URL, CALENDAR_TOKEN)')
    .argument('<file>', 'the iCalendar file (at most 10 MB)')
    .requiredOption('--calendar <id>', 'the calendar to import into', calendarId)
    .option('--json', 'print the service\'s report as JSON')
    .action(async (file: string, o: ImportOptions, command: Command) => {
      const report = await importFile(file, o, showProgress(command));
      if (o.json) return writeLine(JSON.stringify(report));
      writeLine(`imported ${report.imported}, updated ${report.updated}, skipped ${report.skipped.length}`);
      for (const s of report.skipped) writeLine(`  skipped ${s.uid ?? '(no UID)'}: ${s.reason}`);
    });
}
