/**
 * How far V8 lets its heap grow past what survived the last full collection. Left to itself, V8 allows up to four
 * times that while the process is busy and collection is cheap, as during a catch-up of a large log: about 35 MB
 * live became 160 MB of heap, which the process keeps once the work is done. Twice the live size keeps the catch-up
 * of a 1M-event log under 300 MB of RSS (233 MB) at a throughput cost inside the machine's noise (docs/operations.md,
 * "Memory").
 */
import { setFlagsFromString } from 'node:v8';

/** Sets the bound for this process: `percent` past the live size; 0 leaves V8 its own choice. */
export function boundHeapGrowth(percent: number): void {
  // V8 reads this flag each time it sets the next collection's limit, so setting it after start-up takes effect.
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
}
