/**
 * What the booking page needs to name time zones: browsers report and list the ids of their ICU data, some of them
 * old aliases (Chromium says `Asia/Calcutta`, `Europe/Kiev`); @vvo/tzdb groups every current and deprecated IANA
 * id under the zone's primary one.
 */
import { rawTimeZones } from '@vvo/tzdb';

/** alias -> primary id, for every id of a group that is not its primary */
export function primaryZones(): Record<string, string> {
  const primary: Record<string, string> = {};
  for (const zone of rawTimeZones) for (const id of zone.group) if (id !== zone.name) primary[id] = zone.name;
  return primary;
}
