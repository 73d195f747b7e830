import { z } from 'zod';

/** Any 8-4-4-4-12 hex id (not only RFC 9562 versions), so well-formed but unknown ids are 404, not 400. */
export const Uuid = z.guid();
export const DateTime = z.iso.datetime({ offset: true }).describe('ISO 8601 date-time; answers are always UTC');
export const IsoDate = z.iso.date().describe('YYYY-MM-DD');
/** Time travel on list reads (services/history/time-travel.ts). */
export const AsOf = DateTime.describe(
  'Read-only time travel: the answer as it was at this instant (not in the future), rebuilt from the history of the ' +
    'caller\'s items up to it; which Spaces and items are the caller\'s is decided as it is now. 400 when the ' +
    'history to replay holds more than 20,000 events.',
);

const knownZones = new Set<string>();

/** True for an IANA time zone name this runtime knows (answers are cached: building a formatter is costly). */
function isTimeZone(tz: string): boolean {
  if (knownZones.has(tz)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    return false;
  }
  if (knownZones.size < 1000) knownZones.add(tz);
  return true;
}

/** An IANA time zone name that this runtime knows. */
export const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin');

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error', description: 'Every failure answers with this envelope.' });

export const IdParams = z.object({ id: Uuid });
