/** Wall-clock views of instants in IANA zones, from Intl alone (never the process's own zone). */
import { DAY_MS as DAY } from './civil';

const formatters = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat {
  let f = formatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone, hourCycle: 'h23', era: 'short', year: 'numeric', month: '2-digit', day: '2-digit',
      hour: '2-digit', minute: '2-digit', second: '2-digit',
    });
    formatters.set(timeZone, f);
  }
  return f;
}

/** ISO 8601 year text (1 BC is 0000; beyond four digits, signed six) from Intl's year and era. */
function isoYear(year: number, era: string): string {
  const iso = era === 'BC' ? 1 - year : year;
  if (iso >= 0 && iso <= 9999) return String(iso).padStart(4, '0');
  return `${iso < 0 ? '-' : '+'}${String(Math.abs(iso)).padStart(6, '0')}`;
}

/**
 * The wall clock at `epochMs` in `timeZone`, as `YYYY-MM-DDTHH:mm:ss`, and the zone's UTC offset in minutes. From the
 * memoized offset (projections ask for many instants of one zone); by Intl alone at the ends of the Date range.
 */
export function wallClock(epochMs: number, timeZone: string): { local: string; offsetMinutes: number } {
  if (Math.abs(epochMs) <= MAX_DATE_MS) {
    const offset = offsetMs(epochMs, timeZone);
    const iso = new Date(epochMs + offset).toISOString(); // years beyond 0000-9999 come signed, six digits, as ISO says
    return { local: iso.slice(0, iso.length - 5), offsetMinutes: Math.round(offset / 60_000) };
  }
  return wallClockByIntl(epochMs, timeZone);
}

/** The wall clock read from Intl for this one instant (what the memoized wallClock must agree with). */
export function wallClockByIntl(epochMs: number, timeZone: string): { local: string; offsetMinutes: number } {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(new Date(epochMs)).map((p) => [p.type, p.value]));
  const local = `${isoYear(Number(parts.year), parts.era)}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  const wholeSeconds = Math.floor(epochMs / 1000) * 1000;
  return { local, offsetMinutes: Math.round((Date.parse(`${local}Z`) - wholeSeconds) / 60_000) };
}

const offsetFormatters = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at `epochMs`, in ms (one Intl call: `GMT+05:30`, `GMT-04:00`, `GMT+00:53:28`, `GMT`). */
function rawOffsetMs(epochMs: number, timeZone: string): number {
  let f = offsetFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'longOffset' });
    offsetFormatters.set(timeZone, f);
  }
  const m = /GMT(?:([+-])(\d{2}):(\d{2})(?::(\d{2}))?)?$/.exec(f.format(epochMs));
  if (!m?.[1]) return 0;
  const ms = ((Number(m[2]) * 60 + Number(m[3])) * 60 + Number(m[4] ?? 0)) * 1000;
  return m[1] === '-' ? -ms : ms;
}

const WEEK = 7 * DAY;
const MAX_DATE_MS = 8.64e15 - 2 * WEEK;
/** Per zone, per UTC week and per UTC day: the offset when it is the same at both ends, else NaN (a change inside). */
const spanOffsets = new Map<string, { weeks: Map<number, number>; days: Map<number, number> }>();
/** The last steady week looked up: a scan through a series asks about the same week again and again. */
let lastWeek = { timeZone: '', index: Number.NaN, offset: 0 };

function spanOffset(spans: Map<number, number>, timeZone: string, length: number, index: number): number {
  let offset = spans.get(index);
  if (offset === undefined) {
    const first = rawOffsetMs(index * length, timeZone);
    offset = first === rawOffsetMs(index * length + length - 1, timeZone) ? first : Number.NaN;
    if (spans.size >= 20_000) spans.clear();
    spans.set(index, offset);
  }
  return offset;
}

/**
 * The zone's offset from UTC at `instant`, in ms. Memoized per UTC week and day (no zone changes its offset twice
 * within a week), so expanding a series costs few Intl calls.
 */
export function offsetMs(instant: number, timeZone: string): number {
  const epochMs = Math.min(Math.max(instant, -MAX_DATE_MS), MAX_DATE_MS); // Intl refuses instants past the Date range
  const week = Math.floor(epochMs / WEEK);
  if (week === lastWeek.index && timeZone === lastWeek.timeZone) return lastWeek.offset;
  let spans = spanOffsets.get(timeZone);
  if (!spans) spanOffsets.set(timeZone, (spans = { weeks: new Map(), days: new Map() }));
  const weekly = spanOffset(spans.weeks, timeZone, WEEK, week);
  if (!Number.isNaN(weekly)) {
    lastWeek = { timeZone, index: week, offset: weekly };
    return weekly;
  }
  const daily = spanOffset(spans.days, timeZone, DAY, Math.floor(epochMs / DAY));
  return Number.isNaN(daily) ? rawOffsetMs(epochMs, timeZone) : daily;
}

/**
 * The instant at which the wall clock of `timeZone` shows `localMs` (a wall-clock time written as if it were UTC).
 * A time that occurs twice (the autumn change) is its first instant; a time that never occurs (skipped by the spring
 * change) is null.
 */
export function instantOfWallClock(localMs: number, timeZone: string): number | null {
  const before = offsetMs(localMs - DAY, timeZone);
  const after = offsetMs(localMs + DAY, timeZone);
  let best: number | null = null;
  for (const offset of before === after ? [before] : [before, after]) {
    const instant = localMs - offset;
    if (offsetMs(instant, timeZone) === offset && (best === null || instant < best)) best = instant;
  }
  return best;
}

let canonicalNames: Map<string, string> | null = null;

/** The IANA spelling of a zone name given in any letter case (`europe/berlin` -> `Europe/Berlin`); else as given. */
export function canonicalZoneName(timeZone: string): string {
  canonicalNames ??= new Map(Intl.supportedValuesOf('timeZone').map((z) => [z.toLowerCase(), z]));
  const known = canonicalNames.get(timeZone.toLowerCase());
  if (known) return known;
  const resolved = new Intl.DateTimeFormat('en-US', { timeZone }).resolvedOptions().timeZone;
  return resolved.toLowerCase() === timeZone.toLowerCase() ? resolved : timeZone;
}
