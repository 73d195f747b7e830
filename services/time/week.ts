/**
 * Calendar weeks in a user's IANA zone. Weeks start on Monday (ISO 8601) and are named by that Monday's date, so a
 * week key is the same whatever zone computed it; its instants are the zone's local midnights.
 */
import { addDays, epochAt, localDate, mondayOf } from './local-time';

export interface Week {
  /** The Monday that names the week. */
  readonly monday: string;
  readonly start: number;
  readonly end: number;
}

/** Weeks computed lately, by zone and Monday; projections and queries ask for the same few again and again. */
const weeks = new Map<string, Week>();
/** The week each zone was last asked about by instant: consecutive instants mostly fall in it. */
const lastWeekIn = new Map<string, Week>();
const WEEKS_KEPT = 4096;

function remember<K, V>(map: Map<K, V>, key: K, value: V): V {
  if (map.size >= WEEKS_KEPT) map.clear();
  map.set(key, value);
  return value;
}

export function weekOf(monday: string, timeZone: string): Week {
  const key = `${timeZone} ${monday}`;
  return (
    weeks.get(key) ??
    remember(weeks, key, Object.freeze({ monday, start: epochAt(monday, 0, timeZone), end: epochAt(addDays(monday, 7), 0, timeZone) }))
  );
}

/** The week an instant falls in, in the zone. */
export function weekAt(epochMs: number, timeZone: string): Week {
  const last = lastWeekIn.get(timeZone);
  if (last && epochMs >= last.start && epochMs < last.end) return last;
  return remember(lastWeekIn, timeZone, weekOf(mondayOf(localDate(epochMs, timeZone)), timeZone));
}

/** Minutes of [start, end) inside [from, to). */
export const overlapMinutes = (start: number, end: number, from: number, to: number): number =>
  Math.max(0, Math.min(end, to) - Math.max(start, from)) / 60_000;
