/**
 * A recurring event compiled from its parsed rule, and the periods it runs through: each period's candidate starts
 * on the wall clock of the event's zone, in work proportional to the days it spans. An open series starts at the
 * period holding a window; a COUNT series counts from its first period and never runs past the horizon.
 */
import { RECURRENCE_LIMITS } from '../../contracts/events';
import { civil, type CivilDate, DAY_MS, daysInMonth, daysInYear, epochDay, HOUR_MS, isoWeekday, startOfWeek } from './civil';
import { parseRule, type Rule } from './rrule';
import { instantOfWallClock, offsetMs } from './zone';

export interface Recurring {
  startsAt: string;
  endsAt: string;
  timeZone: string;
  recurrenceRule: string | null;
}

export const YEARS = RECURRENCE_LIMITS.horizonYears;
/** How far after startsAt UNTIL, the end of a COUNT series and the first occurrence may lie. */
export const HORIZON_MS = Math.ceil(YEARS * 365.25) * DAY_MS;

export interface Series {
  rule: Rule;
  zone: string;
  startMs: number;
  /** The last instant an occurrence may start: UNTIL, or the horizon for a COUNT series. */
  lastMs: number;
  start: CivilDate;
  startDay: number;
  /** Start times of the rule, ascending: ms into the day (or into the hour, for HOURLY), in wall-clock time. */
  times: number[];
  matches(day: number): boolean;
}

export type Compiled = { series: Series } | { problem: string };

export const mod = (a: number, b: number) => ((a % b) + b) % b;
const localDay = (ms: number, zone: string) => Math.floor((ms + offsetMs(ms, zone)) / DAY_MS);
/** The instant a wall time shows; one skipped by the spring change maps to just after the change. */
export const latestInstant = (local: number, zone: string) =>
  instantOfWallClock(local, zone) ?? local - offsetMs(local - DAY_MS, zone);

function week1Start(year: number, weekStart: number): number {
  const jan1 = epochDay(year, 1, 1);
  const first = startOfWeek(jan1, weekStart);
  return jan1 - first <= 3 ? first : first + 7; // week 1 has at least four days of the year
}

/** Does a day pass the rule's date parts (with the RFC defaults taken from the start)? */
function dayMatcher(r: Rule, start: CivilDate, startDay: number): (day: number) => boolean {
  const set = (values: number[] | null) => (values ? new Set(values) : null);
  const datePartsGiven = r.byWeekNo || r.byYearDay || r.byMonthDay || r.byDay;
  const months = set(r.byMonth ?? (r.freq === 'YEARLY' && !datePartsGiven ? [start.month] : null));
  const monthDays = set(
    r.byMonthDay ?? ((r.freq === 'MONTHLY' && !r.byDay) || (r.freq === 'YEARLY' && !datePartsGiven) ? [start.day] : null),
  );
  const yearDays = set(r.byYearDay);
  const weekNos = set(r.byWeekNo);
  const plainDays = set(r.byDay?.filter((d) => d.nth === 0).map((d) => d.weekday) ?? (r.freq === 'WEEKLY' ? [isoWeekday(startDay)] : null));
  const ranked = r.byDay?.filter((d) => d.nth !== 0) ?? [];
  const rankInMonth = r.freq === 'MONTHLY' || (r.freq === 'YEARLY' && r.byMonth !== null);

  const weekNoMatches = (day: number, year: number) => {
    let y = year;
    if (day < week1Start(y, r.weekStart)) y--;
    else if (day >= week1Start(y + 1, r.weekStart)) y++;
    const first = week1Start(y, r.weekStart);
    const weeks = (week1Start(y + 1, r.weekStart) - first) / 7;
    const n = Math.floor((day - first) / 7) + 1;
    return weekNos!.has(n) || weekNos!.has(n - weeks - 1);
  };

  return (day) => {
    const c = civil(day);
    if (months && !months.has(c.month)) return false;
    const monthLength = daysInMonth(c.year, c.month);
    if (monthDays && !monthDays.has(c.day) && !monthDays.has(c.day - monthLength - 1)) return false;
    const yearDay = day - epochDay(c.year, 1, 1) + 1;
    const yearLength = daysInYear(c.year);
    if (yearDays && !yearDays.has(yearDay) && !yearDays.has(yearDay - yearLength - 1)) return false;
    if (weekNos && !weekNoMatches(day, c.year)) return false;
    if (!plainDays && ranked.length === 0) return true;
    const weekday = isoWeekday(day);
    if (plainDays?.has(weekday)) return true;
    const [i, length] = rankInMonth ? [c.day, monthLength] : [yearDay, yearLength];
    return ranked.some((d) => d.weekday === weekday && (d.nth > 0 ? Math.ceil(i / 7) === d.nth : Math.ceil((length - i + 1) / 7) === -d.nth));
  };
}

function compile(ev: Recurring & { recurrenceRule: string }): Compiled {
  const parsed = parseRule(ev.recurrenceRule);
  if ('problem' in parsed) return parsed;
  const { rule } = parsed;
  const zone = ev.timeZone;
  const startMs = Date.parse(ev.startsAt);
  const startLocal = startMs + offsetMs(startMs, zone);
  const startDay = Math.floor(startLocal / DAY_MS);
  const ofDay = startLocal - startDay * DAY_MS;
  const subSecond = mod(startLocal, 1000);
  const pick = (given: number[] | null, fromStart: number) => given ?? [fromStart];
  const inHour = pick(rule.byMinute, Math.floor(mod(ofDay, HOUR_MS) / 60_000)).flatMap((m) =>
    pick(rule.bySecond, Math.floor(mod(ofDay, 60_000) / 1000)).map((s) => m * 60_000 + s * 1000 + subSecond),
  );
  const hours = rule.freq === 'HOURLY' ? [0] : pick(rule.byHour, Math.floor(ofDay / HOUR_MS));
  const times = hours.flatMap((h) => inHour.map((t) => h * HOUR_MS + t)).sort((a, b) => a - b);
  let untilMs = Number.POSITIVE_INFINITY;
  if (rule.until) {
    untilMs = 'utcMs' in rule.until ? rule.until.utcMs : latestInstant(rule.until.localMs + (rule.until.wholeDay ? DAY_MS - 1 : 0), zone);
    if (untilMs < startMs) return { problem: 'UNTIL is before startsAt' };
    if (untilMs > startMs + HORIZON_MS) return { problem: `UNTIL may be at most ${YEARS} years after startsAt` };
  }
  const start = civil(startDay);
  return {
    series: {
      rule, zone, startMs, start, startDay, times,
      lastMs: Math.min(untilMs, rule.count === null ? Number.POSITIVE_INFINITY : startMs + HORIZON_MS),
      matches: dayMatcher(rule, start, startDay),
    },
  };
}

const compiled = new WeakMap<Recurring, Compiled>();

/** The compiled rule of a recurring event (cached per event object), or null for a single event. */
export function seriesOf(ev: Recurring): Compiled | null {
  if (!ev.recurrenceRule) return null;
  let c = compiled.get(ev);
  if (!c) compiled.set(ev, (c = compile(ev as Recurring & { recurrenceRule: string })));
  return c;
}


function bySetPos(positions: number[] | null, candidates: number[]): number[] {
  if (!positions) return candidates;
  const picked = positions.map((p) => candidates[p > 0 ? p - 1 : candidates.length + p]).filter((v) => v !== undefined);
  return [...new Set(picked)].sort((a, b) => a - b);
}

/** First and last epoch day of day-based period `k` (DAILY, WEEKLY, MONTHLY, YEARLY). */
export function periodDays(s: Series, k: number): [number, number] {
  const step = k * s.rule.interval;
  switch (s.rule.freq) {
    case 'DAILY':
      return [s.startDay + step, s.startDay + step];
    case 'WEEKLY': {
      const first = startOfWeek(s.startDay, s.rule.weekStart) + 7 * step;
      return [first, first + 6];
    }
    case 'MONTHLY': {
      const abs = s.start.year * 12 + s.start.month - 1 + step;
      const [y, m] = [Math.floor(abs / 12), mod(abs, 12) + 1];
      return [epochDay(y, m, 1), epochDay(y, m, daysInMonth(y, m))];
    }
    default:
      return [epochDay(s.start.year + step, 1, 1), epochDay(s.start.year + step, 12, 31)];
  }
}

/** Index of the day-based period holding `day` (0 when before the first). */
function periodAt(s: Series, day: number): number {
  const i = s.rule.interval;
  const c = civil(day);
  let periods: number;
  if (s.rule.freq === 'DAILY') periods = (day - s.startDay) / i;
  else if (s.rule.freq === 'WEEKLY') periods = (day - startOfWeek(s.startDay, s.rule.weekStart)) / (7 * i);
  else if (s.rule.freq === 'MONTHLY') periods = (c.year * 12 + c.month - (s.start.year * 12 + s.start.month)) / i;
  else periods = (c.year - s.start.year) / i;
  return Math.max(0, Math.floor(periods));
}

/** Candidate starts of day-based period `k` within days [lo, hi], ascending, after BYSETPOS. */
export function dayPeriod(s: Series, k: number, lo = -Infinity, hi = Infinity): number[] {
  const [first, last] = periodDays(s, k);
  const out: number[] = [];
  for (let day = Math.max(first, lo); day <= Math.min(last, hi); day++) {
    if (!s.matches(day)) continue;
    // Most days keep one offset from the day before to the day after: their wall times map without a lookup each.
    const offset = offsetMs(day * DAY_MS - DAY_MS, s.zone);
    const steady = offset === offsetMs(day * DAY_MS + 2 * DAY_MS, s.zone);
    for (const t of s.times) {
      const at = steady ? day * DAY_MS + t - offset : instantOfWallClock(day * DAY_MS + t, s.zone);
      if (at !== null) out.push(at);
    }
  }
  return bySetPos(s.rule.bySetPos, out);
}

/** HOURLY periods from `fromMs` until `stopMs`: hours DTSTART + k x INTERVAL in exact time, skipping refused days. */
export function* hourlyPeriods(s: Series, fromMs: number, stopMs: number): Generator<number[]> {
  const step = s.rule.interval * HOUR_MS;
  const byHour = s.rule.byHour ? new Set(s.rule.byHour) : null;
  let k = Math.max(0, Math.floor((fromMs - s.startMs) / step) - 1);
  let checkedDay = Number.NaN;
  let dayOk = false;
  for (;;) {
    const anchor = s.startMs + k * step;
    if (anchor - HOUR_MS >= stopMs) return;
    const offset = offsetMs(anchor, s.zone);
    const local = anchor + offset;
    const day = Math.floor(local / DAY_MS);
    if (day !== checkedDay) [checkedDay, dayOk] = [day, s.matches(day)];
    if (!dayOk) {
      k = Math.max(k + 1, Math.ceil(((day + 1) * DAY_MS - offset - HOUR_MS - s.startMs) / step));
      continue;
    }
    k++;
    if (byHour && !byHour.has(Math.floor((local - day * DAY_MS) / HOUR_MS))) continue;
    if (!s.rule.byMinute && !s.rule.bySecond) {
      yield [anchor]; // the period itself, in exact time (a 30-minute DST shift moves its wall minute)
      continue;
    }
    const hourStart = local - mod(local, HOUR_MS);
    const starts = s.times.map((t) => instantOfWallClock(hourStart + t, s.zone)).filter((at) => at !== null);
    yield bySetPos(s.rule.bySetPos, starts);
  }
}

/** The rule's periods, each as its candidate starts, from the one holding `fromMs` (or the first) until `stopMs`. */
function* periods(s: Series, fromMs: number, stopMs: number, fromFirst: boolean): Generator<number[]> {
  if (s.rule.freq === 'HOURLY') return yield* hourlyPeriods(s, fromFirst ? s.startMs : fromMs, stopMs);
  const fromDay = localDay(fromMs, s.zone) - 1;
  const toDay = localDay(stopMs, s.zone) + 1;
  const clip = !fromFirst && !s.rule.bySetPos; // BYSETPOS counts within whole periods
  for (let k = fromFirst ? 0 : periodAt(s, fromDay); ; k++) {
    if (periodDays(s, k)[0] * DAY_MS - 15 * HOUR_MS >= stopMs) return;
    yield clip ? dayPeriod(s, k, fromDay, toDay) : dayPeriod(s, k);
  }
}

/** Occurrence starts in [fromMs, toMs), ascending. COUNT series are counted from the first period. */
export function* startsOf(s: Series, fromMs: number, toMs: number): Generator<number> {
  const stop = Math.min(toMs, s.lastMs + 1);
  const { count } = s.rule;
  let n = 0;
  for (const period of periods(s, fromMs, stop, count !== null)) {
    for (const at of period) {
      if (at < s.startMs) continue;
      if (at >= stop) return;
      if (count !== null && ++n > count) return;
      if (at >= fromMs) yield at;
    }
  }
}
