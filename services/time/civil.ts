/** Proleptic Gregorian calendar arithmetic on epoch days (days since 1970-01-01), free of any time zone. */
export const DAY_MS = 86_400_000;
export const HOUR_MS = 3_600_000;

export interface CivilDate {
  year: number;
  month: number;
  day: number;
}

export const isLeapYear = (y: number) => (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
export const daysInYear = (y: number) => (isLeapYear(y) ? 366 : 365);
export const daysInMonth = (y: number, m: number) => (m === 2 ? (isLeapYear(y) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31);

export const epochDay = (y: number, m: number, d: number) => Math.floor(Date.UTC(y, m - 1, d) / DAY_MS);

export function civil(day: number): CivilDate {
  const date = new Date(day * DAY_MS);
  return { year: date.getUTCFullYear(), month: date.getUTCMonth() + 1, day: date.getUTCDate() };
}

/** ISO weekday of an epoch day: Monday 1 ... Sunday 7 (1970-01-01 was a Thursday). */
export const isoWeekday = (day: number) => ((((day + 3) % 7) + 7) % 7) + 1;

/** First day of the week (starting on `weekStart`, ISO 1-7) that contains `day`. */
export const startOfWeek = (day: number, weekStart: number) => day - ((isoWeekday(day) - weekStart + 7) % 7);
