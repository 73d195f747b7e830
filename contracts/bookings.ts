/**
 * Meeting types, public booking pages and bookings: the shapes of docs/bookings.md. A booking is decided in the
 * host's Space schedule together with its calendar event, so a slot is taken once.
 */
import { z } from 'zod';
import { WorkingHour } from './availability';
import { BoundedDate as FromDate, BoundedInstant as Instant, DateTime, Email, ErrorEnvelope, IdParams, IsoDate, NonBlankText, TimeZone, Uuid } from './common';
import { BookingAssignment, DurationMinutes, optionFields, optionShape } from './booking-options';
import { op } from './operation';
import { NextPageToken, PageQuery } from './paging';
import { notFoundAnswer, staleEtagAnswer } from './responses';

export const MAX_MEETING_TYPES = 100;
/** Slots are offered and booked at most this far ahead. */
export const BOOKING_HORIZON_DAYS = 366;
export const SLOT_DAYS = { min: 1, max: 31, default: 7 } as const;

const Slug = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9][a-z0-9-]*$/, 'lowercase letters, digits and dashes, starting with a letter or digit');
const Minutes = (max: number) => z.number().int().min(0).max(max);
const Text = (max: number) => z.string().max(max);

const HOST_ID = '5d2c8e3a-1b4f-4c6d-8e9a-0f1b2c3d4e5f';
const TYPE_ID = '8b1e4f2a-6c3d-4e5f-9a0b-1c2d3e4f5a6b';
const BOOKING_ID = '2f6a9c1e-4b7d-4e8f-a0b1-c2d3e4f5a6b7';
const WEEKDAYS_9_TO_5 = [1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 540, endMinute: 1020 }));

export const MeetingHours = z
  .array(WorkingHour)
  .min(1)
  .max(50)
  .meta({
    id: 'MeetingHours',
    description: 'When the type may be booked: ISO weekdays and minutes of the day in the owner\'s time zone',
    examples: [WEEKDAYS_9_TO_5],
  });

const meetingTypeExample = {
  id: TYPE_ID, ownerId: HOST_ID, name: 'Intro call', slug: 'intro-call', durationMinutes: 30,
  description: 'A first half hour to see whether we can help.', location: 'Video call (link in the invitation)',
  enabled: true, bufferBeforeMinutes: 10, bufferAfterMinutes: 10, minimumNoticeMinutes: 240, hours: WEEKDAYS_9_TO_5,
  durations: [30, 60], dateOverrides: [{ date: '2026-12-24', hours: [] }], limits: { perDay: 4, perWeek: null }, seats: 1,
  requiresConfirmation: false, hosts: [], assignment: null,
  calendarId: null, createdAt: '2026-11-20T08:00:00.000Z', updatedAt: '2026-11-20T08:00:00.000Z', deletedAt: null, version: 1,
};

export const MeetingType = z
  .object({
    id: Uuid,
    ownerId: Uuid,
    name: z.string(),
    slug: z.string().describe('Unique per owner; the public page is /book/{username}/{slug}'),
    durationMinutes: z.number().int().describe('The default length (the first of `durations`)'),
    description: z.string().nullable(),
    location: z.string().nullable(),
    enabled: z.boolean().describe('Disabled types are not bookable and their public page is 404'),
    ...optionShape,
    bufferBeforeMinutes: z.number().int().describe('Free time kept before each booking'),
    bufferAfterMinutes: z.number().int().describe('Free time kept after each booking'),
    minimumNoticeMinutes: z.number().int().describe('Nothing can be booked sooner than this from now'),
    hours: MeetingHours,
    calendarId: Uuid.nullable().describe('Where bookings go; null: the owner\'s default calendar'),
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: DateTime.nullable().describe('Set once deleted (sync rows)'),
    version: z.number().int().describe('Increases with every change; the ETag is derived from it'),
  })
  .meta({ id: 'MeetingType', examples: [meetingTypeExample] });
export type MeetingType = z.infer<typeof MeetingType>;

const typeFields = {
  name: NonBlankText(200),
  slug: Slug,
  durationMinutes: DurationMinutes.describe('5 minutes to 12 hours: the default length. Sent alone in a PATCH it replaces the default (the first of `durations`).'),
  description: Text(5_000).nullable().optional(),
  location: Text(1_000).nullable().optional(),
  enabled: z.boolean().optional().describe('Default true'),
  bufferBeforeMinutes: Minutes(240).optional().describe('0-240, default 0'),
  bufferAfterMinutes: Minutes(240).optional().describe('0-240, default 0'),
  minimumNoticeMinutes: Minutes(43_200).optional().describe('0-43200 (30 days), default 0'),
  hours: MeetingHours.optional().describe(
    'Default Monday to Friday 09:00-17:00 in the owner\'s time zone. Hours too short for one meeting offer no slots.',
  ),
  calendarId: Uuid.nullable().optional().describe('One of the owner\'s calendars (404 otherwise); team hosts get their bookings in their default calendar'),
  ...optionFields,
};

const createExample = {
  name: 'Intro call', slug: 'intro-call', durationMinutes: 30, description: 'A first half hour to see whether we can help.',
  location: 'Video call (link in the invitation)', bufferBeforeMinutes: 10, bufferAfterMinutes: 10, minimumNoticeMinutes: 240,
  hours: WEEKDAYS_9_TO_5,
};

export const CreateMeetingTypeBody = z
  .object(typeFields)
  .meta({ id: 'CreateMeetingTypeBody', examples: [createExample] });
export type CreateMeetingTypeBody = z.infer<typeof CreateMeetingTypeBody>;

export const UpdateMeetingTypeBody = z
  .object({ id: Uuid.describe('The meeting type to change'), ...z.object(typeFields).partial().shape })
  .meta({
    id: 'UpdateMeetingTypeBody',
    description: '`id` and any subset of the create fields; switch a booked type off with `enabled: false`',
    examples: [{ id: TYPE_ID, enabled: false }],
  });
export type UpdateMeetingTypeBody = z.infer<typeof UpdateMeetingTypeBody>;

export const DeleteMeetingTypeQuery = z.object({ id: Uuid.describe('The meeting type to delete') });

export const MeetingTypeResponse = z
  .object({ meetingType: MeetingType })
  .meta({ id: 'MeetingTypeResponse', examples: [{ meetingType: meetingTypeExample }] });

export const MeetingTypeListResponse = z
  .object({ meetingTypes: z.array(MeetingType), nextPageToken: NextPageToken })
  .meta({ id: 'MeetingTypeListResponse', examples: [{ meetingTypes: [meetingTypeExample], nextPageToken: null }] });

// ---- bookings ----

export const BookingStatus = z.enum(['pending', 'confirmed', 'cancelled', 'declined']).meta({
  id: 'BookingStatus',
  description: '`pending`: the type asks the host to confirm; the slot is held meanwhile. `declined`: the host said no '
    + '(the slot is free again). `cancelled`: by the guest or a host.',
  examples: ['confirmed'],
});
/** A booking that holds its slot. */
export const isLive = (status: z.infer<typeof BookingStatus>) => status === 'pending' || status === 'confirmed';

const bookingExample = {
  id: BOOKING_ID, meetingTypeId: TYPE_ID, meetingTypeName: 'Intro call', ownerId: HOST_ID, hostId: HOST_ID, hostIds: [HOST_ID], assignment: null,
  spaceId: '9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d', calendarId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  eventId: '6e5d4c3b-2a19-4f8e-9d7c-6b5a4f3e2d1c', startsAt: '2026-12-01T14:00:00.000Z', endsAt: '2026-12-01T14:30:00.000Z',
  timeZone: 'Europe/Berlin', guest: { name: 'Ana Costa', email: 'ana@example.com', timeZone: 'Europe/Lisbon' },
  note: 'I would like to talk about the spring workshop.', location: 'Video call (link in the invitation)',
  status: 'confirmed', cancelledBy: null, createdAt: '2026-11-24T10:12:00.000Z', updatedAt: '2026-11-24T10:12:00.000Z', version: 1,
};

export const BOOKING_EXAMPLE = bookingExample;

export const BookingGuest = z
  .object({
    name: z.string(),
    email: z.string(),
    timeZone: z.string().describe('The guest\'s time zone (messages to the guest show times in it)'),
  })
  .meta({ id: 'BookingGuest', examples: [bookingExample.guest] });

export const Booking = z
  .object({
    id: Uuid,
    meetingTypeId: Uuid,
    meetingTypeName: z.string(),
    ownerId: Uuid.describe('The meeting type\'s owner'),
    hostId: Uuid.describe('The host: the owner, the round-robin host it went to, or the first host of a collective type'),
    hostIds: z.array(Uuid).describe('Every host whose calendar holds the booking\'s event'),
    assignment: BookingAssignment.nullable().describe('How a team type\'s booking went to its hosts; null for the owner\'s own type'),
    spaceId: Uuid,
    calendarId: Uuid,
    eventId: Uuid.nullable().describe(
      'The event the booking put in the host\'s calendar; in GET /bookings and /sync, the caller\'s own (a collective booking puts one in each host\'s calendar)',
    ),
    startsAt: DateTime,
    endsAt: DateTime,
    timeZone: z.string().describe('The host\'s time zone (the calendar event\'s)'),
    guest: BookingGuest,
    note: z.string().nullable(),
    location: z.string().nullable(),
    status: BookingStatus,
    cancelledBy: z.enum(['guest', 'host']).nullable(),
    createdAt: DateTime,
    updatedAt: DateTime,
    version: z.number().int().describe('1 when booked, +1 with every move or cancellation (the iCalendar SEQUENCE is version - 1)'),
  })
  .meta({ id: 'Booking', description: 'A booking, as the API answers and webhooks deliver it.', examples: [bookingExample] });
export type Booking = z.infer<typeof Booking>;

export const BookingRescheduledPrevious = z
  .object({ startsAt: DateTime, endsAt: DateTime })
  .meta({
    id: 'BookingRescheduledPrevious', description: 'Where the booking was before it moved.',
    examples: [{ startsAt: '2026-12-01T14:00:00.000Z', endsAt: '2026-12-01T14:30:00.000Z' }],
  });

/** Whose webhooks and lists a booking reaches: its hosts and the type's owner. */
export const bookingAudience = (booking: Pick<Booking, 'hostIds' | 'ownerId'>) => [...new Set([...booking.hostIds, booking.ownerId])];

/** booking.rescheduled carries the booking and where it was (the webhook's `data` and `previous`). */
export const BookingRescheduled = z.object({ data: Booking, previous: BookingRescheduledPrevious });

/** Schema versions of the slice's domain events (services/eventstore/booking-upcasters.ts reads the older ones). */
export const BOOKING_EVENT_VERSIONS = {
  'meeting_type.created': 2, 'meeting_type.updated': 2, 'meeting_type.deleted': 2,
  'booking.created': 2, 'booking.rescheduled': 2, 'booking.cancelled': 2,
} as const;

/** The booking a booking.* event carries (booking.rescheduled wraps it with `previous`); null for any other shape. */
export function bookingIn(type: string, data: unknown): Booking | null {
  const parsed = type === 'booking.rescheduled' ? BookingRescheduled.safeParse(data) : Booking.safeParse(data);
  if (!parsed.success) return null;
  return 'previous' in parsed.data ? parsed.data.data : parsed.data;
}

/** The manage token's hash, kept beside the booking (never in its webhook payload). */
export const BookingTokenIssued = z.object({ bookingId: Uuid, hostId: Uuid, tokenHash: z.string() });

/**
 * A host's time kept in their schedule for a booking being made or moved across several hosts' schedules (a
 * collective type), until the booking takes it, the hold is released, or it lapses at `expiresAt`.
 */
export const BookingHeld = z.object({
  bookingId: Uuid, hostId: Uuid, meetingTypeId: Uuid, startsAt: DateTime, endsAt: DateTime, heldAt: DateTime, expiresAt: DateTime,
});
export type BookingHeld = z.infer<typeof BookingHeld>;
export const BookingHoldReleased = z.object({ bookingId: Uuid, hostId: Uuid });

/** A collective booking in the schedule of a host other than its first: that host's event follows the booking. */
export const BookingPart = z.object({
  bookingId: Uuid, meetingTypeId: Uuid, hostId: Uuid, spaceId: Uuid, calendarId: Uuid, eventId: Uuid, startsAt: DateTime, endsAt: DateTime,
  guest: z.object({ name: z.string(), email: z.string() }),
  status: BookingStatus, version: z.number().int().describe('The booking\'s version this part follows'),
});
export type BookingPart = z.infer<typeof BookingPart>;

// ---- public pages ----

/** Dates and instants outside 1970-2999 are refused, as the availability endpoints do. */

export const PublicPageParams = z.object({ username: z.string().min(1).max(64), slug: z.string().min(1).max(64) });

const publicHostExample = { name: 'Mia Weber', username: 'mia', timeZone: 'Europe/Berlin' };
const publicTypeExample = {
  host: publicHostExample,
  hosts: [publicHostExample],
  meetingType: {
    name: 'Intro call', slug: 'intro-call', durationMinutes: 30, durations: [30, 60], seats: 1, requiresConfirmation: false,
    assignment: null, description: 'A first half hour to see whether we can help.', location: 'Video call (link in the invitation)',
  },
};

const PublicMeetingTypeInfo = z.object({
  name: z.string(),
  slug: z.string(),
  durationMinutes: z.number().int().describe('The default length'),
  durations: z.array(z.number().int()).describe('The lengths a guest may choose, the default first'),
  seats: z.number().int().describe('Guests per slot'),
  requiresConfirmation: z.boolean().describe('A booking waits for the host\'s confirmation'),
  assignment: optionShape.assignment,
  description: z.string().nullable(),
  location: z.string().nullable(),
});
const PublicHost = z.object({ name: z.string(), username: z.string(), timeZone: z.string() });

export const PublicMeetingType = z
  .object({
    host: PublicHost.describe('The type\'s owner (the page\'s address)'),
    hosts: z.array(PublicHost).describe('Who hosts its meetings: the owner, or the hosts of a team type'),
    meetingType: PublicMeetingTypeInfo,
  })
  .meta({ id: 'PublicMeetingType', description: 'What a guest sees of a bookable meeting type.', examples: [publicTypeExample] });

/** A length the guest picks: valid values are the meeting type's own `durations`, which only the server knows. */
const offeredLength = (description: string) => ({ description, 'x-issued-by-server': true });

export const SlotsQuery = z.object({
  from: FromDate.optional().describe('First day (YYYY-MM-DD) in `timeZone`; default today there'),
  days: z.coerce.number().int().min(SLOT_DAYS.min).max(SLOT_DAYS.max).optional()
    .describe(`Number of days, ${SLOT_DAYS.min}-${SLOT_DAYS.max} (default ${SLOT_DAYS.default})`),
  timeZone: TimeZone.optional().describe('The guest\'s IANA time zone: days and local times are read in it (default the host\'s)'),
  durationMinutes: z.coerce.number().int().min(5).max(720).optional()
    .meta(offeredLength('One of the type\'s `durations` (400 otherwise); default the first. A booking being moved keeps its own length.')),
});
export type SlotsQuery = z.infer<typeof SlotsQuery>;

const slotExample = { startsAt: '2026-12-01T14:00:00.000Z', endsAt: '2026-12-01T14:30:00.000Z', date: '2026-12-01', time: '14:00', seatsLeft: 1 };

export const Slot = z
  .object({
    startsAt: DateTime,
    endsAt: DateTime,
    date: IsoDate.describe('The date in the guest\'s time zone'),
    time: z.string().describe('HH:MM in the guest\'s time zone'),
    seatsLeft: z.number().int().describe('Guests the slot still takes (the type\'s `seats` when nobody has booked it yet)'),
  })
  .meta({ id: 'Slot', examples: [slotExample] });

export const SlotsResponse = z
  .object({
    timeZone: z.string().describe('The zone `date` and `time` are read in'),
    durationMinutes: z.number().int(),
    startsAt: DateTime.describe('Start of the first day asked for'),
    endsAt: DateTime.describe('End of the last day asked for'),
    slots: z.array(Slot).describe(
      'Bookable starts in time order: inside the type\'s hours and date overrides, outside busy time and its buffers, after the '
        + 'notice, on days and weeks under the limits; a team type\'s when every host (collective) or any host (round robin) is free',
    ),
  })
  .meta({
    id: 'SlotsResponse',
    examples: [{ timeZone: 'Europe/Lisbon', durationMinutes: 30, startsAt: '2026-12-01T00:00:00.000Z', endsAt: '2026-12-02T00:00:00.000Z', slots: [slotExample] }],
  });

const GuestInput = z.strictObject({ name: NonBlankText(200), email: Email });

export const PublicBookingBody = z
  .object({
    startsAt: Instant.describe('One of the slots\' `startsAt`'),
    guest: GuestInput,
    note: Text(2_000).nullable().optional(),
    timeZone: TimeZone.optional().describe('The guest\'s time zone for messages (default the host\'s)'),
    durationMinutes: DurationMinutes.optional().meta(offeredLength('One of the type\'s `durations` (400 otherwise); default the first')),
  })
  .meta({
    id: 'PublicBookingBody',
    examples: [{ startsAt: '2026-12-01T14:00:00.000Z', guest: { name: 'Ana Costa', email: 'ana@example.com' }, note: 'I would like to talk about the spring workshop.', timeZone: 'Europe/Lisbon' }],
  });
export type PublicBookingBody = z.infer<typeof PublicBookingBody>;

const guestBookingExample = {
  id: BOOKING_ID, startsAt: bookingExample.startsAt, endsAt: bookingExample.endsAt, timeZone: 'Europe/Berlin',
  guest: bookingExample.guest, note: bookingExample.note, location: bookingExample.location, status: 'confirmed', cancelledBy: null,
  createdAt: bookingExample.createdAt, updatedAt: bookingExample.updatedAt, version: 1, ...publicTypeExample,
};

export const GuestBooking = z
  .object({
    ...Booking.pick({
      id: true, startsAt: true, endsAt: true, timeZone: true, guest: true, note: true, location: true, status: true,
      cancelledBy: true, createdAt: true, updatedAt: true, version: true,
    }).shape,
    host: PublicHost.describe('The host: the owner, the round-robin host the booking went to, or a collective type\'s first host'),
    hosts: z.array(PublicHost).describe('Every host of the booking (several for a collective type)'),
    meetingType: PublicMeetingTypeInfo,
  })
  .meta({ id: 'GuestBooking', description: 'A booking as its guest sees it.', examples: [guestBookingExample] });
export type GuestBooking = z.infer<typeof GuestBooking>;

export const PublicBookingResponse = z
  .object({
    booking: GuestBooking,
    manageToken: z.string().describe('Send as `X-Booking-Token` to cancel or reschedule; shown here and in the guest\'s mail links'),
  })
  .meta({ id: 'PublicBookingResponse', examples: [{ booking: guestBookingExample, manageToken: 'bk_3q2J8mVx0cN1yK5tL7wR9pZbD4fH6sAe' }] });

export const GuestBookingResponse = z
  .object({ booking: GuestBooking })
  .meta({ id: 'GuestBookingResponse', examples: [{ booking: guestBookingExample }] });

export const GuestRescheduleOptionsResponse = z
  .object({ booking: GuestBooking, ...SlotsResponse.shape })
  .meta({
    id: 'GuestRescheduleOptionsResponse',
    examples: [{ booking: guestBookingExample, timeZone: 'Europe/Lisbon', durationMinutes: 30, startsAt: '2026-12-01T00:00:00.000Z', endsAt: '2026-12-02T00:00:00.000Z', slots: [slotExample] }],
  });

export const RescheduleBody = z
  .object({ startsAt: Instant.describe('The new start: one of the slots of the booking\'s meeting type') })
  .meta({ id: 'RescheduleBody', examples: [{ startsAt: '2026-12-02T09:30:00.000Z' }] });
export type RescheduleBody = z.infer<typeof RescheduleBody>;

// ---- the host's bookings ----

export const ListBookingsQuery = PageQuery.extend({
  status: BookingStatus.optional().describe('Only bookings in this state'),
  from: Instant.optional().describe('Only bookings starting at or after this instant'),
});

export const BookingResponse = z.object({ booking: Booking }).meta({ id: 'BookingResponse', examples: [{ booking: bookingExample }] });

export const BookingListResponse = z
  .object({ bookings: z.array(Booking), nextPageToken: NextPageToken })
  .meta({ id: 'BookingListResponse', description: 'By start, earliest first', examples: [{ bookings: [bookingExample], nextPageToken: null }] });

export const RescheduleOptionsResponse = z
  .object({ bookingId: Uuid, ...SlotsResponse.shape })
  .meta({
    id: 'RescheduleOptionsResponse',
    description: 'The slots the booking could move to (its own time does not count as busy)',
    examples: [{ bookingId: BOOKING_ID, timeZone: 'Europe/Berlin', durationMinutes: 30, startsAt: '2026-12-01T23:00:00.000Z', endsAt: '2026-12-02T23:00:00.000Z', slots: [slotExample] }],
  });

const BookingIdParams = IdParams;
const notFound = notFoundAnswer('bookings');
const typeNotFound = notFoundAnswer('meeting types');
const notSlot = {
  description: '`slot_taken` (busy by now, within a buffer of busy time, or no seat left) or `slot_unavailable` (`details.reason`: '
    + '`in_past`, `too_soon`, `too_far`, `outside_hours`, `misaligned`, `day_limit` or `week_limit`); `booking_cancelled` '
    + 'for a cancelled or declined booking',
  schema: ErrorEnvelope,
};
const badLength = '400 also for a `durationMinutes` that is not one of the type\'s `durations`.';
const tokenMissing = { description: '`X-Booking-Token` missing (`unauthenticated`)', schema: ErrorEnvelope };
const tokenHeader = 'Needs the `X-Booking-Token` header the booking answered with; a wrong token is 404 and changes nothing.';

const readOnlyCalendar = { description: '`calendar_read_only`: `calendarId` is a subscribed calendar, where bookings cannot go', schema: ErrorEnvelope };

export const meetingTypeOperations = [
  op({
    method: 'get', path: '/meeting-types', tag: 'Bookings', summary: 'The caller\'s meeting types', query: PageQuery,
    responses: { 200: { description: 'Meeting types, oldest first', schema: MeetingTypeListResponse } },
  }),
  op({
    method: 'post', path: '/meeting-types', etag: true, tag: 'Bookings', summary: 'Create a meeting type', body: CreateMeetingTypeBody,
    responses: {
      201: { description: 'Created', schema: MeetingTypeResponse }, 403: readOnlyCalendar, 404: notFoundAnswer('calendars'),
      409: { description: '`slug_taken` (slugs are unique per owner) or `meeting_type_limit_reached`', schema: ErrorEnvelope },
    },
  }),
  op({
    method: 'patch', path: '/meeting-types', etag: true, tag: 'Bookings', summary: 'Change a meeting type (id in the body)',
    body: UpdateMeetingTypeBody,
    responses: {
      200: { description: 'Changed', schema: MeetingTypeResponse }, 403: readOnlyCalendar, 404: typeNotFound,
      409: { description: '`slug_taken`', schema: ErrorEnvelope }, 412: staleEtagAnswer,
    },
  }),
  op({
    method: 'delete', path: '/meeting-types', etag: true, tag: 'Bookings', summary: 'Delete a meeting type nobody has booked',
    query: DeleteMeetingTypeQuery,
    responses: {
      204: { description: 'Deleted' }, 404: typeNotFound, 412: staleEtagAnswer,
      409: { description: '`meeting_type_in_use`: people have booked it; switch it off instead (`enabled: false`)', schema: ErrorEnvelope },
    },
  }),
];

export const publicBookingOperations = [
  op({
    method: 'get', path: '/public/{username}/{slug}', tag: 'Public booking', summary: 'A bookable meeting type',
    description: 'No credential. Unknown usernames, unknown slugs and disabled types are 404.', params: PublicPageParams,
    responses: { 200: { description: 'The type and its host', schema: PublicMeetingType }, 404: typeNotFound },
  }),
  op({
    method: 'get', path: '/public/{username}/{slug}/slots', heavy: true, tag: 'Public booking', summary: 'Bookable slots in the guest\'s time zone',
    description: 'No credential. Starts align on the host\'s clock every 15 minutes (30 for meetings longer than 30 minutes). '
      + badLength,
    params: PublicPageParams, query: SlotsQuery,
    responses: { 200: { description: 'Slots', schema: SlotsResponse }, 404: typeNotFound },
  }),
  op({
    method: 'post', path: '/public/{username}/{slug}/bookings', etag: true, tag: 'Public booking', summary: 'Book a slot',
    description: 'No credential. The booking puts an event in the host\'s calendar (every host\'s for a collective type; '
      + 'a round-robin type\'s goes to one free host, named in `host`), emits booking.created and mails the guest an '
      + 'invitation (iCalendar). Of concurrent bookings of one slot exactly one wins (of a slot with seats, as many as there '
      + 'are seats). A type that requires confirmation answers a `pending` booking, which holds its slot until the host '
      + `answers. ${badLength}`,
    params: PublicPageParams, body: PublicBookingBody,
    responses: { 201: { description: 'Booked', schema: PublicBookingResponse }, 404: typeNotFound, 409: notSlot },
  }),
  op({
    method: 'get', path: '/public/bookings/{id}/reschedule', etag: true, tag: 'Public booking', summary: 'A booking and the times it could move to (guest)',
    description: `${tokenHeader} The booking's own time does not count as busy; a cancelled booking lists no slots.`,
    params: BookingIdParams, query: SlotsQuery,
    responses: { 200: { description: 'The booking and slots', schema: GuestRescheduleOptionsResponse }, 401: tokenMissing, 404: notFound },
  }),
  op({
    method: 'post', path: '/public/bookings/{id}/cancel', etag: true, tag: 'Public booking', summary: 'Cancel a booking (guest)',
    description: `${tokenHeader} Cancelling cancels the host's event too; cancelling again changes nothing.`, params: BookingIdParams,
    responses: { 200: { description: 'Cancelled', schema: GuestBookingResponse }, 401: tokenMissing, 404: notFound },
  }),
  op({
    method: 'post', path: '/public/bookings/{id}/reschedule', etag: true, tag: 'Public booking', summary: 'Move a booking (guest)',
    description: tokenHeader, params: BookingIdParams, body: RescheduleBody,
    responses: { 200: { description: 'Moved', schema: GuestBookingResponse }, 401: tokenMissing, 404: notFound, 409: notSlot },
  }),
];

export const bookingOperations = [
  op({
    method: 'get', path: '/bookings', tag: 'Bookings', summary: 'Bookings the caller hosts or owns the type of, by start', query: ListBookingsQuery,
    responses: { 200: { description: 'Bookings', schema: BookingListResponse } },
  }),
  op({
    method: 'post', path: '/bookings/{id}/cancel', etag: true, tag: 'Bookings', summary: 'Cancel a booking (host); the guest is told',
    description: 'Cancels the calendar event too; cancelling again changes nothing.', params: BookingIdParams,
    responses: { 200: { description: 'Cancelled', schema: BookingResponse }, 404: notFound },
  }),
  op({
    method: 'get', path: '/bookings/{id}/reschedule', heavy: true, tag: 'Bookings', summary: 'Times the booking could move to',
    params: BookingIdParams, query: SlotsQuery,
    responses: { 200: { description: 'Slots', schema: RescheduleOptionsResponse }, 404: notFound },
  }),
  op({
    method: 'post', path: '/bookings/{id}/reschedule', etag: true, tag: 'Bookings', summary: 'Move a booking (host); the guest is told',
    params: BookingIdParams, body: RescheduleBody,
    responses: { 200: { description: 'Moved', schema: BookingResponse }, 404: notFound, 409: notSlot },
  }),
  op({
    method: 'post', path: '/bookings/{id}/confirm', etag: true, tag: 'Bookings', summary: 'Confirm a pending booking (host); the guest is told',
    description: 'Any host of the booking or the type\'s owner. Confirming a confirmed booking changes nothing (200).',
    params: BookingIdParams,
    responses: {
      200: { description: 'Confirmed', schema: BookingResponse }, 404: notFound,
      409: { description: '`booking_not_pending`: the booking is cancelled or declined', schema: ErrorEnvelope },
    },
  }),
  op({
    method: 'post', path: '/bookings/{id}/decline', etag: true, tag: 'Bookings', summary: 'Decline a pending booking (host); the guest is told',
    description: 'Any host of the booking or the type\'s owner. The event leaves the calendar and the slot is free again; the '
      + 'booking is `declined` (delivered to webhooks as booking.cancelled). Declining a declined booking changes nothing (200).',
    params: BookingIdParams,
    responses: {
      200: { description: 'Declined', schema: BookingResponse }, 404: notFound,
      409: { description: '`booking_not_pending`: the booking is confirmed (cancel it instead) or cancelled', schema: ErrorEnvelope },
    },
  }),
];
