/**
 * Time zones between iCalendar and IANA. Out: the VTIMEZONE of an IANA zone from timezones-ical-library (generated
 * from the IANA data by vzic; see docs/icalendar.md). In: a TZID read as an IANA zone (as written, after a vendor
 * prefix such as `/mozilla.org/20050126_1/`, the VTIMEZONE's X-LIC-LOCATION, or a Windows name through windows-iana),
 * and a VTIMEZONE whose offsets no zone on Earth has is refused.
 */
import ICAL from 'ical.js';
import { tzlib_get_ical_block, tzlib_get_timezones } from 'timezones-ical-library';
import { findIana } from 'windows-iana';
import { isTimeZone } from '../../contracts/common';
import { canonicalZoneName } from '../time/zone';

type JCal = [string, unknown[][], unknown[]];

/** UTC has no VTIMEZONE: its times are written with `Z`. */
export const isUtcZone = (zone: string) => ['UTC', 'Etc/UTC', 'Etc/GMT', 'GMT', 'Etc/Zulu', 'Zulu', 'Etc/UCT', 'UCT'].includes(zone);

let published: Set<string> | null = null;
const vtimezones = new Map<string, JCal | null>();

/** The VTIMEZONE (jCal) of an IANA zone, its TZID the zone's own name; null for UTC or a zone the library lacks. */
export function vtimezoneOf(zone: string): JCal | null {
  if (isUtcZone(zone)) return null;
  let found = vtimezones.get(zone);
  if (found === undefined) {
    published ??= new Set(tzlib_get_timezones() as string[]);
    const block = published.has(zone) ? (tzlib_get_ical_block(zone) as string[])[0] : '';
    found = block ? (ICAL.parse(`BEGIN:VCALENDAR\r\n${block}\r\nEND:VCALENDAR\r\n`) as JCal)[2][0] as JCal : null;
    // An alias (Asia/Calcutta) comes back under its canonical name: the TZID must be the one the events use.
    if (found) found[1] = found[1].map((p) => (p[0] === 'tzid' ? ['tzid', {}, 'text', zone] : p));
    if (vtimezones.size < 1000) vtimezones.set(zone, found);
  }
  return found;
}

/** Offsets beyond this many hours exist nowhere (the widest in the IANA data is about 15:56 of local mean time). */
const MAX_OFFSET_HOURS = 18;

/**
 * Why a VTIMEZONE's offsets are refused (TZOFFSETFROM / TZOFFSETTO malformed or beyond ±18 hours), or null. Read from
 * the jCal text (`+01:00`): ical.js's own UtcOffset wraps absurd hours around.
 */
export function offsetProblem(vtimezone: JCal): string | null {
  for (const part of vtimezone[2] as JCal[]) {
    for (const p of part[1] as unknown[][]) {
      if (p[0] !== 'tzoffsetfrom' && p[0] !== 'tzoffsetto') continue;
      const m = /^[+-](\d{2}):(\d{2})(?::(\d{2}))?$/.exec(String(p[3]));
      if (!m || Number(m[1]) > MAX_OFFSET_HOURS || Number(m[2]) > 59 || Number(m[3] ?? 0) > 59) {
        return `its ${String(p[0]).toUpperCase()} ${String(p[3]).replace(/:/g, '')} is beyond ±${MAX_OFFSET_HOURS}:00`;
      }
    }
  }
  return null;
}

/** An IANA zone the server knows, spelled canonically, or null. */
function knownZone(name: string): string | null {
  if (!/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/.test(name) || !isTimeZone(name)) return null;
  return canonicalZoneName(name);
}

/**
 * The IANA zone a TZID names: itself, its tail after a vendor prefix (`/mozilla.org/…/Europe/Berlin`), the
 * VTIMEZONE's X-LIC-LOCATION, or the Windows zone (`W. Europe Standard Time`). Null when none is known.
 */
export function ianaZoneOf(tzid: string, location?: string | null): string | null {
  const trimmed = tzid.trim().replace(/^"|"$/g, '');
  const tail = /([A-Za-z_]+\/[A-Za-z0-9_+-]+(?:\/[A-Za-z0-9_+-]+)?)$/.exec(trimmed)?.[1];
  for (const candidate of [trimmed, tail, location ?? undefined]) {
    const zone = candidate ? knownZone(candidate) : null;
    if (zone) return zone;
  }
  const windows = findIana(trimmed);
  return windows.length ? knownZone(windows[0]) : null;
}
