import type { Interval } from './types';

/** Sorted, non-overlapping union of intervals (touching ones join); empty ones are dropped. */
export function mergeIntervals(intervals: readonly Interval[]): Interval[] {
  const sorted = intervals.filter((i) => i.end > i.start).sort((a, b) => a.start - b.start);
  const out: Interval[] = [];
  for (const { start, end } of sorted) {
    const last = out[out.length - 1];
    if (last && start <= last.end) last.end = Math.max(last.end, end);
    else out.push({ start, end });
  }
  return out;
}

/** The parts of `range` that no interval of the sorted, merged `taken` covers. */
export function complement(range: Interval, taken: readonly Interval[]): Interval[] {
  const out: Interval[] = [];
  let cursor = range.start;
  for (const t of taken) {
    if (t.end <= cursor) continue;
    if (t.start >= range.end) break;
    if (t.start > cursor) out.push({ start: cursor, end: t.start });
    cursor = Math.max(cursor, t.end);
  }
  if (cursor < range.end) out.push({ start: cursor, end: range.end });
  return out;
}

export const overlaps = (a: Interval, b: Interval): boolean => a.start < b.end && b.start < a.end;

/** `i` cut to `range`, or null when they do not overlap. */
export function clip<T extends Interval>(i: T, range: Interval): T | null {
  if (!overlaps(i, range)) return null;
  return { ...i, start: Math.max(i.start, range.start), end: Math.min(i.end, range.end) };
}

/** Milliseconds of `i` covered by the sorted, merged `cover`. */
export function coveredMs(i: Interval, cover: readonly Interval[]): number {
  let total = 0;
  for (const c of cover) {
    if (c.start >= i.end) break;
    total += Math.max(0, Math.min(c.end, i.end) - Math.max(c.start, i.start));
  }
  return total;
}
