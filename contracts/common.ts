import { z } from 'zod';
import * as examples from './examples';

/** Any 8-4-4-4-12 hex id (not only RFC 9562 versions), so well-formed but unknown ids are 404, not 400. */
export const Uuid = z.guid();
/** An email address as RFC 5321 bounds it: at most 254 characters, at most 64 of them before the `@`. */
export const Email = z.email().max(254).refine((email) => email.indexOf('@') <= 64, 'the part before the @ is at most 64 characters');
export const DateTime = z.iso.datetime({ offset: true }).describe('ISO 8601 date-time; answers are always UTC');
export const IsoDate = z.iso.date().describe('YYYY-MM-DD');
/*
 * Dates and instants a calendar computes with (windows, slots, plans) stay in the years 1970-2999: nothing is planned
 * outside them, and the zone arithmetic stays in range. The bounds are published as patterns, so that a client or a
 * test generator that keeps to the document never meets a refusal; leap days are spelled out for the same reason.
 */
const MONTH_DAY = '(?:(?:0[13578]|1[02])-(?:0[1-9]|[12][0-9]|3[01])|(?:0[469]|11)-(?:0[1-9]|[12][0-9]|30)|02-(?:0[1-9]|1[0-9]|2[0-8]))';
const LEAP_YEAR = '(?:19(?:7[26]|8[048]|9[26])|2[0-9](?:0[48]|[2468][048]|[13579][26])|2[048]00)';
const TIME = 'T(?:[01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9](?:\\.[0-9]+)?(?:Z|[+-](?:[01][0-9]|2[0-3]):[0-5][0-9])';
const datesIn = (years: string) => `(?:${LEAP_YEAR}-02-29|${years}-${MONTH_DAY})`;

/** A day that starts a window of days: 1970-01-01 to 2998-12-31, so that the window ends before the year 3000. */
export const BoundedDate = z
  .string()
  .regex(new RegExp(`^${datesIn('(?:19[7-9][0-9]|2[0-8][0-9]{2}|29[0-8][0-9]|299[0-8])')}$`), 'must be a date (YYYY-MM-DD) in the years 1970-2998')
  .meta({ format: 'date', description: 'YYYY-MM-DD, in the years 1970-2998' });

/** An instant in the years 1970-2999 (as written, with its offset). */
export const BoundedInstant = z
  .string()
  .regex(new RegExp(`^${datesIn('(?:19[7-9][0-9]|2[0-9]{3})')}${TIME}$`), 'must be an ISO 8601 date-time in the years 1970-2999')
  .meta({ format: 'date-time', description: 'ISO 8601 date-time in the years 1970-2999; answers are always UTC' });

/** Time travel on list reads (services/history/time-travel.ts). */
export const AsOf = DateTime.meta({
  description: 'Read-only time travel: the answer as it was at this instant (not in the future: 400), rebuilt from the ' +
    'history of the caller\'s items up to it; which Spaces and items are the caller\'s is decided as it is now. 400 ' +
    'when the history to replay holds more than 20,000 events.',
  // JSON Schema cannot compare with the clock: `x-not-in-future` says it to test tools (test/schemathesis/hooks.py).
  'x-not-in-future': true,
});

/**
 * A name or a title: 1 to `max` characters, not blank. Surrounding whitespace is trimmed after validation, so the
 * limits the document states are the ones applied (zod's `.trim().max()` would check the trimmed text instead).
 */
export const NonBlankText = (max: number) => z.string().min(1).max(max).regex(/\S/, 'must not be blank').trim();

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
 * `schema` (a number, date or date-time) must come after the field `earlier` of the same object, or with `orEqual`
 * not before it; dates at most `maxDays` days after it. JSON Schema cannot compare two fields, so the rule is in the
 * description and in `x-after` / `x-not-before` / `x-max-days-after`: the route machinery enforces it (400) for every
 * operation that declares it (services/http/field-order.ts), and test tools read it (test/schemathesis/hooks.py).
 */
export function laterThan<S extends z.ZodType>(schema: S, earlier: string, options: { orEqual?: boolean; maxDays?: number } = {}): S {
  const bound = options.maxDays ? ` and at most ${options.maxDays} days after it` : '';
  const rule = `${options.orEqual ? 'Not before' : 'After'} \`${earlier}\`${bound}.`;
  return schema.meta({
    description: schema.description ? `${schema.description.replace(/\.?$/, '.')} ${rule}` : rule,
    [options.orEqual ? 'x-not-before' : 'x-after']: earlier,
    ...(options.maxDays ? { 'x-max-days-after': options.maxDays } : {}),
  }) as S;
}

const documentedShapes = new WeakMap<z.ZodType, z.ZodType>();

/**
 * Publishes `runtime` in the document as `shape`, for a rule JSON Schema can state only as a union of cases while
 * requests are still checked by `runtime`, whose messages name the field at fault. Call it last (after `.meta`).
 */
export function documentedAs<S extends z.ZodType>(runtime: S, shape: z.ZodType): S {
  documentedShapes.set(runtime, shape);
  return runtime;
}

export const documentedShapeOf = (schema: z.ZodType): z.ZodType | undefined => documentedShapes.get(schema);

/**
 * Metadata for a value whose rule is too rich for JSON Schema (an RRULE, a push token format): the rule in words,
 * and `x-checked-by-server` to tell test tools that values of the right shape may still be refused (400), so valid
 * cases use the `examples`, which must pass.
 */
export const checkedByServer = (description: string, examples: string[]) => ({ description, examples, 'x-checked-by-server': true });

/** A date-time after the field `earlier` (at most `maxDays` days after it, when given). */
export const DateTimeAfter = (earlier: string, maxDays?: number) => laterThan(DateTime, earlier, { maxDays });

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

/** PATCH /me: a `superRefine` of `preferences` for one key whose value, when given (not null), must be a `schema`. */
export const preferenceRule = (key: string, schema: z.ZodType) => (preferences: Record<string, unknown>, ctx: z.RefinementCtx): void => {
  const value = preferences[key];
  if (value === undefined || value === null) return;
  const result = schema.safeParse(value);
  if (result.success) return;
  for (const issue of result.error.issues) ctx.addIssue({ code: 'custom', path: [key, ...issue.path], message: issue.message });
};
