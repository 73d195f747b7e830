export interface Span {
  start: number;
  end: number;
}

const MINUTE = 60_000;

/**
 * The free start nearest `preferred` (epoch ms, on the minute) for `duration` inside `range`, overlapping none of
 * `busy`; null when nothing fits. The nearest free start is always an edge: the preferred start itself, the range's
 * ends, or right after / right before a busy span, so only those are tried.
 */
export function suggestFreeTime(range: Span, duration: number, busy: Span[], preferred: number): number | null {
  const candidates = [
    preferred, range.start, range.end - duration,
    ...busy.flatMap((b) => [Math.ceil(b.end / MINUTE) * MINUTE, Math.floor((b.start - duration) / MINUTE) * MINUTE]),
  ];
  let best: number | null = null;
  for (const start of candidates) {
    if (start < range.start || start + duration > range.end) continue;
    if (busy.some((b) => b.start < start + duration && b.end > start)) continue;
    const distance = Math.abs(start - preferred);
    if (best === null || distance < Math.abs(best - preferred) || (distance === Math.abs(best - preferred) && start < best)) best = start;
  }
  return best;
}
