/**
 * Where results go: a sink with backpressure (stdout, or a file written beside its final name and renamed when
 * complete, so a failed job never leaves a file that looks whole), plain-text tables and RFC 4180 CSV.
 */
import { createWriteStream, renameSync, rmSync, type WriteStream } from 'node:fs';
import { once } from 'node:events';
import type { Writable } from 'node:stream';

export interface Sink {
  write(chunk: string): Promise<void>;
  /** Flushes and, for a file, gives it its final name. */
  close(): Promise<void>;
  /** Removes a partial file. */
  abort(): void;
}

async function writeTo(stream: Writable, chunk: string): Promise<void> {
  if (!stream.write(chunk)) await once(stream, 'drain');
}

export function stdoutSink(): Sink {
  return { write: (chunk) => writeTo(process.stdout, chunk), close: async () => undefined, abort: () => undefined };
}

/** A file that appears under `file` only once `close` resolved. */
export function fileSink(file: string): Sink {
  const partial = partialName(file);
  const stream: WriteStream = createWriteStream(partial);
  const failed = once(stream, 'error').then(([err]) => Promise.reject(err));
  failed.catch(() => undefined);
  return {
    write: (chunk) => Promise.race([writeTo(stream, chunk), failed]),
    async close() {
      stream.end();
      await Promise.race([once(stream, 'finish'), failed]);
      renameSync(partial, file);
    },
    abort() {
      stream.destroy();
      rmSync(partial, { force: true });
    },
  };
}

export const partialName = (file: string) => `${file}.partial`;

export function writeLine(line = ''): void {
  process.stdout.write(`${line}\n`);
}

/** Columns padded to their widest cell; numbers right-aligned. */
export function renderTable(headers: readonly string[], rows: readonly (readonly string[])[], numeric: readonly boolean[] = []): string {
  const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (cells: readonly string[]) =>
    cells.map((c, i) => (numeric[i] ? c.padStart(widths[i]) : c.padEnd(widths[i]))).join('  ').trimEnd();
  return [line(headers), widths.map((w) => '-'.repeat(w)).join('  '), ...rows.map(line)].join('\n');
}

export function csvCell(value: string | null): string {
  if (value === null) return '';
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}

export const csvLine = (cells: readonly (string | null)[]) => `${cells.map(csvCell).join(',')}\r\n`;
