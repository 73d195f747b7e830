/**
 * Bookings in the schedule decider, given/when/then: a booking appends its calendar event with it; busy events of
 * the Space (any calendar) and the type's buffers refuse it as slot_taken; moves and cancellations change the event
 * with the booking; only the host or the token's holder may act; a cancelled event cancels its booking.
 */
import type { Booking } from '../../contracts/bookings';
import type { Event } from '../../contracts/events';
import type { BookingCommand } from '../../write-api/schedule/booking.rules';
import { scheduleDecider, type ScheduleCommand } from '../../write-api/schedule/schedule.decider';
import { given } from '../support/given';

const HOST = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const SPACE = '33333333-3333-4333-8333-333333333333';
const CAL = '44444444-4444-4444-8444-444444444444';
const CAL2 = '55555555-5555-4555-8555-555555555555';
const TYPE = '66666666-6666-4666-8666-666666666666';
const NOW = '2026-11-22T00:00:00.000Z';
const at = (hhmm: string) => `2026-12-01T${hhmm}:00.000Z`;

const history = [
  { type: 'space.created' as const, data: { space: { id: SPACE, name: 'Home', kind: 'personal' as const, ownerId: HOST, createdAt: NOW, updatedAt: NOW, deletedAt: null } } },
  ...[CAL, CAL2].map((id) => ({
    type: 'calendar.created' as const,
    data: { calendar: { id, spaceId: SPACE, name: 'Cal', color: '#112233', isDefault: id === CAL, createdAt: NOW, updatedAt: NOW, deletedAt: null } },
  })),
];

const noBuffers = { beforeMinutes: 0, afterMinutes: 0 };

function bookSlot(id: string, start: string, end: string, overrides: Partial<Extract<BookingCommand, { type: 'BookSlot' }>> = {}): ScheduleCommand {
  return {
    type: 'BookSlot',
    booking: {
      id, meetingTypeId: TYPE, meetingTypeName: 'Intro call', hostId: HOST, calendarId: CAL, eventId: `event-${id}`,
      startsAt: start, endsAt: end, timeZone: 'Europe/Berlin', guest: { name: 'Ana', email: 'ana@example.com', timeZone: 'Europe/Lisbon' },
      note: 'Hello', location: 'Video',
    },
    title: 'Intro call with Ana', buffers: noBuffers, reminders: [], tokenHash: `hash-${id}`, now: NOW, ...overrides,
  };
}

/** The events a successful booking appended, to use as history. */
const booked = (id: string, start: string, end: string) => scheduleDecider.decide(bookSlot(id, start, end), history.reduce(scheduleDecider.evolve, scheduleDecider.initialState()));

function busyEvent(id: string, start: string, end: string, overrides: Partial<Event> = {}) {
  const data: Event = {
    id, spaceId: SPACE, calendarId: CAL2, title: 'Busy', description: null, location: null, meetingUrl: null, kind: 'meeting',
    startsAt: start, endsAt: end, timeZone: 'UTC', allDay: false, busy: true, recurrenceRule: null, taskId: null, goalId: null,
    resources: [], attendees: [], reminders: [], allowOverlap: false, exceptions: [], icalUid: null, icalRecurrenceId: null, status: 'confirmed', createdBy: HOST,
    createdAt: NOW, updatedAt: NOW,
    deletedAt: null, version: 1, ...overrides,
  };
  return { type: 'event.created' as const, data };
}

const host = { kind: 'host' as const, userId: HOST };
const guest = (id: string) => ({ kind: 'guest' as const, tokenHash: `hash-${id}` });

describe('booking a slot', () => {
  it('appends the calendar event, the booking and the token hash together', () => {
    const [event, booking, token] = given(scheduleDecider, history).when(bookSlot('b1', at('09:00'), at('09:30'))).then([
      { type: 'event.created', data: { id: 'event-b1', calendarId: CAL, title: 'Intro call with Ana', busy: true, description: 'Hello', location: 'Video' } as never },
      { type: 'booking.created', data: { id: 'b1', spaceId: SPACE, status: 'confirmed', cancelledBy: null, version: 1, eventId: 'event-b1' } as never },
      { type: 'booking.token_issued', data: { bookingId: 'b1', hostId: HOST, tokenHash: 'hash-b1' } as never },
    ]);
    expect((event.data as Event).attendees).toEqual([{ email: 'ana@example.com', name: 'Ana', userId: null, response: 'yes' }]);
    expect(Object.keys(booking.data as Booking)).not.toContain('tokenHash');
    expect(token.type).toBe('booking.token_issued');
  });

  it('refuses a slot overlapping a booking, or a busy event of any calendar of the Space (slot_taken)', () => {
    const err = given(scheduleDecider, [...history, ...booked('b1', at('09:00'), at('09:30'))] as never)
      .when(bookSlot('b2', at('09:15'), at('09:45'))).thenThrows('slot_taken');
    expect(err.details).toEqual({ conflicts: [{ id: 'event-b1', startsAt: at('09:00'), endsAt: at('09:30') }] });
    given(scheduleDecider, [...history, busyEvent('e1', at('09:00'), at('10:00'))]).when(bookSlot('b2', at('09:30'), at('10:00'))).thenThrows('slot_taken');
  });

  it('ignores free events and cancelled ones', () => {
    given(scheduleDecider, [...history, busyEvent('e1', at('09:00'), at('10:00'), { busy: false }), busyEvent('e2', at('09:00'), at('10:00'), { status: 'cancelled' })])
      .when(bookSlot('b1', at('09:00'), at('09:30'))).then([{ type: 'event.created' }, { type: 'booking.created' }, { type: 'booking.token_issued' }]);
  });

  it('keeps the type\'s buffers free around the meeting', () => {
    const withBuffers = (start: string, end: string) => bookSlot('b1', start, end, { buffers: { beforeMinutes: 15, afterMinutes: 10 } });
    const busy = [...history, busyEvent('e1', at('10:00'), at('11:00'))];
    given(scheduleDecider, busy).when(withBuffers(at('11:00'), at('11:30'))).thenThrows('slot_taken'); // needs 10:45-11:00 free
    given(scheduleDecider, busy).when(withBuffers(at('11:15'), at('11:45'))).then([{ type: 'event.created' }, { type: 'booking.created' }, { type: 'booking.token_issued' }]);
    given(scheduleDecider, busy).when(withBuffers(at('09:30'), at('09:55'))).thenThrows('slot_taken'); // needs 09:55-10:05 free
    given(scheduleDecider, busy).when(withBuffers(at('09:20'), at('09:50'))).then([{ type: 'event.created' }, { type: 'booking.created' }, { type: 'booking.token_issued' }]);
  });

  it('checks each occurrence of a recurring busy event', () => {
    const daily = busyEvent('e1', '2026-11-25T09:00:00.000Z', '2026-11-25T10:00:00.000Z', { recurrenceRule: 'FREQ=DAILY' });
    given(scheduleDecider, [...history, daily]).when(bookSlot('b1', at('09:30'), at('10:00'))).thenThrows('slot_taken');
  });

  it('takes a series\' exceptions: a cancelled or non-busy occurrence frees its time, a moved one holds its new time', () => {
    const daily = (exceptions: Event['exceptions']) =>
      busyEvent('e1', '2026-11-25T09:00:00.000Z', '2026-11-25T10:00:00.000Z', { recurrenceRule: 'FREQ=DAILY', exceptions });
    const accepted = [{ type: 'event.created' as const }, { type: 'booking.created' as const }, { type: 'booking.token_issued' as const }];
    const original = at('09:00');
    given(scheduleDecider, [...history, daily([{ occurrenceStartsAt: original, cancelled: true }])]).when(bookSlot('b1', at('09:30'), at('10:00'))).then(accepted);
    given(scheduleDecider, [...history, daily([{ occurrenceStartsAt: original, busy: false }])]).when(bookSlot('b1', at('09:30'), at('10:00'))).then(accepted);
    const moved = daily([{ occurrenceStartsAt: original, startsAt: at('14:00'), endsAt: at('15:00') }]);
    given(scheduleDecider, [...history, moved]).when(bookSlot('b1', at('09:30'), at('10:00'))).then(accepted);
    given(scheduleDecider, [...history, moved]).when(bookSlot('b1', at('14:30'), at('15:00'))).thenThrows('slot_taken');
  });

  it('refuses another person\'s Space and unknown calendars (not_found), and a reused id', () => {
    const theirs = bookSlot('b1', at('09:00'), at('09:30'));
    (theirs as { booking: { hostId: string } }).booking.hostId = OTHER;
    given(scheduleDecider, history).when(theirs).thenThrows('not_found');
    const elsewhere = bookSlot('b1', at('09:00'), at('09:30'));
    (elsewhere as { booking: { calendarId: string } }).booking.calendarId = TYPE;
    given(scheduleDecider, history).when(elsewhere).thenThrows('not_found');
    given(scheduleDecider, [...history, ...booked('b1', at('09:00'), at('09:30'))] as never).when(bookSlot('b1', at('12:00'), at('12:30'))).thenThrows('duplicate_id');
  });
});

describe('moving and cancelling', () => {
  const withBooking = () => [...history, ...booked('b1', at('09:00'), at('09:30'))] as never;
  const move = (actor: typeof host | ReturnType<typeof guest>, start: string, end: string): ScheduleCommand => ({
    type: 'RescheduleBooking', bookingId: 'b1', actor, startsAt: start, endsAt: end, buffers: noBuffers, now: NOW,
  });
  const cancel = (actor: typeof host | ReturnType<typeof guest>): ScheduleCommand => ({ type: 'CancelBooking', bookingId: 'b1', actor, now: NOW });

  it('moves the booking and its event together, with the previous times; its own time does not block', () => {
    given(scheduleDecider, withBooking()).when(move(guest('b1'), at('09:15'), at('09:45'))).then([
      { type: 'event.updated', data: { id: 'event-b1', startsAt: at('09:15'), endsAt: at('09:45'), version: 2 } as never },
      { type: 'booking.rescheduled', data: { data: { id: 'b1', startsAt: at('09:15'), version: 2 }, previous: { startsAt: at('09:00'), endsAt: at('09:30') } } as never },
    ]);
  });

  it('refuses a move onto busy time (slot_taken) and of a cancelled booking (booking_cancelled)', () => {
    given(scheduleDecider, [...withBooking(), busyEvent('e1', at('12:00'), at('13:00'))]).when(move(host, at('12:30'), at('13:00'))).thenThrows('slot_taken');
    const cancelled = [...withBooking(), ...scheduleDecider.decide(cancel(host), (withBooking() as never[]).reduce(scheduleDecider.evolve, scheduleDecider.initialState()))];
    given(scheduleDecider, cancelled as never).when(move(host, at('12:00'), at('12:30'))).thenThrows('booking_cancelled');
  });

  it('cancels the booking and its event; cancelling again decides nothing', () => {
    const events = given(scheduleDecider, withBooking()).when(cancel(guest('b1'))).then([
      { type: 'event.cancelled', data: { id: 'event-b1', status: 'cancelled', version: 2 } as never },
      { type: 'booking.cancelled', data: { id: 'b1', status: 'cancelled', cancelledBy: 'guest', version: 2 } as never },
    ]);
    given(scheduleDecider, [...withBooking(), ...events] as never).when(cancel(host)).then([]);
  });

  it('lets only the host or the token\'s holder act (not_found for anyone else)', () => {
    for (const actor of [{ kind: 'host' as const, userId: OTHER }, { kind: 'guest' as const, tokenHash: 'hash-other' }]) {
      given(scheduleDecider, withBooking()).when(cancel(actor)).thenThrows('not_found');
      given(scheduleDecider, withBooking()).when(move(actor, at('12:00'), at('12:30'))).thenThrows('not_found');
    }
    given(scheduleDecider, history).when(cancel(host)).thenThrows('not_found');
  });

  it('cancels the booking when its event is cancelled in the calendar', () => {
    given(scheduleDecider, withBooking()).when({ type: 'CancelEvent', actorId: HOST, eventId: 'event-b1', now: NOW }).then([
      { type: 'event.cancelled', data: { id: 'event-b1' } as never },
      { type: 'booking.cancelled', data: { id: 'b1', cancelledBy: 'host' } as never },
    ]);
  });
});
