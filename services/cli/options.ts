/** Parsers for option values: a bad value is a usage error (exit 2) naming the option and what it takes. */
import { InvalidArgumentError } from 'commander';

export function position(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n)) throw new InvalidArgumentError('Expected a log position (a non-negative integer).');
  return n;
}

export function positiveInteger(value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new InvalidArgumentError('Expected a positive integer.');
  return n;
}

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/i;

/** An ISO 8601 instant with its offset, or a date meaning its UTC midnight; epoch milliseconds. */
export function instant(value: string): number {
  const ms = DATE.test(value) ? Date.parse(`${value}T00:00:00Z`) : INSTANT.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(ms)) {
    throw new InvalidArgumentError('Expected an ISO 8601 instant with its offset (2026-03-01T09:00:00Z) or a date (2026-03-01, meaning its UTC midnight).');
  }
  return ms;
}

export function memoryLimit(value: string): string {
  if (!/^\d+(\.\d+)?\s*(KB|MB|GB|TB|KiB|MiB|GiB|TiB)$/i.test(value)) throw new InvalidArgumentError('Expected a size such as 512MB or 2GB.');
  return value;
}

/** For repeatable options: each occurrence adds to the list. */
export function collect(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}
