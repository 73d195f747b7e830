import { z } from 'zod';
import * as examples from './examples';

/** Any 8-4-4-4-12 hex id (not only RFC 9562 versions), so well-formed but unknown ids are 404, not 400. */
export const Uuid = z.guid();
export const DateTime = z.iso.datetime({ offset: true }).describe('ISO 8601 date-time; answers are always UTC');
export const IsoDate = z.iso.date().describe('YYYY-MM-DD');

const knownZones = new Set<string>();

/** True for an IANA time zone name this runtime knows (answers are cached: building a formatter is costly). */
export function isTimeZone(tz: string): boolean {
  if (knownZones.has(tz)) return true;
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
  } catch {
    return false;
  }
  if (knownZones.size < 1000) knownZones.add(tz);
  return true;
}

/**
 * An IANA time zone name that this runtime knows. The list (several hundred names, aliases included) is too long
 * for an enum, so the document carries the shape as a pattern, the rule in words and `format: time-zone`, which
 * test tools can map to real zone names.
 */
export const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,2}$/, 'must be an IANA time zone such as Europe/Berlin')
  .refine(isTimeZone, 'must be an IANA time zone such as Europe/Berlin')
  .meta({
    id: 'TimeZone',
    format: 'time-zone',
    description: 'IANA time zone name such as `Europe/Berlin` or `UTC`; names unknown to the server\'s time zone database are refused (400)',
    examples: ['Europe/Berlin'],
  });

/**
 * A date-time that must come after the field `earlier` of the same object (and, given `maxDays`, at most that many
 * days after it). JSON Schema cannot compare two fields, so the rule is in the description and in `x-after` /
 * `x-max-days-after`; the route machinery enforces it (400) for every operation that declares it.
 */
export const DateTimeAfter = (earlier: string, maxDays?: number) =>
  DateTime.meta({
    description: `ISO 8601 date-time, after \`${earlier}\`${maxDays ? ` and at most ${maxDays} days after it` : ''}`,
    'x-after': earlier,
    ...(maxDays ? { 'x-max-days-after': maxDays } : {}),
  });

export const ErrorEnvelope = z
  .object({
    error: z.object({
      code: z.string(),
      message: z.string(),
      details: z.unknown().optional(),
    }),
  })
  .meta({ id: 'Error', description: 'Every failure answers with this envelope.', examples: [examples.error] });

export const IdParams = z.object({ id: Uuid });
