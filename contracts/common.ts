import { z } from 'zod';

export const Uuid = z.uuid();
export const DateTime = z.iso.datetime({ offset: true }).describe('ISO 8601 date-time; answers are always UTC');
export const IsoDate = z.iso.date().describe('YYYY-MM-DD');

/** An IANA time zone name that this runtime knows. */
export const TimeZone = z
  .string()
  .min(1)
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, 'must be an IANA time zone such as Europe/Berlin');

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
