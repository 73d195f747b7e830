import { wallClock } from '../time/zone';
import { MINUTE_MS } from '../time/local-time';
import type { Interval } from './types';

export interface SlotOptions {
  durationMinutes: number;
  /** Slots start on the owner's local clock at multiples of this (15 = :00, :15, :30, :45). */
  stepMinutes: number;
  timeZone: string;
  /** Stop after this many slots. */
  max: number;
}

/** The first instant at or after `epochMs` that shows a multiple of `stepMinutes` on the clock of `timeZone`. */
export function alignUp(epochMs: number, stepMinutes: number, timeZone: string): number {
  const step = stepMinutes * MINUTE_MS;
  const offset = wallClock(epochMs, timeZone).offsetMinutes * MINUTE_MS;
  return Math.ceil((epochMs + offset) / step) * step - offset;
}

/** Starts of `durationMinutes` slots that fit wholly inside the sorted free windows, aligned on the local clock. */
export function bookableSlots(free: readonly Interval[], { durationMinutes, stepMinutes, timeZone, max }: SlotOptions): Interval[] {
  const duration = durationMinutes * MINUTE_MS;
  const step = stepMinutes * MINUTE_MS;
  const out: Interval[] = [];
  for (const window of free) {
    for (let start = alignUp(window.start, stepMinutes, timeZone); start + duration <= window.end; start += step) {
      if (out.length >= max) return out;
      out.push({ start, end: start + duration });
    }
  }
  return out;
}
