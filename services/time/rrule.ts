/**
 * An RRULE (RFC 5545 3.3.10) parsed once into the one structure that validation and expansion share. Parsing refuses
 * what the service does not expand: unknown or repeated parts, malformed values, SECONDLY and MINUTELY, and lists
 * whose cost per day is past RECURRENCE_LIMITS, so no rule is ever enumerated before its cost is known to be small.
 */
import { RECURRENCE_LIMITS as LIMITS } from '../../contracts/events';
import { daysInMonth } from './civil';

export type Freq = 'HOURLY' | 'DAILY' | 'WEEKLY' | 'MONTHLY' | 'YEARLY';

/** A BYDAY entry: ISO weekday (Monday 1) and, for MONTHLY and YEARLY, its rank in the month or year (0: every one). */
export interface ByDay {
  weekday: number;
  nth: number;
}

/** UNTIL as given: an instant (`...Z`), or a wall-clock time (as if UTC) in the event's zone, or a whole local date. */
export type Until = { utcMs: number } | { localMs: number; wholeDay: boolean };

export interface Rule {
  freq: Freq;
  interval: number;
  count: number | null;
  until: Until | null;
  bySecond: number[] | null;
  byMinute: number[] | null;
  byHour: number[] | null;
  byDay: ByDay[] | null;
  byMonthDay: number[] | null;
  byYearDay: number[] | null;
  byWeekNo: number[] | null;
  byMonth: number[] | null;
  bySetPos: number[] | null;
  weekStart: number;
}

export type ParsedRule = { rule: Rule } | { problem: string };

const FREQS: readonly Freq[] = ['HOURLY', 'DAILY', 'WEEKLY', 'MONTHLY', 'YEARLY'];
const WEEKDAYS = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'];
const PARTS = [
  'FREQ', 'INTERVAL', 'COUNT', 'UNTIL', 'BYSECOND', 'BYMINUTE', 'BYHOUR', 'BYDAY', 'BYMONTHDAY', 'BYYEARDAY',
  'BYWEEKNO', 'BYMONTH', 'BYSETPOS', 'WKST',
] as const;
type PartName = (typeof PARTS)[number];

class Refused extends Error {}
const refuse = (problem: string): never => {
  throw new Refused(problem);
};

function integer(part: string, text: string, min: number, max: number, signed = false): number {
  if (!/^[+-]?\d{1,12}$/.test(text)) refuse(`${part} value "${text.slice(0, 20)}" is not a whole number`);
  const n = Number(text);
  const ok = signed ? Math.abs(n) >= min && Math.abs(n) <= max : n >= min && n <= max;
  if (!ok) refuse(`${part} values must be ${signed ? `${min} to ${max} or -${max} to -${min}` : `${min} to ${max}`} (got ${text})`);
  return n;
}

function list<T>(part: string, text: string, item: (value: string) => T, key: (v: T) => string | number = (v) => String(v)): T[] {
  const values = text.split(',').map((v) => {
    if (v === '') refuse(`${part} has an empty value`);
    return item(v);
  });
  if (values.length > LIMITS.maxValuesPerPart) refuse(`${part} may list at most ${LIMITS.maxValuesPerPart} values`);
  if (new Set(values.map(key)).size !== values.length) refuse(`${part} lists a value twice`);
  return values;
}

function weekday(part: string, text: string): number {
  const i = WEEKDAYS.indexOf(text);
  if (i < 0) refuse(`${part} value "${text}" is not a weekday (MO to SU)`);
  return i + 1;
}

function byDay(text: string, freq: Freq, hasWeekNo: boolean): ByDay[] {
  return list(
    'BYDAY',
    text,
    (v) => {
      const m = /^([+-]?\d{1,2})?([A-Z]{2})$/.exec(v);
      if (!m) return refuse(`BYDAY value "${v}" is not a weekday with an optional rank (MO, 2TU, -1FR)`);
      const nth = m[1] === undefined ? 0 : integer('BYDAY rank', m[1], 1, freq === 'MONTHLY' ? 5 : 53, true);
      if (nth !== 0 && (!['MONTHLY', 'YEARLY'].includes(freq) || hasWeekNo)) {
        refuse('BYDAY ranks (such as 2TU) need FREQ=MONTHLY or FREQ=YEARLY without BYWEEKNO');
      }
      return { weekday: weekday('BYDAY', m[2]), nth };
    },
    (d) => `${d.nth}${d.weekday}`,
  );
}

function until(text: string): Until {
  const m = /^(\d{4})(\d{2})(\d{2})(?:T(\d{2})(\d{2})(\d{2})(Z)?)?$/.exec(text);
  if (!m) return refuse('UNTIL must be YYYYMMDD or YYYYMMDDTHHMMSSZ');
  const [y, mo, d, h = 0, mi = 0, s = 0] = m.slice(1, 7).map((v) => (v === undefined ? undefined : Number(v))) as number[];
  if (mo < 1 || mo > 12 || d < 1 || d > daysInMonth(y, mo) || h > 23 || mi > 59 || s > 59) refuse(`UNTIL ${text} is not a real date and time`);
  const ms = Date.UTC(y, mo - 1, d, h, mi, s);
  if (m[7]) return { utcMs: ms };
  return { localMs: ms, wholeDay: m[4] === undefined };
}

function parts(text: string): Map<PartName, string> {
  const found = new Map<PartName, string>();
  const segments = text.split(';');
  if (segments[segments.length - 1] === '') segments.pop(); // a trailing semicolon
  for (const segment of segments) {
    const m = /^([A-Z-]+)=(.+)$/.exec(segment);
    if (!m) refuse(`"${segment.slice(0, 40)}" is not a NAME=VALUE part`);
    const [, name, value] = m!;
    if (name === 'DTSTART') refuse('must not contain DTSTART (startsAt is the first occurrence)');
    if (!(PARTS as readonly string[]).includes(name)) refuse(`unknown part ${name.slice(0, 40)}`);
    if (found.has(name as PartName)) refuse(`${name} is given twice`);
    found.set(name as PartName, value);
  }
  return found;
}

/** Start times per day the rule can produce: the cost that MINUTELY-like rules multiply. */
function startsPerDay(r: Rule): number {
  const hours = r.freq === 'HOURLY' ? Math.min(r.byHour?.length ?? 24, Math.ceil(24 / r.interval)) : (r.byHour?.length ?? 1);
  return hours * (r.byMinute?.length ?? 1) * (r.bySecond?.length ?? 1);
}

/** Start times one period can hold (BYSETPOS looks at all of them): its days times the start times of a day. */
function setPosCandidates(r: Rule): number {
  if (r.freq === 'HOURLY') return (r.byMinute?.length ?? 1) * (r.bySecond?.length ?? 1);
  const days = { DAILY: 1, WEEKLY: 7, MONTHLY: 31, YEARLY: r.byMonth ? 31 * r.byMonth.length : 366 }[r.freq];
  return days * startsPerDay(r);
}

function build(text: string): Rule {
  if (/[\r\n]/.test(text)) refuse('must be a single line');
  if (/DTSTART/.test(text)) refuse('must not contain DTSTART (startsAt is the first occurrence)');
  const p = parts(text.replace(/^RRULE:/, ''));
  const freqText = p.get('FREQ');
  if (freqText === undefined) return refuse('must have FREQ');
  if (freqText === 'SECONDLY' || freqText === 'MINUTELY') refuse(`FREQ=${freqText} is not supported (at most hourly)`);
  const freq = FREQS.find((f) => f === freqText) ?? refuse(`FREQ=${freqText.slice(0, 20)} is not a frequency`);
  const ints = (name: PartName, min: number, max: number, signed = false) => {
    const v = p.get(name);
    return v === undefined ? null : list(name, v, (x) => integer(name, x, min, max, signed));
  };
  const only = (name: PartName, allowed: Freq[]) => {
    if (p.has(name) && !allowed.includes(freq)) refuse(`${name} cannot be used with FREQ=${freq}`);
  };
  only('BYWEEKNO', ['YEARLY']);
  only('BYYEARDAY', ['HOURLY', 'YEARLY']);
  only('BYMONTHDAY', ['HOURLY', 'DAILY', 'MONTHLY', 'YEARLY']);
  if (p.has('COUNT') && p.has('UNTIL')) refuse('COUNT and UNTIL cannot both be given');
  const rule: Rule = {
    freq,
    interval: p.has('INTERVAL') ? integer('INTERVAL', p.get('INTERVAL')!, 1, LIMITS.maxInterval) : 1,
    count: p.has('COUNT') ? integer('COUNT', p.get('COUNT')!, 1, LIMITS.maxCount) : null,
    until: p.has('UNTIL') ? until(p.get('UNTIL')!) : null,
    bySecond: ints('BYSECOND', 0, 59),
    byMinute: ints('BYMINUTE', 0, 59),
    byHour: ints('BYHOUR', 0, 23),
    byDay: p.has('BYDAY') ? byDay(p.get('BYDAY')!, freq, p.has('BYWEEKNO')) : null,
    byMonthDay: ints('BYMONTHDAY', 1, 31, true),
    byYearDay: ints('BYYEARDAY', 1, 366, true),
    byWeekNo: ints('BYWEEKNO', 1, 53, true),
    byMonth: ints('BYMONTH', 1, 12),
    bySetPos: ints('BYSETPOS', 1, 366, true),
    weekStart: p.has('WKST') ? weekday('WKST', p.get('WKST')!) : 1,
  };
  if (rule.bySetPos && ![...p.keys()].some((n) => n.startsWith('BY') && n !== 'BYSETPOS')) {
    refuse('BYSETPOS needs another BY part to select from');
  }
  if (startsPerDay(rule) > LIMITS.maxStartsPerDay) refuse(`may produce at most ${LIMITS.maxStartsPerDay} start times per day`);
  if (rule.bySetPos && setPosCandidates(rule) > LIMITS.maxSetPosCandidates) {
    refuse(`BYSETPOS may choose among at most ${LIMITS.maxSetPosCandidates} start times a period`);
  }
  return rule;
}

/** Parses and checks a rule's text (names and values are case-insensitive); never expands it. */
export function parseRule(text: string): ParsedRule {
  try {
    return { rule: build(text.trim().toUpperCase()) };
  } catch (err) {
    if (err instanceof Refused) return { problem: err.message };
    throw err;
  }
}
