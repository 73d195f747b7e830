/**
 * A meeting type's hours as instants, and the days and weeks its limits count in, all on the owner's wall clock:
 * the weekly `hours`, except on dates with a `dateOverrides` entry, whose hours (none: a day off) replace them.
 */
import type { DateOverride, Limits } from '../../contracts/booking-options';
import type { MeetingType } from '../../contracts/bookings';
import { clip, mergeIntervals } from '../../services/availability/intervals';
import type { Interval } from '../../services/availability/types';
import { addDays, epochAt, isoWeekday, localDate } from '../../services/time/local-time';

export type HoursRules = Pick<MeetingType, 'hours' | 'dateOverrides'>;

/** The hours of each overridden date (entries of one date add up). */
function overridesByDate(overrides: readonly DateOverride[]): Map<string, DateOverride['hours']> {
  const out = new Map<string, DateOverride['hours']>();
  for (const o of overrides) out.set(o.date, [...(out.get(o.date) ?? []), ...o.hours]);
  return out;
}

/** The instants inside `range` the type may be booked at, sorted and merged; DST days keep their wall-clock hours. */
export function meetingHoursIn(range: Interval, rules: HoursRules, timeZone: string): Interval[] {
  const overrides = overridesByDate(rules.dateOverrides);
  const out: Interval[] = [];
  for (let date = localDate(range.start, timeZone); epochAt(date, 0, timeZone) < range.end; date = addDays(date, 1)) {
    const weekday = isoWeekday(date);
    const hours = overrides.get(date) ?? rules.hours.filter((h) => h.day === weekday);
    for (const h of hours) {
      const piece = clip({ start: epochAt(date, h.startMinute, timeZone), end: epochAt(date, h.endMinute, timeZone) }, range);
      if (piece) out.push(piece);
    }
  }
  return mergeIntervals(out);
}

export interface LimitSpan extends Interval {
  reason: 'day_limit' | 'week_limit';
  max: number;
}

/** The day and the week (from the owner's `weekStartsOn`, 0 Sunday … 6 Saturday) around `at` that a limit counts in. */
export function limitSpans(at: number, limits: Limits, timeZone: string, weekStartsOn: number): LimitSpan[] {
  const date = localDate(at, timeZone);
  const out: LimitSpan[] = [];
  if (limits.perDay !== null) out.push({ reason: 'day_limit', max: limits.perDay, start: epochAt(date, 0, timeZone), end: epochAt(addDays(date, 1), 0, timeZone) });
  if (limits.perWeek !== null) {
    const daysIntoWeek = ((isoWeekday(date) % 7) - weekStartsOn + 7) % 7;
    const first = addDays(date, -daysIntoWeek);
    out.push({ reason: 'week_limit', max: limits.perWeek, start: epochAt(first, 0, timeZone), end: epochAt(addDays(first, 7), 0, timeZone) });
  }
  return out;
}
