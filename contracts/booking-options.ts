/**
 * The options a meeting type may carry beyond its weekly hours (addendum, "Booking options" and "Team meeting
 * types"): the lengths a guest may choose, dates with other hours or none, booking limits per host, seats, whether
 * the host confirms each booking, and the hosts of a team type with the way a booking is given to them.
 */
import { z } from 'zod';
import { BoundedDate, laterThan, Uuid } from './common';

export const MAX_DURATIONS = 10;
export const MAX_DATE_OVERRIDES = 366;
export const MAX_SEATS = 100;
export const MAX_HOSTS = 20;
/** Round robin counts each host's bookings of the type made in this many days. */
export const ROUND_ROBIN_DAYS = 30;

export const DurationMinutes = z.number().int().min(5).max(720);

export const Durations = z
  .array(DurationMinutes)
  .min(1)
  .max(MAX_DURATIONS)
  .meta({
    id: 'MeetingDurations',
    description: 'Every length (minutes, 5-720) a guest may choose with `durationMinutes`; the first is the default. '
      + 'A length listed twice counts once.',
    examples: [[30, 60]],
  });

const DayHour = z
  .strictObject({
    startMinute: z.number().int().min(0).max(1439).describe('Minutes after local midnight'),
    endMinute: laterThan(z.number().int().min(1).max(1440).describe('Minutes after local midnight, exclusive (1440 = midnight)'), 'startMinute'),
  })
  .refine((h) => h.endMinute > h.startMinute, { path: ['endMinute'], message: 'must be after startMinute' })
  .meta({ id: 'DayHour', examples: [{ startMinute: 600, endMinute: 840 }] });

export const DateOverride = z
  .strictObject({
    date: BoundedDate.describe('The date in the owner\'s time zone'),
    hours: z.array(DayHour).max(10).describe('That date\'s hours in place of the weekly ones; `[]` is a day off'),
  })
  .meta({ id: 'DateOverride', examples: [{ date: '2026-12-24', hours: [] }] });
export type DateOverride = z.infer<typeof DateOverride>;

export const DateOverrides = z
  .array(DateOverride)
  .max(MAX_DATE_OVERRIDES)
  .meta({
    id: 'DateOverrides',
    description: 'Dates whose hours differ from the weekly `hours`; entries naming one date add up. The whole list is replaced when sent.',
    examples: [[{ date: '2026-12-24', hours: [] }, { date: '2026-12-28', hours: [{ startMinute: 600, endMinute: 840 }] }]],
  });

const Limit = z.number().int().min(1).max(1000);

export const LimitsInput = z
  .strictObject({
    perDay: Limit.nullable().optional().describe('Bookings of this type one host takes per day (null or left out: no limit)'),
    perWeek: Limit.nullable().optional().describe('Bookings of this type one host takes per week (null or left out: no limit)'),
  })
  .meta({ id: 'BookingLimitsInput', examples: [{ perDay: 4, perWeek: 10 }] });

export const Limits = z
  .object({ perDay: z.number().int().nullable(), perWeek: z.number().int().nullable() })
  .meta({
    id: 'BookingLimits',
    description: 'Bookings of the type per host: days and weeks (starting on the owner\'s `weekStartsOn`) in the owner\'s time '
      + 'zone; a slot with several seats counts once; cancelled and declined bookings do not count',
    examples: [{ perDay: 4, perWeek: null }],
  });
export type Limits = z.infer<typeof Limits>;

export const Assignment = z.enum(['collective', 'round_robin']).meta({
  id: 'Assignment',
  description: '`collective`: a slot is offered when every host is free and the booking puts the event in every host\'s '
    + 'calendar. `round_robin`: a slot is offered when any host is free and the booking goes to one free host, the one '
    + `with the fewest bookings of the type in the last ${ROUND_ROBIN_DAYS} days (ties: the longest since their last one).`,
  examples: ['round_robin'],
});
export type Assignment = z.infer<typeof Assignment>;

export const Hosts = z
  .array(Uuid)
  .max(MAX_HOSTS)
  .meta({
    id: 'MeetingHosts',
    description: 'User ids of the hosts of a team type: each a member of one organization the owner belongs to (404 '
      + 'otherwise), the owner too if they host. `[]`: the owner alone hosts. A host listed twice counts once.',
    examples: [['5d2c8e3a-1b4f-4c6d-8e9a-0f1b2c3d4e5f', '7a3b9c1d-2e4f-4a5b-8c6d-9e0f1a2b3c4d']],
  });

/** The fields a create body adds for the options; PATCH takes them too. */
export const optionFields = {
  durations: Durations.optional().describe(
    'The lengths a guest may choose (the first is the default). Without it the type has one length, `durationMinutes`. '
      + 'A `durationMinutes` sent as well is the default, put first.',
  ),
  dateOverrides: DateOverrides.optional().describe('Default none'),
  limits: LimitsInput.optional().describe('Default no limits; replaced as a whole when sent'),
  seats: z.number().int().min(1).max(MAX_SEATS).optional().describe(
    `Guests per slot, 1-${MAX_SEATS}, default 1. With more than one, the guests of a slot share one event (each an attendee).`,
  ),
  requiresConfirmation: z.boolean().optional().describe(
    'Default false. When true a booking is `pending` (it holds its slot) until the host answers POST /bookings/{id}/confirm or /decline.',
  ),
  hosts: Hosts.optional(),
  assignment: Assignment.optional().describe('How a team type\'s bookings go to its hosts; default `collective` when `hosts` are given'),
};

/** What the resource shows of the options (always every field). */
export const optionShape = {
  durations: Durations,
  dateOverrides: DateOverrides,
  limits: Limits,
  seats: z.number().int().describe('Guests per slot'),
  requiresConfirmation: z.boolean().describe('Bookings wait for the host\'s confirmation (`pending`)'),
  hosts: Hosts,
  assignment: Assignment.nullable().describe('How bookings go to the `hosts`; null for a type the owner alone hosts'),
};

export const AssignmentReason = z.enum(['fewest_bookings', 'longest_since_last', 'joined_slot']).meta({
  id: 'AssignmentReason',
  description: `Why a round-robin booking went to its host: \`fewest_bookings\` (the fewest bookings of the type in ${ROUND_ROBIN_DAYS} `
    + 'days among the free hosts), `longest_since_last` (tied on that, the longest since their last one), `joined_slot` '
    + '(a seat in a slot the host already holds).',
  examples: ['fewest_bookings'],
});

export const BookingAssignment = z
  .object({
    method: Assignment,
    reason: AssignmentReason.nullable().describe('Round robin: why this host; collective: null'),
    bookingsInWindow: z.number().int().nullable().describe(`Round robin: the host's bookings of the type in the ${ROUND_ROBIN_DAYS} days before`),
    lastBookedAt: z.string().nullable().describe('Round robin: when the host was last booked for the type before (null: never)'),
  })
  .meta({
    id: 'BookingAssignment',
    description: 'How a team type\'s booking went to its hosts',
    examples: [{ method: 'round_robin', reason: 'fewest_bookings', bookingsInWindow: 2, lastBookedAt: '2026-11-20T09:12:00.000Z' }],
  });
export type BookingAssignment = z.infer<typeof BookingAssignment>;

/** The lengths a type offers: `durationMinutes` (when sent) first, then `durations`, each once. */
export function lengthsOf(durationMinutes: number | undefined, durations: readonly number[] | undefined, current: readonly number[] = []): number[] {
  const rest = durations ?? (durationMinutes !== undefined ? current.slice(1) : current);
  const first = durationMinutes ?? rest[0] ?? current[0];
  return [...new Set([first, ...rest])].slice(0, MAX_DURATIONS);
}
