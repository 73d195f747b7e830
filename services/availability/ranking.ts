import { coveredMs } from './intervals';
import { MINUTE_MS } from '../time/local-time';
import type { Interval } from './types';
import { everyDay, localHoursIn } from './weekly-hours';

export type Purpose = 'meeting' | 'focus';
export type DayPeriod = 'morning' | 'afternoon' | 'evening';

/** Local minutes of each part of the day. */
export const DAY_PERIODS: Record<DayPeriod, { startMinute: number; endMinute: number }> = {
  morning: { startMinute: 6 * 60, endMinute: 12 * 60 },
  afternoon: { startMinute: 12 * 60, endMinute: 17 * 60 },
  evening: { startMinute: 17 * 60, endMinute: 22 * 60 },
};

/** The least time a stretch must offer to be of use for each purpose. */
export const PURPOSE_MINUTES: Record<Purpose, number> = { meeting: 30, focus: 60 };

export interface RankedStretch extends Interval {
  minutes: number;
  /** Minutes of the stretch inside the preferred part of the day (0 without a preference). */
  preferredMinutes: number;
  /** At least the purpose's minutes long. */
  fitsPurpose: boolean;
  /** The purpose's minutes fit inside the preferred part of the day. */
  inPreferred: boolean;
  /** 1 = best. */
  rank: number;
}

export interface RankOptions {
  purpose: Purpose;
  preferred?: DayPeriod;
  timeZone: string;
}

/**
 * Free stretches (sorted by start), best first for the purpose. In order: stretches long enough for the purpose
 * (30 minutes for a meeting, 60 for focus); those where that time fits in the preferred part of the day; then for
 * focus more time in the preferred part and then the longer, for a meeting the shorter (a meeting fills a gap and
 * leaves long stretches whole for focus); then the earlier.
 */
export function rankFree(free: readonly Interval[], { purpose, preferred, timeZone }: RankOptions): RankedStretch[] {
  const need = PURPOSE_MINUTES[purpose];
  const periods = preferred && free.length
    ? localHoursIn({ start: free[0].start, end: free[free.length - 1].end }, everyDay(DAY_PERIODS[preferred].startMinute, DAY_PERIODS[preferred].endMinute), timeZone)
    : [];
  const scored = free.map((s) => {
    const minutes = Math.floor((s.end - s.start) / MINUTE_MS);
    const preferredMinutes = Math.floor(coveredMs(s, periods) / MINUTE_MS);
    return { start: s.start, end: s.end, minutes, preferredMinutes, fitsPurpose: minutes >= need, inPreferred: preferredMinutes >= need, rank: 0 };
  });
  const focus = purpose === 'focus';
  scored.sort((a, b) =>
    Number(b.fitsPurpose) - Number(a.fitsPurpose) ||
    Number(b.inPreferred) - Number(a.inPreferred) ||
    (focus ? b.preferredMinutes - a.preferredMinutes || b.end - b.start - (a.end - a.start) : a.end - a.start - (b.end - b.start)) ||
    a.start - b.start);
  scored.forEach((s, i) => (s.rank = i + 1));
  return scored;
}
