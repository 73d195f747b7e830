/** Calendar dates and wall-clock minutes in an IANA zone, never the process's own zone. */
import { DAY_MS } from './civil';
import { instantOfWallClock, offsetMs, wallClock } from './zone';

export { DAY_MS };
export const MINUTE_MS = 60_000;

/** Midnight UTC of a YYYY-MM-DD date: the wall clock's own time line, where every day has 1440 minutes. */
const wallMidnight = (date: string) => Date.parse(`${date}T00:00:00Z`);

/** The date (YYYY-MM-DD) the wall clock shows at `epochMs` in `timeZone`. */
export const localDate = (epochMs: number, timeZone: string): string => wallClock(epochMs, timeZone).local.slice(0, 10);

/** Minutes since local midnight at `epochMs` in `timeZone` (0-1439). */
export function localMinute(epochMs: number, timeZone: string): number {
  const { local } = wallClock(epochMs, timeZone);
  return Number(local.slice(11, 13)) * 60 + Number(local.slice(14, 16));
}

export const addDays = (date: string, days: number): string => new Date(wallMidnight(date) + days * DAY_MS).toISOString().slice(0, 10);

/** Whole days from one date to another (negative when `to` is earlier). */
export const daysBetween = (from: string, to: string): number => Math.round((wallMidnight(to) - wallMidnight(from)) / DAY_MS);

/** ISO weekday of a date: 1 Monday … 7 Sunday. */
export const isoWeekday = (date: string): number => ((new Date(wallMidnight(date)).getUTCDay() + 6) % 7) + 1;

/** The Monday of a date's ISO week. */
export const mondayOf = (date: string): string => addDays(date, 1 - isoWeekday(date));

/**
 * The instant at which the wall clock in `timeZone` shows `date` plus `minuteOfDay` (1440 is the next midnight).
 * A time skipped by a forward change lands as far past the change as it was meant to be after it (02:30 on a
 * spring-forward night is 03:30); a time shown twice by a backward change is its earlier instant.
 */
export function epochAt(date: string, minuteOfDay: number, timeZone: string): number {
  const wall = wallMidnight(date) + minuteOfDay * MINUTE_MS;
  return instantOfWallClock(wall, timeZone) ?? wall - offsetMs(wall - DAY_MS, timeZone);
}

/** The instants of the minutes of one date in a zone (0-1440), for code that reads many minutes of one day. */
export const dayClock = (date: string, timeZone: string) => (minute: number): number => epochAt(date, minute, timeZone);

export interface LocalDay {
  date: string;
  start: number;
  end: number;
}

/** `count` consecutive dates from `firstDate`, each with its bounds in `timeZone` (23 or 25 hours on DST days). */
export function localDays(firstDate: string, count: number, timeZone: string): LocalDay[] {
  const out: LocalDay[] = [];
  let start = epochAt(firstDate, 0, timeZone);
  for (let i = 0; i < count; i++) {
    const date = addDays(firstDate, i);
    const end = epochAt(addDays(date, 1), 0, timeZone);
    out.push({ date, start, end });
    start = end;
  }
  return out;
}
