/** How the assistant writes dates, times and lengths in its replies: in the person's zone, 24-hour clock. */
import type { Interval } from '../availability/types';
import { localDate, MINUTE_MS, wallClock } from './calendar-time';

const dateParts = new Intl.DateTimeFormat('en-GB', { timeZone: 'UTC', weekday: 'short', day: 'numeric', month: 'short' });

/** "Tue 24 Nov" for a calendar date. */
export function dateLabel(date: string): string {
  const parts = Object.fromEntries(dateParts.formatToParts(Date.parse(`${date}T12:00:00Z`)).map((p) => [p.type, p.value]));
  return `${parts.weekday} ${parts.day} ${parts.month}`;
}

/** "09:30" on the wall clock of `timeZone`. */
export const clockLabel = (epochMs: number, timeZone: string) => wallClock(epochMs, timeZone).local.slice(11, 16);

/** "15:00" for a minute of the day. */
export const minuteLabel = (minute: number) => `${String(Math.floor(minute / 60)).padStart(2, '0')}:${String(minute % 60).padStart(2, '0')}`;

/** "09:00-09:45" (same date) or "23:00-01:00 (next day)". */
export function hoursLabel(span: Interval, timeZone: string): string {
  const next = localDate(span.end - 1, timeZone) !== localDate(span.start, timeZone) ? ' (next day)' : '';
  return `${clockLabel(span.start, timeZone)}-${clockLabel(span.end, timeZone)}${next}`;
}

/** "Tue 24 Nov, 09:00-09:45". */
export const spanLabel = (span: Interval, timeZone: string) => `${dateLabel(localDate(span.start, timeZone))}, ${hoursLabel(span, timeZone)}`;

/** "45 minutes", "1 hour", "1 h 30 min". */
export function lengthLabel(ms: number): string {
  const minutes = Math.round(ms / MINUTE_MS);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'}`;
  if (minutes % 60 === 0) return `${minutes / 60} hour${minutes === 60 ? '' : 's'}`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min`;
}
