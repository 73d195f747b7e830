import { MINUTE_MS } from '../time/local-time';
import type { Interval } from './types';

/**
 * The start on a whole minute nearest `preferred` at which `durationMs` fits wholly inside one of the free windows
 * (the earlier of two equally near); null when none is long enough.
 */
export function nearestStart(free: readonly Interval[], durationMs: number, preferred: number): number | null {
  let best: number | null = null;
  for (const w of free) {
    const earliest = Math.ceil(w.start / MINUTE_MS) * MINUTE_MS;
    const latest = Math.floor((w.end - durationMs) / MINUTE_MS) * MINUTE_MS;
    if (latest < earliest) continue;
    const start = Math.min(Math.max(preferred, earliest), latest);
    if (best === null || Math.abs(start - preferred) < Math.abs(best - preferred)) best = start;
  }
  return best;
}
