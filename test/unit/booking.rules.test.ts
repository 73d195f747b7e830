/**
 * Bookings in the schedule decider, given/when/then: a booking appends its calendar event with it; busy events of
 * the Space (any calendar) and the type's buffers refuse it as slot_taken; moves and cancellations change the event
 * with the booking; only the host or the token's holder may act; a cancelled event cancels its booking.
 */
import type { Booking } from '../../contracts/bookings';
import type { Event } from '../../contracts/events';
import { scheduleDecider, type ScheduleCommand } from '../../write-api/schedule/schedule.decider';
import { after, ask, at, bookSlot, CAL, CAL2, history, HOST, NOW, OTHER, SPACE, TYPE } from '../support/booking-schedule';
import { given } from '../support/given';

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
    const withBuffers = (start: string, end: string) => bookSlot('b1', start, end, { ask: ask({ buffers: { beforeMinutes: 15, afterMinutes: 10 } }) });
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
    type: 'RescheduleBooking', bookingId: 'b1', actor, startsAt: start, endsAt: end, ask: ask(), newEventId: 'event-b1-moved', now: NOW,
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

describe('seats, limits and the host\'s answer', () => {
  const seated = (n: number) => ask({ seats: n });
  const seat = (id: string, email: string, seats = 2): ScheduleCommand => ({
    ...bookSlot(id, at('09:00'), at('09:30'), { ask: seated(seats) }),
    booking: { ...(bookSlot(id, at('09:00'), at('09:30')) as { booking: object }).booking, guest: { name: email, email, timeZone: 'UTC' } },
  } as ScheduleCommand);
  const decided = after;

  it('seats a second guest in the slot\'s event (event.updated, one more attendee), and refuses once the seats are gone', () => {
    const [joined, booking] = given(scheduleDecider, decided([seat('b1', 'a@example.com')])).when(seat('b2', 'b@example.com')).then([
      { type: 'event.updated', data: { id: 'event-b1', version: 2 } as never },
      { type: 'booking.created', data: { id: 'b2', eventId: 'event-b1' } as never },
      { type: 'booking.token_issued' },
    ]);
    expect((joined.data as Event).attendees.map((a) => a.email)).toEqual(['a@example.com', 'b@example.com']);
    expect(booking.type).toBe('booking.created');
    const full = given(scheduleDecider, decided([seat('b1', 'a@example.com'), seat('b2', 'b@example.com')])).when(seat('b3', 'c@example.com')).thenThrows('slot_taken');
    expect(full.details).toEqual({ seats: 2 });
  });

  it('lets a guest leave a shared event (event.updated without them); the last one out cancels it', () => {
    const two = decided([seat('b1', 'a@example.com'), seat('b2', 'b@example.com')]);
    const [left] = given(scheduleDecider, two).when({ type: 'CancelBooking', bookingId: 'b2', actor: guest('b2'), now: NOW })
      .then([{ type: 'event.updated', data: { id: 'event-b1' } as never }, { type: 'booking.cancelled', data: { id: 'b2' } as never }]);
    expect((left.data as Event).attendees.map((a) => a.email)).toEqual(['a@example.com']);
    const one = decided([seat('b1', 'a@example.com'), seat('b2', 'b@example.com'), { type: 'CancelBooking', bookingId: 'b2', actor: guest('b2'), now: NOW }]);
    given(scheduleDecider, one).when({ type: 'CancelBooking', bookingId: 'b1', actor: host, now: NOW })
      .then([{ type: 'event.cancelled', data: { id: 'event-b1', status: 'cancelled' } as never }, { type: 'booking.cancelled' }]);
  });

  it('refuses a new meeting over a limit (slot_unavailable day_limit); a seat in an existing meeting adds none', () => {
    const day = [{ reason: 'day_limit' as const, from: at('00:00'), to: '2026-12-02T00:00:00.000Z', max: 1 }];
    const limited = (id: string, start: string, end: string, seats = 1) => bookSlot(id, start, end, { ask: ask({ quotas: day, seats }) });
    const err = given(scheduleDecider, decided([limited('b1', at('09:00'), at('09:30'))])).when(limited('b2', at('11:00'), at('11:30'))).thenThrows('slot_unavailable');
    expect(err.details).toEqual({ reason: 'day_limit' });
    const nextDay = [{ reason: 'day_limit' as const, from: '2026-12-02T00:00:00.000Z', to: '2026-12-03T00:00:00.000Z', max: 1 }];
    given(scheduleDecider, decided([limited('b1', at('09:00'), at('09:30'))]))
      .when(bookSlot('b2', '2026-12-02T09:00:00.000Z', '2026-12-02T09:30:00.000Z', { ask: ask({ quotas: nextDay }) }))
      .then([{ type: 'event.created' }, { type: 'booking.created' }, { type: 'booking.token_issued' }]);
    given(scheduleDecider, decided([limited('b1', at('09:00'), at('09:30'), 3)])).when(limited('b2', at('09:00'), at('09:30'), 3))
      .then([{ type: 'event.updated' }, { type: 'booking.created' }, { type: 'booking.token_issued' }]);
    // A cancelled booking frees its place.
    given(scheduleDecider, decided([limited('b1', at('09:00'), at('09:30')), { type: 'CancelBooking', bookingId: 'b1', actor: host, now: NOW }]))
      .when(limited('b2', at('11:00'), at('11:30'))).then([{ type: 'event.created' }, { type: 'booking.created' }, { type: 'booking.token_issued' }]);
  });

  it('books `pending` when the type asks the host; confirm and decline answer it once', () => {
    const pending = decided([bookSlot('b1', at('09:00'), at('09:30'), { requiresConfirmation: true })]);
    expect((pending.find((e: { type: string }) => e.type === 'booking.created') as unknown as { data: Booking }).data.status).toBe('pending');
    const answer = (a: 'confirm' | 'decline', actor: typeof host | ReturnType<typeof guest> = host): ScheduleCommand => ({ type: 'AnswerBooking', bookingId: 'b1', actor, answer: a, now: NOW });
    const [confirmed] = given(scheduleDecider, pending).when(answer('confirm')).then([{ type: 'booking.confirmed', data: { status: 'confirmed', version: 2 } as never }]);
    given(scheduleDecider, [...pending, confirmed] as never).when(answer('confirm')).then([]);
    given(scheduleDecider, [...pending, confirmed] as never).when(answer('decline')).thenThrows('booking_not_pending');
    const declined = given(scheduleDecider, pending).when(answer('decline')).then([
      { type: 'event.cancelled', data: { id: 'event-b1' } as never }, { type: 'booking.declined', data: { status: 'declined', cancelledBy: 'host' } as never },
    ]);
    given(scheduleDecider, [...pending, ...declined] as never).when(answer('confirm')).thenThrows('booking_not_pending');
    given(scheduleDecider, [...pending, ...declined] as never).when(answer('decline')).then([]);
    // A declined booking's time is free again.
    given(scheduleDecider, [...pending, ...declined] as never).when(bookSlot('b2', at('09:00'), at('09:30')))
      .then([{ type: 'event.created' }, { type: 'booking.created' }, { type: 'booking.token_issued' }]);
    given(scheduleDecider, pending).when(answer('confirm', { kind: 'host', userId: OTHER })).thenThrows('not_found');
  });
});
