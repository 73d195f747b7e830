/**
 * An upper bound of where a COUNT series ends, computed from one period and never by enumerating: exact where no
 * part of the rule can empty a period and the zone keeps one offset; otherwise DST gaps are allowed for, or the
 * horizon is used.
 */
import { DAY_MS, HOUR_MS } from './civil';
import { dayPeriod, hourlyPeriods, latestInstant, mod, periodDays, type Series, YEARS } from './series';
import { offsetMs } from './zone';

/** Starts every period is sure to produce, for rules where no part can empty a period; else 0. */
function perPeriod(s: Series): number {
  const r = s.rule;
  const shortMonthDays = (r.byMonthDay ?? [s.start.day]).every((d) => d >= 1 && d <= 28);
  if (r.bySetPos) return 0;
  switch (r.freq) {
    case 'HOURLY':
      return r.byHour || r.byMonth || r.byMonthDay || r.byYearDay || r.byDay ? 0 : s.times.length;
    case 'DAILY':
      return r.byMonth || r.byMonthDay || r.byDay ? 0 : s.times.length;
    case 'WEEKLY':
      return r.byMonth ? 0 : (r.byDay?.length ?? 1) * s.times.length;
    case 'MONTHLY':
      return r.byMonth || r.byDay || !shortMonthDays ? 0 : (r.byMonthDay?.length ?? 1) * s.times.length;
    case 'YEARLY':
      if (r.byWeekNo || r.byYearDay || r.byDay || !shortMonthDays) return 0;
      return (r.byMonth?.length ?? (r.byMonthDay ? 12 : 1)) * (r.byMonthDay?.length ?? 1) * s.times.length;
  }
}

/** True when the zone keeps one offset over the horizon: no DST gap can drop a start. */
function fixedOffset(s: Series): boolean {
  const first = offsetMs(s.startMs, s.zone);
  for (let y = s.start.year; y <= s.start.year + YEARS + 1; y++) {
    for (const month of [1, 7]) if (offsetMs(Date.UTC(y, month - 1, 1), s.zone) !== first) return false;
  }
  return true;
}

/** Latest instant the `index`-th candidate (0-based, counted from the first period, DST gaps ignored) may start at. */
function candidateAt(s: Series, index: number, size: number): number {
  const k = Math.floor(index / size);
  const j = index % size;
  if (s.rule.freq === 'HOURLY') {
    const anchor = s.startMs + k * s.rule.interval * HOUR_MS;
    if (!s.rule.byMinute && !s.rule.bySecond) return anchor;
    const local = anchor + offsetMs(anchor, s.zone);
    return latestInstant(local - mod(local, HOUR_MS) + s.times[j], s.zone);
  }
  const [first, last] = periodDays(s, k);
  const days: number[] = [];
  for (let day = first; day <= last; day++) if (s.matches(day)) days.push(day);
  return latestInstant(days[Math.floor(j / s.times.length)] * DAY_MS + s.times[j % s.times.length], s.zone);
}

/**
 * An upper bound of a COUNT series' last start, computed from one period and never by enumerating: exact where no
 * part can empty a period and the zone keeps one offset; otherwise DST gaps are allowed for, or the horizon is used.
 */
export function countEndBound(s: Series, count: number): number {
  const size = perPeriod(s);
  if (size === 0) return s.lastMs;
  const firstPeriod: number[] =
    s.rule.freq === 'HOURLY' ? (hourlyPeriods(s, s.startMs, s.startMs + 2 * HOUR_MS).next().value ?? []) : dayPeriod(s, 0);
  const index = count - 1 + firstPeriod.filter((at) => at < s.startMs).length;
  let bound = candidateAt(s, index, size);
  if (!fixedOffset(s)) {
    // Each DST gap drops at most one day's (or hour's) starts; a zone has at most two a year.
    const gaps = 2 * (Math.ceil((bound - s.startMs) / (365 * DAY_MS)) + 1);
    bound = candidateAt(s, index + gaps * s.times.length, size);
  }
  return Math.min(bound, s.lastMs);
}
