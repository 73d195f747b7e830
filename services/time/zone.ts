/** Wall-clock views of instants in IANA zones, from Intl alone (never the process's own zone). */
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

/** The wall clock at `epochMs` in `timeZone`, as `YYYY-MM-DDTHH:mm:ss`, and the zone's UTC offset in minutes. */
export function wallClock(epochMs: number, timeZone: string): { local: string; offsetMinutes: number } {
  const parts = Object.fromEntries(formatter(timeZone).formatToParts(new Date(epochMs)).map((p) => [p.type, p.value]));
  const local = `${isoYear(Number(parts.year), parts.era)}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
  const wholeSeconds = Math.floor(epochMs / 1000) * 1000;
  return { local, offsetMinutes: Math.round((Date.parse(`${local}Z`) - wholeSeconds) / 60_000) };
}

/** RFC 9557 text for an instant in a zone, e.g. `2026-10-23T09:00:00+02:00[Europe/Berlin]`. */
export function zonedDateTimeText(epochMs: number, timeZone: string): string {
  const { local, offsetMinutes } = wallClock(epochMs, timeZone);
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  const offset = `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
  return `${local}${offset}[${timeZone}]`;
}
