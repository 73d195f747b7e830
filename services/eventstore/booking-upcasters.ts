/**
 * Meeting types and bookings recorded before the booking options and team types (v1) read as the owner's own type
 * with its one length, no date overrides, limits or seats, confirmed at once; and as a booking of the owner's own.
 */
type Data = Record<string, unknown>;

const withOptions = (data: Data) => Object.assign({}, data, {
  durations: data.durations ?? [data.durationMinutes], dateOverrides: data.dateOverrides ?? [],
  limits: data.limits ?? { perDay: null, perWeek: null }, seats: data.seats ?? 1,
  requiresConfirmation: data.requiresConfirmation ?? false, hosts: data.hosts ?? [], assignment: data.assignment ?? null,
});

const ownersBooking = (data: Data) => Object.assign({}, data, {
  ownerId: data.ownerId ?? data.hostId, hostIds: data.hostIds ?? [data.hostId], assignment: data.assignment ?? null,
});

/** Upcasters (upcasters.ts) from v1 of the slice's types. */
export const BOOKING_UPCASTERS: ReadonlyArray<{ type: string; from: number; up(data: Data): Data }> = [
  ...['meeting_type.created', 'meeting_type.updated', 'meeting_type.deleted'].map((type) => ({ type, from: 1, up: withOptions })),
  ...['booking.created', 'booking.cancelled'].map((type) => ({ type, from: 1, up: ownersBooking })),
  {
    type: 'booking.rescheduled', from: 1,
    up: (data: Data) => Object.assign({}, data, { data: ownersBooking(data.data as Data) }),
  },
];
