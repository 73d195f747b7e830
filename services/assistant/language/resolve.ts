/** Days and weeks of a request as calendar dates, counted from the person's "today" (zone-free date arithmetic). */
import { addDays, isoWeekday } from '../calendar-time';
import type { DayRef, WeekRef } from './phrases';

export function resolveDay(ref: DayRef, today: string): string {
  if (ref.kind === 'offset') return addDays(today, ref.days);
  const ahead = (ref.weekday - isoWeekday(today) + 7) % 7;
  return addDays(today, ahead === 0 && !ref.includeToday ? 7 : ahead);
}

/** First date and number of days; `weekStartsOn` as the profile says (0 Sunday … 6 Saturday). */
export function resolveWeek(ref: WeekRef, today: string, weekStartsOn: number): { from: string; days: number } {
  const weekday = isoWeekday(today) % 7;
  const left = 7 - ((weekday - weekStartsOn + 7) % 7);
  if (ref === 'this_week') return { from: today, days: left };
  if (ref === 'next_week') return { from: addDays(today, left), days: 7 };
  if (weekday === 6) return { from: today, days: 2 };
  if (weekday === 0) return { from: today, days: 1 };
  return { from: addDays(today, 6 - weekday), days: 2 };
}
