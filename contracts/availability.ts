import { z } from 'zod';
import { BoundedDate as FromDate, BoundedInstant as Instant, DateTime, ErrorEnvelope, IsoDate, laterThan, preferenceRule } from './common';
import { EventKind } from './events';
import { op } from './operation';

/** Bounds of the three endpoints (docs/availability.md). */
export const AVAILABILITY_LIMITS = {
  availabilityDays: { min: 1, max: 14, default: 1 },
  slotsDays: { min: 1, max: 31, default: 7 },
  minimumMinutes: { min: 1, max: 1440, default: 30 },
  freeBusyMaxDays: 62,
} as const;


export { FromDate, Instant };

const limits = AVAILABILITY_LIMITS;
const dayCount = (min: number, max: number, fallback: number) =>
  z.coerce.number().int().min(min).max(max).optional().describe(`Number of days, ${min}-${max} (default ${fallback})`);

export const WorkingHour = z
  .strictObject({
    day: z.number().int().min(1).max(7).describe('ISO weekday: 1 Monday … 7 Sunday'),
    startMinute: z.number().int().min(0).max(1439).describe('Minutes after local midnight'),
    endMinute: laterThan(z.number().int().min(1).max(1440).describe('Minutes after local midnight, exclusive (1440 = midnight)'), 'startMinute'),
  })
  // Also checked here: working hours are parsed inside other values too (profile preferences), not only as a field.
  .refine((h) => h.endMinute > h.startMinute, { path: ['endMinute'], message: 'must be after startMinute' })
  .meta({ id: 'WorkingHour', examples: [{ day: 1, startMinute: 540, endMinute: 1020 }] });

export const WorkingHours = z
  .array(WorkingHour)
  .max(50)
  .meta({
    id: 'WorkingHours',
    description: 'Local hours in the profile time zone; several entries per day for split days, none for a day off',
    examples: [[1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 540, endMinute: 1020 }))],
  });

/** PATCH /me: `preferences.workingHours` must be working hours (or null for the default). */
export const checkWorkingHoursPreference = preferenceRule('workingHours', WorkingHours);

export const Purpose = z.enum(['meeting', 'focus']);
export const DayPeriod = z.enum(['morning', 'afternoon', 'evening']);

export const AvailabilityQuery = z.object({
  from: FromDate.optional().describe('First day (YYYY-MM-DD); default today in the profile time zone'),
  days: dayCount(limits.availabilityDays.min, limits.availabilityDays.max, limits.availabilityDays.default),
  purpose: Purpose.optional().describe('What the free time is for: `meeting` (default) or `focus`; it orders `free`'),
  preferred: DayPeriod.optional().describe('Preferred part of the day: morning 06-12, afternoon 12-17, evening 17-22 (local)'),
});

export const AvailableSlotsQuery = z.object({
  from: FromDate.optional().describe('First day (YYYY-MM-DD); default today in the profile time zone'),
  days: dayCount(limits.slotsDays.min, limits.slotsDays.max, limits.slotsDays.default),
  minimumMinutes: z.coerce.number().int().min(limits.minimumMinutes.min).max(limits.minimumMinutes.max).optional()
    .describe(`Shortest window to list, in minutes (default ${limits.minimumMinutes.default})`),
});

export const FreeBusyQuery = z
  .object({
    from: Instant.describe('Start of the range (date-time)'),
    to: laterThan(Instant.describe('End of the range (date-time)'), 'from', { maxDays: limits.freeBusyMaxDays }),
  });

const Id = z.string();

export const BlockReason = z
  .discriminatedUnion('type', [
    z.object({ type: z.literal('event'), eventId: Id }),
    z.object({ type: z.literal('focus'), eventId: Id }).describe('Protected focus time: a busy event of kind `focus`'),
    z.object({ type: z.literal('routine'), routineId: Id, periodId: Id }).describe('A routine period that cannot move'),
    z.object({ type: z.literal('buffer'), eventId: Id.optional(), periodId: Id.optional() })
      .describe('Buffer before or after the named event or routine period'),
    z.object({ type: z.literal('notice') }).describe('Before now (plus any minimum notice)'),
    z.object({ type: z.literal('outside_hours') }).describe('Outside working hours'),
  ])
  .meta({ id: 'BlockReason', examples: [{ type: 'event', eventId: '3f1c9a52-8d7e-4b21-9c4a-6e2f1d0b7a13' }] });

/** One realistic day (Monday 2 March 2026, Europe/Berlin): the examples of the schemas below. */
const berlinDay = {
  date: '2026-03-02',
  startsAt: '2026-03-01T23:00:00.000Z',
  endsAt: '2026-03-02T23:00:00.000Z',
  events: [
    { id: '3f1c9a52-8d7e-4b21-9c4a-6e2f1d0b7a13', title: 'Team stand-up', kind: 'meeting', startsAt: '2026-03-02T08:30:00.000Z', endsAt: '2026-03-02T09:00:00.000Z', allDay: false, busy: true, seriesId: '3f1c9a52-8d7e-4b21-9c4a-6e2f1d0b7a13' },
    { id: '7a2b4c6d-1e3f-4a5b-8c7d-9e0f1a2b3c4d', title: 'Write the quarterly report', kind: 'focus', startsAt: '2026-03-02T12:00:00.000Z', endsAt: '2026-03-02T14:00:00.000Z', allDay: false, busy: true, seriesId: null },
  ],
  routinePeriods: [
    { routineId: '5b8e2c41-0f3a-4d6e-a1b7-93c2e4f5d680', periodId: 'a9d4f2e1-6c3b-4a58-8e07-1f2b3c4d5e6f', name: 'Lunch', startsAt: '2026-03-02T11:00:00.000Z', endsAt: '2026-03-02T12:00:00.000Z', canMove: false, windowStartsAt: null, windowEndsAt: null, status: null, blocking: true },
  ],
  protectedTime: [{ eventId: '7a2b4c6d-1e3f-4a5b-8c7d-9e0f1a2b3c4d', title: 'Write the quarterly report', startsAt: '2026-03-02T12:00:00.000Z', endsAt: '2026-03-02T14:00:00.000Z' }],
  free: [
    { startsAt: '2026-03-02T08:00:00.000Z', endsAt: '2026-03-02T08:30:00.000Z', minutes: 30, preferredMinutes: 30, fitsPurpose: true, inPreferred: true, rank: 1 },
    { startsAt: '2026-03-02T09:00:00.000Z', endsAt: '2026-03-02T11:00:00.000Z', minutes: 120, preferredMinutes: 120, fitsPurpose: true, inPreferred: true, rank: 2 },
    { startsAt: '2026-03-02T14:00:00.000Z', endsAt: '2026-03-02T16:00:00.000Z', minutes: 120, preferredMinutes: 0, fitsPurpose: true, inPreferred: false, rank: 3 },
  ],
  blocked: [
    { startsAt: '2026-03-01T23:00:00.000Z', endsAt: '2026-03-02T08:00:00.000Z', reasons: [{ type: 'outside_hours' }] },
    { startsAt: '2026-03-02T08:30:00.000Z', endsAt: '2026-03-02T09:00:00.000Z', reasons: [{ type: 'event', eventId: '3f1c9a52-8d7e-4b21-9c4a-6e2f1d0b7a13' }] },
    { startsAt: '2026-03-02T11:00:00.000Z', endsAt: '2026-03-02T12:00:00.000Z', reasons: [{ type: 'routine', routineId: '5b8e2c41-0f3a-4d6e-a1b7-93c2e4f5d680', periodId: 'a9d4f2e1-6c3b-4a58-8e07-1f2b3c4d5e6f' }] },
    { startsAt: '2026-03-02T12:00:00.000Z', endsAt: '2026-03-02T14:00:00.000Z', reasons: [{ type: 'focus', eventId: '7a2b4c6d-1e3f-4a5b-8c7d-9e0f1a2b3c4d' }] },
    { startsAt: '2026-03-02T16:00:00.000Z', endsAt: '2026-03-02T23:00:00.000Z', reasons: [{ type: 'outside_hours' }] },
  ],
};

const span = { startsAt: DateTime, endsAt: DateTime };

export const BlockedStretch = z
  .object({ ...span, reasons: z.array(BlockReason).min(1) })
  .meta({ id: 'BlockedStretch', examples: [berlinDay.blocked[2]] });

export const RankedFreeStretch = z
  .object({
    ...span,
    minutes: z.number().int(),
    preferredMinutes: z.number().int().describe('Minutes inside the preferred part of the day (0 without `preferred`)'),
    fitsPurpose: z.boolean().describe('At least 30 minutes for a meeting, 60 for focus'),
    inPreferred: z.boolean().describe('The purpose\'s minutes fit inside the preferred part of the day'),
    rank: z.number().int().min(1).describe('1 = best for the purpose'),
  })
  .meta({ id: 'RankedFreeStretch', examples: [berlinDay.free[0]] });

const DayEvent = z.object({
  id: Id, title: z.string(), kind: EventKind, ...span, allDay: z.boolean(), busy: z.boolean(),
  seriesId: Id.nullable().describe('The series id for an occurrence of a recurring event, else null'),
}).meta({
  id: 'AvailabilityEvent', description: 'An occurrence on the day; all-day events span the whole local day(s)', examples: [berlinDay.events[0]],
});

const DayRoutinePeriod = z.object({
  routineId: Id, periodId: Id, name: z.string(), ...span, canMove: z.boolean(),
  windowStartsAt: DateTime.nullable(), windowEndsAt: DateTime.nullable(),
  status: z.enum(['done', 'skipped']).nullable(),
  blocking: z.boolean().describe('True when it cannot move and is not skipped: its time is not free'),
}).meta({ id: 'AvailabilityRoutinePeriod', examples: [berlinDay.routinePeriods[0]] });

const ProtectedTime = z.object({ eventId: Id, title: z.string(), ...span }).meta({ id: 'ProtectedTime', examples: [berlinDay.protectedTime[0]] });

const AvailabilityDay = z.object({
  date: IsoDate,
  ...span,
  events: z.array(DayEvent),
  routinePeriods: z.array(DayRoutinePeriod),
  protectedTime: z.array(ProtectedTime),
  free: z.array(RankedFreeStretch).describe('Free stretches inside working hours, best first for the purpose'),
  blocked: z.array(BlockedStretch).describe(
    'The rest of the day in time order, each with why it is blocked: busy time that overlaps or touches (events, focus '
      + 'time, fixed routine periods) is one stretch naming all of it; buffers, notice and working hours cut it further',
  ),
}).meta({ id: 'AvailabilityDay', examples: [berlinDay] });


export const AvailabilityResponse = z
  .object({
    timeZone: z.string().describe('The profile time zone the days are read in'),
    purpose: Purpose,
    preferred: DayPeriod.nullable(),
    workingHours: WorkingHours,
    days: z.array(AvailabilityDay),
  })
  .meta({
    id: 'AvailabilityResponse',
    examples: [{
      timeZone: 'Europe/Berlin', purpose: 'meeting', preferred: 'morning',
      workingHours: [1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 540, endMinute: 1020 })),
      days: [berlinDay],
    }],
  });

const FreeWindow = z.object({ ...span, minutes: z.number().int() }).meta({ id: 'FreeWindow', examples: [{ startsAt: '2026-03-02T09:00:00.000Z', endsAt: '2026-03-02T11:00:00.000Z', minutes: 120 }] });

export const AvailableSlotsResponse = z
  .object({
    timeZone: z.string(),
    ...span,
    minimumMinutes: z.number().int(),
    slots: z.array(FreeWindow).describe('Free windows inside working hours, from now on, at least minimumMinutes long'),
  })
  .meta({
    id: 'AvailableSlotsResponse',
    examples: [{
      timeZone: 'Europe/Berlin', startsAt: '2026-03-01T23:00:00.000Z', endsAt: '2026-03-02T23:00:00.000Z', minimumMinutes: 30,
      slots: [
        { startsAt: '2026-03-02T08:00:00.000Z', endsAt: '2026-03-02T08:30:00.000Z', minutes: 30 },
        { startsAt: '2026-03-02T09:00:00.000Z', endsAt: '2026-03-02T11:00:00.000Z', minutes: 120 },
        { startsAt: '2026-03-02T14:00:00.000Z', endsAt: '2026-03-02T16:00:00.000Z', minutes: 120 },
      ],
    }],
  });

export const FreeBusyResponse = z
  .object({ from: DateTime, to: DateTime, busy: z.array(z.object(span)).describe('Busy intervals, merged, in time order') })
  .meta({
    id: 'FreeBusyResponse',
    examples: [{
      from: '2026-03-02T00:00:00.000Z', to: '2026-03-03T00:00:00.000Z',
      busy: [
        { startsAt: '2026-03-02T08:30:00.000Z', endsAt: '2026-03-02T09:00:00.000Z' },
        { startsAt: '2026-03-02T11:00:00.000Z', endsAt: '2026-03-02T14:00:00.000Z' },
      ],
    }],
  });

/** 422 of every answer the engine works out: the range holds more than one request may expand. */
export const tooMuch = {
  description: 'More events or occurrences in the range than one request may expand (`expansion_limit_exceeded`)',
  schema: ErrorEnvelope,
};

export const availabilityOperations = [
  op({
    method: 'get', path: '/availability', heavy: true, tag: 'Availability', summary: 'Days with events, routine periods, protected and free time',
    description: 'Each day of the profile time zone: its events, routine periods, protected focus time, free stretches inside '
      + 'working hours ranked for the purpose (long enough for it; fitting the preferred part of the day; for focus more '
      + 'preferred time, then longer first; for a meeting shorter first; earlier first) and the blocked rest with `reasons`.',
    query: AvailabilityQuery,
    responses: { 200: { description: 'The days', schema: AvailabilityResponse }, 422: tooMuch },
  }),
  op({
    method: 'get', path: '/available-slots', heavy: true, tag: 'Availability', summary: 'Free windows inside working hours',
    description: 'Free windows from now on, inside working hours, outside events, protected focus time and routine periods '
      + 'that cannot move.',
    query: AvailableSlotsQuery,
    responses: { 200: { description: 'Free windows', schema: AvailableSlotsResponse }, 422: tooMuch },
  }),
  op({
    method: 'get', path: '/free-busy', heavy: true, tag: 'Availability', summary: 'Busy intervals in [from, to)',
    description: 'Busy time only (events marked busy, focus time, routine periods that cannot move), merged, without titles.',
    query: FreeBusyQuery,
    responses: { 200: { description: 'Busy intervals', schema: FreeBusyResponse }, 422: tooMuch },
  }),
];
