/**
 * Calendar weeks in a user's IANA zone. Weeks start on Monday (ISO 8601) and are named by that Monday's date, so a
 * week key is the same whatever zone computed it; its instants are the zone's local midnights.
 */
import { wallClock } from './zone';

const DAY_MS = 86_400_000;

/** The local date (`YYYY-MM-DD`) of an instant in a zone. */
export const localDate = (epochMs: number, timeZone: string): string => wallClock(epochMs, timeZone).local.slice(0, 10);

export function addDays(date: string, days: number): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

/** ISO weekday of a date: Monday 1 … Sunday 7. */
export const isoWeekday = (date: string): number => new Date(`${date}T00:00:00Z`).getUTCDay() || 7;

export const mondayOf = (date: string): string => addDays(date, 1 - isoWeekday(date));

/** The instant the date begins in the zone (where midnight is skipped by DST: the first instant of that day). */
export function startOfDay(date: string, timeZone: string): number {
  const asUtc = Date.parse(`${date}T00:00:00Z`);
  let guess = asUtc - wallClock(asUtc, timeZone).offsetMinutes * 60_000;
  guess = asUtc - wallClock(guess, timeZone).offsetMinutes * 60_000;
  return localDate(guess, timeZone) < date ? guess + 3_600_000 : guess;
}

export interface Week {
  /** The Monday that names the week. */
  monday: string;
  start: number;
  end: number;
}

export function weekOf(monday: string, timeZone: string): Week {
  return { monday, start: startOfDay(monday, timeZone), end: startOfDay(addDays(monday, 7), timeZone) };
}

/** The week an instant falls in, in the zone. */
export const weekAt = (epochMs: number, timeZone: string): Week => weekOf(mondayOf(localDate(epochMs, timeZone)), timeZone);

/** Minutes of [start, end) inside [from, to). */
export const overlapMinutes = (start: number, end: number, from: number, to: number): number =>
  Math.max(0, Math.min(end, to) - Math.max(start, from)) / 60_000;
