import { clip, mergeIntervals } from './intervals';
import { addDays, epochAt, isoWeekday, localDate } from '../time/local-time';
import type { Interval, WeeklyHours } from './types';

/** Monday to Friday, 09:00-17:00 in the owner's zone. */
export const DEFAULT_WORKING_HOURS: WeeklyHours = [1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 540, endMinute: 1020 }));

/** The same local hours on every day of the week. */
export const everyDay = (startMinute: number, endMinute: number): WeeklyHours =>
  [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, startMinute, endMinute }));

/**
 * The instants inside `range` that weekly local hours cover in `timeZone`, sorted and merged. Each date is read on
 * its own wall clock, so 09:00-17:00 stays 09:00-17:00 across DST changes (and is 8 hours long on those days too).
 */
export function localHoursIn(range: Interval, hours: WeeklyHours, timeZone: string): Interval[] {
  const out: Interval[] = [];
  for (let date = localDate(range.start, timeZone); epochAt(date, 0, timeZone) < range.end; date = addDays(date, 1)) {
    const weekday = isoWeekday(date);
    for (const h of hours) {
      if (h.day !== weekday) continue;
      const piece = clip({ start: epochAt(date, h.startMinute, timeZone), end: epochAt(date, h.endMinute, timeZone) }, range);
      if (piece) out.push(piece);
    }
  }
  return mergeIntervals(out);
}
