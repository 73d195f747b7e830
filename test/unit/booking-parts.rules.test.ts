/**
 * A collective booking in its hosts' schedules, given/when/then: holds (the same rules as a booking, standing until
 * released, taken by the booking, or lapsed), and the parts the other hosts' schedules keep (their event follows the
 * booking version by version; a host cancelling their event ends their part).
 */
import type { BookingHeld, BookingPart } from '../../contracts/bookings';
import type { Event } from '../../contracts/events';
import type { ScheduleCommand } from '../../write-api/schedule/schedule.decider';
import { scheduleDecider } from '../../write-api/schedule/schedule.decider';
import { after, ask, at, bookSlot as booking, CAL, history, HOST, NOW, SPACE, TYPE } from '../support/booking-schedule';
import { given } from '../support/given';

const LATER = '2026-11-22T00:05:00.000Z';

const holdSlot = (bookingId: string, start: string, end: string, overrides: Partial<BookingHeld> = {}, slot = ask()): ScheduleCommand => ({
  type: 'HoldSlot', ask: slot, ignoreEventId: null, now: NOW,
  hold: { bookingId, hostId: HOST, meetingTypeId: TYPE, startsAt: start, endsAt: end, heldAt: NOW, expiresAt: '2026-11-22T00:01:00.000Z', ...overrides },
});

const bookSlot = (id: string, start: string, end: string, now = NOW) => booking(id, start, end, { now });

const part = (overrides: Partial<BookingPart> = {}): BookingPart => ({
  bookingId: 'b1', meetingTypeId: TYPE, hostId: HOST, spaceId: SPACE, calendarId: CAL, eventId: 'part-event-1', startsAt: at('09:00'),
  endsAt: at('09:30'), guest: { name: 'Ana', email: 'ana@example.com' }, status: 'confirmed', version: 1, ...overrides,
});
const syncPart = (p: BookingPart): ScheduleCommand => ({
  type: 'SyncPart', part: p, event: { title: 'Team call with Ana', description: null, location: null, timeZone: 'UTC', reminders: [] }, now: NOW,
});

const busy = (id: string, start: string, end: string): ScheduleCommand => ({
  type: 'CreateEvent', actorId: HOST, eventId: id, now: NOW,
  fields: {
    calendarId: CAL, title: 'Busy', description: null, location: null, meetingUrl: null, kind: 'meeting', startsAt: start, endsAt: end,
    timeZone: 'UTC', allDay: false, busy: true, recurrenceRule: null, taskId: null, goalId: null, resources: [], attendees: [], reminders: [],
    allowOverlap: false,
  },
});

describe('holds', () => {
  it('holds free time under the same rules as a booking: busy time and limits refuse it', () => {
    given(scheduleDecider, history).when(holdSlot('b1', at('09:00'), at('09:30'))).then([{ type: 'booking.held', data: { bookingId: 'b1', hostId: HOST } as never }]);
    given(scheduleDecider, after([busy('e1', at('09:15'), at('10:00'))])).when(holdSlot('b1', at('09:00'), at('09:30'))).thenThrows('slot_taken');
    const day = [{ reason: 'day_limit' as const, from: at('00:00'), to: '2026-12-02T00:00:00.000Z', max: 1 }];
    const err = given(scheduleDecider, after([bookSlot('b0', at('07:00'), at('07:30'))]))
      .when(holdSlot('b1', at('09:00'), at('09:30'), {}, ask({ quotas: day }))).thenThrows('slot_unavailable');
    expect(err.details).toEqual({ reason: 'day_limit' });
  });

  it('answers a repeated hold with nothing', () => {
    given(scheduleDecider, after([holdSlot('b1', at('09:00'), at('09:30'))])).when(holdSlot('b1', at('09:00'), at('09:30'))).then([]);
  });

  it('keeps another booking\'s held time from bookings and holds until it is released or lapses; the own booking takes it', () => {
    const held = after([holdSlot('b1', at('09:00'), at('09:30'))]);
    given(scheduleDecider, held).when(bookSlot('b2', at('09:15'), at('09:45'))).thenThrows('slot_taken');
    given(scheduleDecider, held).when(holdSlot('b2', at('09:00'), at('09:30'))).thenThrows('slot_taken');
    given(scheduleDecider, held).when(bookSlot('b1', at('09:00'), at('09:30'))).then([{ type: 'event.created' }, { type: 'booking.created' }, { type: 'booking.token_issued' }]);
    // Lapsed: a minute after it was made.
    given(scheduleDecider, held).when(bookSlot('b2', at('09:15'), at('09:45'), LATER)).then([{ type: 'event.created' }, { type: 'booking.created' }, { type: 'booking.token_issued' }]);
    const released = after([holdSlot('b1', at('09:00'), at('09:30')), { type: 'ReleaseHold', bookingId: 'b1', hostId: HOST }]);
    given(scheduleDecider, released).when(bookSlot('b2', at('09:15'), at('09:45'))).then([{ type: 'event.created' }, { type: 'booking.created' }, { type: 'booking.token_issued' }]);
    given(scheduleDecider, released).when({ type: 'ReleaseHold', bookingId: 'b1', hostId: HOST }).then([]);
    // Taken by its booking: nothing is left to release.
    given(scheduleDecider, after([holdSlot('b1', at('09:00'), at('09:30')), bookSlot('b1', at('09:00'), at('09:30'))])).when({ type: 'ReleaseHold', bookingId: 'b1', hostId: HOST }).then([]);
  });

  it('refuses a hold in another person\'s schedule (not_found)', () => {
    given(scheduleDecider, history).when(holdSlot('b1', at('09:00'), at('09:30'), { hostId: '22222222-2222-4222-8222-222222222222' })).thenThrows('not_found');
  });
});

describe('parts', () => {
  it('makes the host\'s event for the booking, taking the host\'s hold; the same version again decides nothing', () => {
    const [created, changed] = given(scheduleDecider, after([holdSlot('b1', at('09:00'), at('09:30'))])).when(syncPart(part())).then([
      { type: 'event.created', data: { id: 'part-event-1', calendarId: CAL, startsAt: at('09:00'), busy: true } as never },
      { type: 'booking.part_changed', data: { part: { bookingId: 'b1', eventId: 'part-event-1', version: 1 } } as never },
    ]);
    expect((created.data as Event).attendees.map((a) => a.email)).toEqual(['ana@example.com']);
    const synced = [...after([holdSlot('b1', at('09:00'), at('09:30'))]), created, changed] as never[];
    given(scheduleDecider, synced).when(syncPart(part())).then([]);
    given(scheduleDecider, synced).when({ type: 'ReleaseHold', bookingId: 'b1', hostId: HOST }).then([]);
  });

  it('follows the booking: a move moves the event, a status change only the part, an end cancels the event (then nothing more)', () => {
    const synced = after([syncPart(part())]);
    given(scheduleDecider, synced).when(syncPart(part({ version: 2, startsAt: at('10:00'), endsAt: at('10:30'), eventId: 'unused' }))).then([
      { type: 'event.updated', data: { id: 'part-event-1', startsAt: at('10:00'), version: 2 } as never },
      { type: 'booking.part_changed', data: { part: { eventId: 'part-event-1', version: 2 } } as never },
    ]);
    given(scheduleDecider, synced).when(syncPart(part({ version: 2, status: 'pending' }))).then([{ type: 'booking.part_changed', data: { part: { status: 'pending' } } as never }]);
    const ended = after([syncPart(part()), syncPart(part({ version: 2, status: 'cancelled' }))]);
    expect((ended as Array<{ type: string }>).map((e) => e.type).slice(-2)).toEqual(['event.cancelled', 'booking.part_changed']);
    given(scheduleDecider, ended).when(syncPart(part({ version: 3, startsAt: at('11:00'), endsAt: at('11:30') }))).then([]);
  });

  it('counts a part as the host\'s meeting of the type (limits) and its event as busy', () => {
    const synced = after([syncPart(part())]);
    given(scheduleDecider, synced).when(bookSlot('b2', at('09:00'), at('09:30'))).thenThrows('slot_taken');
    const day = [{ reason: 'day_limit' as const, from: at('00:00'), to: '2026-12-02T00:00:00.000Z', max: 1 }];
    given(scheduleDecider, synced).when(holdSlot('b2', at('12:00'), at('12:30'), {}, ask({ quotas: day }))).thenThrows('slot_unavailable');
  });

  it('ends the part when its host cancels the event in their calendar', () => {
    given(scheduleDecider, after([syncPart(part())])).when({ type: 'CancelEvent', actorId: HOST, eventId: 'part-event-1', now: NOW }).then([
      { type: 'event.cancelled', data: { id: 'part-event-1' } as never },
      { type: 'booking.part_changed', data: { part: { bookingId: 'b1', status: 'cancelled', version: 1 } } as never },
    ]);
  });
});
