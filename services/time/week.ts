/**
 * Calendar weeks in a user's IANA zone. Weeks start on Monday (ISO 8601) and are named by that Monday's date, so a
 * week key is the same whatever zone computed it; its instants are the zone's local midnights.
 */
import { addDays, epochAt, localDate, mondayOf } from './local-time';

export interface Week {
  /** The Monday that names the week. */
  monday: string;
  start: number;
  end: number;
}

export function weekOf(monday: string, timeZone: string): Week {
  return { monday, start: epochAt(monday, 0, timeZone), end: epochAt(addDays(monday, 7), 0, timeZone) };
}

/** The week an instant falls in, in the zone. */
export const weekAt = (epochMs: number, timeZone: string): Week => weekOf(mondayOf(localDate(epochMs, timeZone)), timeZone);

/** Minutes of [start, end) inside [from, to). */
export const overlapMinutes = (start: number, end: number, from: number, to: number): number =>
  Math.max(0, Math.min(end, to) - Math.max(start, from)) / 60_000;
