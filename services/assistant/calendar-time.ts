/**
 * The date and wall-clock helpers the assistant uses, imported in this one place: dates are calendar dates of the
 * person's zone, instants epoch ms; nothing here reads the process's zone.
 */
export { addDays, DAY_MS, epochAt, isoWeekday, localDate, localMinute, MINUTE_MS } from '../time/local-time';
import { wallClock } from '../time/zone';
export { wallClock };

/** RFC 9557 text of an instant in a zone, e.g. `2026-10-23T09:00:00+02:00[Europe/Berlin]` (what the model is told). */
export function zonedText(epochMs: number, timeZone: string): string {
  const { local, offsetMinutes } = wallClock(epochMs, timeZone);
  const abs = Math.abs(offsetMinutes);
  const offset = `${offsetMinutes < 0 ? '-' : '+'}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${local}${offset}[${timeZone}]`;
}
