/**
 * Booking options over real HTTP: lengths to choose from, dates with other hours or none (and a holiday in the
 * calendar), limits per day and week, seats (one event, the guests as attendees, the last seat won once), and
 * bookings that wait for the host's confirmation (pending holds the slot; confirm, decline, the guest told by mail).
 */
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { asGuest, book, booked, guest, hostWithType, mondayAhead, slotsOf, type Host } from '../support/bookings';
import { DELIVERY_WAIT_MS, until } from '../support/receiver';
import { request, signUp, useTestService, type TestService } from '../support/service';
import { addDays, epochAt } from '../../services/time/local-time';
import { MailLog } from '../../services/mail/mail-log';
import { readMail, veventOf } from '../support/received-mail';

let svc: TestService;
useTestService((s) => (svc = s));

const head = () => svc.service.context.events.headPosition();
const BERLIN = 'Europe/Berlin';
const H = 60;

const MONDAY = mondayAhead(BERLIN);
const TUESDAY = addDays(MONDAY, 1);
const berlin = (minute: number, date = MONDAY) => new Date(epochAt(date, minute, BERLIN)).toISOString();
const weekdays = (startMinute: number, endMinute: number) => [1, 2, 3, 4, 5].map((day) => ({ day, startMinute, endMinute }));

/** A Berlin host whose type is open weekdays 09:00-11:00 (weeks start on Monday, the default). */
const berlinHost = (type: Record<string, unknown> = {}) =>
  hostWithType(svc.base, { hours: weekdays(9 * H, 11 * H), ...type }, { timeZone: BERLIN, name: 'Mia Weber' });

const starts = async (host: Host, date = MONDAY, extra = '') =>
  (await slotsOf(svc.base, host, `?from=${date}&days=1&timeZone=${BERLIN}${extra}`)).map((s) => s.startsAt);

describe('durations', () => {
  it('offers each length, the first by default; the booking lasts the length chosen', async () => {
    const host = await berlinHost({ durationMinutes: 30, durations: [30, 60] });
    expect(host.type).toMatchObject({ durationMinutes: 30, durations: [30, 60] });
    expect(await starts(host, MONDAY, '&durationMinutes=60')).toEqual([9 * H, 9 * H + 30, 10 * H].map((m) => berlin(m)));
    expect(await starts(host)).toHaveLength(7);
    const long = await booked(svc.base, host, berlin(9 * H), { durationMinutes: 60 });
    expect([long.booking.startsAt, long.booking.endsAt]).toEqual([berlin(9 * H), berlin(10 * H)]);
    const short = await booked(svc.base, host, berlin(10 * H));
    expect(short.booking.endsAt).toBe(berlin(10 * H + 30));
    expect(short.booking.meetingType).toMatchObject({ durationMinutes: 30, durations: [30, 60] });
  });

  it('puts the default first: durations alone, or durationMinutes beside them; a PATCH of durationMinutes alone replaces the default', async () => {
    const c = await signUp(svc.base);
    const made = await c.call('POST', '/meeting-types', { name: 'A', slug: 'a', durationMinutes: 45, durations: [15, 45, 15, 90] });
    expect(made.body.meetingType).toMatchObject({ durationMinutes: 45, durations: [45, 15, 90] });
    const patched = await c.call('PATCH', '/meeting-types', { id: made.body.meetingType.id, durationMinutes: 20 });
    expect(patched.body.meetingType).toMatchObject({ durationMinutes: 20, durations: [20, 15, 90] });
    const listed = await c.call('PATCH', '/meeting-types', { id: made.body.meetingType.id, durations: [60, 30] });
    expect(listed.body.meetingType).toMatchObject({ durationMinutes: 60, durations: [60, 30] });
  });

  it('refuses a length the type does not offer (400), writing nothing', async () => {
    const host = await berlinHost({ durations: [30, 60] });
    const before = await head();
    expectInvalid(await book(svc.base, host, berlin(9 * H), { durationMinutes: 45 }), 'body.durationMinutes');
    expectInvalid(await request(svc.base, 'GET', `${host.page}/slots?durationMinutes=45`), 'query.durationMinutes');
    expectInvalid(await request(svc.base, 'GET', `${host.page}/slots?durationMinutes=1000`), 'query.durationMinutes');
    expect(await head()).toBe(before);
  });
});

describe('date overrides and days off', () => {
  it('replaces a date\'s hours, and an empty list is a day off (409 outside_hours when booked anyway)', async () => {
    const host = await berlinHost({ dateOverrides: [{ date: MONDAY, hours: [] }, { date: TUESDAY, hours: [{ startMinute: 14 * H, endMinute: 15 * H }] }] });
    expect(await starts(host)).toEqual([]);
    expect(await starts(host, TUESDAY)).toEqual([14 * H, 14 * H + 15, 14 * H + 30].map((m) => berlin(m, TUESDAY)));
    expect(await starts(host, addDays(MONDAY, 2))).toHaveLength(7);
    const res = await book(svc.base, host, berlin(9 * H));
    expectError(res, 409, 'slot_unavailable');
    expect(res.body.error.details).toEqual({ reason: 'outside_hours' });
    expect((await book(svc.base, host, berlin(14 * H, TUESDAY))).status).toBe(201);
  });

  it('opens a date the weekly hours leave closed, and entries of one date add up', async () => {
    const sunday = addDays(MONDAY, 6);
    const host = await berlinHost({ dateOverrides: [{ date: sunday, hours: [{ startMinute: 10 * H, endMinute: 10 * H + 30 }] }, { date: sunday, hours: [{ startMinute: 16 * H, endMinute: 16 * H + 30 }] }] });
    expect(await starts(host, sunday)).toEqual([berlin(10 * H, sunday), berlin(16 * H, sunday)]);
  });

  it('takes a holiday in the host\'s calendar (an all-day busy event) as the whole day off', async () => {
    const host = await berlinHost();
    const holiday = await host.client.call('POST', '/events', {
      title: 'Holiday', startsAt: berlin(0), endsAt: berlin(0, TUESDAY), allDay: true, kind: 'holiday', timeZone: BERLIN,
    });
    expect(holiday.status).toBe(201);
    expect(await starts(host)).toEqual([]);
    expectError(await book(svc.base, host, berlin(9 * H)), 409, 'slot_taken');
    expect(await starts(host, TUESDAY)).toHaveLength(7);
  });

  it.each([
    [{ dateOverrides: [{ date: '2026-02-30', hours: [] }] }, 'body.dateOverrides.0.date'],
    [{ dateOverrides: [{ date: MONDAY, hours: [{ startMinute: 600, endMinute: 540 }] }] }, 'body.dateOverrides.0.hours.0.endMinute'],
    [{ dateOverrides: [{ date: MONDAY }] }, 'body.dateOverrides.0.hours'],
    [{ dateOverrides: [{ date: MONDAY, hours: [], day: 1 }] }, 'body.dateOverrides.0'],
    [{ durations: [] }, 'body.durations'],
    [{ durations: [4] }, 'body.durations.0'],
    [{ limits: { perDay: 0 } }, 'body.limits.perDay'],
    [{ limits: { perMonth: 3 } }, 'body.limits'],
    [{ seats: 0 }, 'body.seats'],
    [{ seats: 101 }, 'body.seats'],
    [{ requiresConfirmation: 'yes' }, 'body.requiresConfirmation'],
    [{ hosts: ['nope'] }, 'body.hosts.0'],
    [{ assignment: 'random' }, 'body.assignment'],
  ])('refuses %j (400 naming %s) and writes nothing', async (extra, path) => {
    const c = await signUp(svc.base);
    const before = await head();
    expectInvalid(await c.call('POST', '/meeting-types', { name: 'X', slug: 'x', durationMinutes: 30, ...extra }), path);
    expect(await head()).toBe(before);
  });
});

describe('limits', () => {
  it('takes at most perDay bookings a day: then the day lists nothing and a booking is 409 day_limit', async () => {
    const host = await berlinHost({ limits: { perDay: 2 } });
    expect(host.type.limits).toEqual({ perDay: 2, perWeek: null });
    await booked(svc.base, host, berlin(9 * H));
    await booked(svc.base, host, berlin(10 * H));
    expect(await starts(host)).toEqual([]);
    const before = await head();
    const res = await book(svc.base, host, berlin(10 * H + 30));
    expectError(res, 409, 'slot_unavailable');
    expect(res.body.error.details).toEqual({ reason: 'day_limit' });
    expect(await head()).toBe(before);
    expect(await starts(host, TUESDAY)).toHaveLength(7);
  });

  it('takes at most perWeek bookings a week (from the owner\'s weekStartsOn); a cancelled booking frees its place', async () => {
    const host = await berlinHost({ limits: { perWeek: 2 } });
    const first = await booked(svc.base, host, berlin(9 * H));
    await booked(svc.base, host, berlin(9 * H, TUESDAY));
    expect(await starts(host, addDays(MONDAY, 3))).toEqual([]);
    expect((await book(svc.base, host, berlin(9 * H, addDays(MONDAY, 4)))).body.error.details).toEqual({ reason: 'week_limit' });
    expect(await starts(host, addDays(MONDAY, 7))).toHaveLength(7);
    expect((await request(svc.base, 'POST', `/public/bookings/${first.booking.id}/cancel`, undefined, asGuest(first.token))).status).toBe(200);
    expect((await book(svc.base, host, berlin(9 * H, addDays(MONDAY, 4)))).status).toBe(201);
  });

  it('clears a limit with null, and replaces limits as a whole', async () => {
    const host = await berlinHost({ limits: { perDay: 1, perWeek: 3 } });
    const res = await host.client.call('PATCH', '/meeting-types', { id: host.type.id, limits: { perWeek: 5 } });
    expect(res.body.meetingType.limits).toEqual({ perDay: null, perWeek: 5 });
    const cleared = await host.client.call('PATCH', '/meeting-types', { id: host.type.id, limits: { perWeek: null } });
    expect(cleared.body.meetingType.limits).toEqual({ perDay: null, perWeek: null });
  });
});

describe('seats', () => {
  const eventsOn = async (host: Host) =>
    (await host.client.call('GET', `/events?from=${berlin(0)}&to=${berlin(24 * H)}`)).body.events as Array<Record<string, any>>;

  it('puts the guests of a slot in one event, lists the seats left, and refuses a guest once the seats are gone', async () => {
    const host = await berlinHost({ name: 'Workshop', seats: 3 });
    const slot = async () => (await slotsOf(svc.base, host, `?from=${MONDAY}&days=1&timeZone=${BERLIN}`)).find((s) => s.startsAt === berlin(9 * H));
    expect((await slot())!.seatsLeft).toBe(3);
    const made = [];
    for (let i = 1; i <= 3; i++) {
      made.push(await booked(svc.base, host, berlin(9 * H), { guest: guest(i) }));
      expect((await slot())?.seatsLeft ?? 0).toBe(3 - i);
    }
    expect(new Set(made.map((m) => m.booking.id)).size).toBe(3);
    const [event] = (await eventsOn(host)).filter((e) => e.title === 'Workshop');
    expect(event.attendees.map((a: { email: string }) => a.email)).toEqual([guest(1).email, guest(2).email, guest(3).email]);
    expect(event.description).toBeNull();
    const listed = (await host.client.call('GET', '/bookings')).body.bookings as Array<Record<string, any>>;
    expect(listed.map((b) => b.eventId)).toEqual([event.id, event.id, event.id]);
    const before = await head();
    expectError(await book(svc.base, host, berlin(9 * H), { guest: guest(4) }), 409, 'slot_taken');
    // The slot's event is busy for every other start it overlaps.
    expectError(await book(svc.base, host, berlin(9 * H + 15), { guest: guest(4) }), 409, 'slot_taken');
    expect(await head()).toBe(before);

    expect((await request(svc.base, 'POST', `/public/bookings/${made[1].booking.id}/cancel`, undefined, asGuest(made[1].token))).status).toBe(200);
    expect((await slot())!.seatsLeft).toBe(1);
    const [after] = (await eventsOn(host)).filter((e) => e.title === 'Workshop');
    expect(after.attendees.map((a: { email: string }) => a.email)).toEqual([guest(1).email, guest(3).email]);
  });

  it('moves one guest to another slot, leaving the others in theirs; the last guest out cancels the event', async () => {
    const host = await berlinHost({ name: 'Workshop', seats: 2 });
    const a = await booked(svc.base, host, berlin(9 * H), { guest: guest(1) });
    const b = await booked(svc.base, host, berlin(9 * H), { guest: guest(2) });
    const moved = await request(svc.base, 'POST', `/public/bookings/${b.booking.id}/reschedule`, { startsAt: berlin(10 * H) }, asGuest(b.token));
    expect(moved.status).toBe(200);
    const workshops = (await eventsOn(host)).filter((e) => e.title === 'Workshop').map((e) => [e.startsAt, e.attendees.map((x: { email: string }) => x.email)]);
    expect(workshops).toEqual([[berlin(9 * H), [guest(1).email]], [berlin(10 * H), [guest(2).email]]]);
    await request(svc.base, 'POST', `/public/bookings/${a.booking.id}/cancel`, undefined, asGuest(a.token));
    expect((await eventsOn(host)).filter((e) => e.title === 'Workshop').map((e) => e.startsAt)).toEqual([berlin(10 * H)]);
  });

  it('of 20 guests booking the last seat at once, exactly one wins', async () => {
    const host = await berlinHost({ name: 'Workshop', seats: 5 });
    for (let i = 0; i < 4; i++) await booked(svc.base, host, berlin(10 * H), { guest: guest(i) });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => book(svc.base, host, berlin(10 * H), { guest: guest(100 + i) })));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(19).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('slot_taken');
    const [event] = (await eventsOn(host)).filter((e) => e.title === 'Workshop');
    expect(event.attendees).toHaveLength(5);
    expect((await host.client.call('GET', '/bookings')).body.bookings).toHaveLength(5);
  });

  it('counts a slot with seats once against the limits', async () => {
    const host = await berlinHost({ name: 'Workshop', seats: 3, limits: { perDay: 1 } });
    await booked(svc.base, host, berlin(9 * H), { guest: guest(1) });
    await booked(svc.base, host, berlin(9 * H), { guest: guest(2) });
    expect(await starts(host)).toEqual([berlin(9 * H)]);
    expect((await book(svc.base, host, berlin(10 * H), { guest: guest(3) })).body.error.details).toEqual({ reason: 'day_limit' });
  });
});

describe('requiresConfirmation', () => {
  /** The guest's messages about the booking: METHOD, SEQUENCE, the subject's first word and the invitation's STATUS. */
  const mailTo = async (bookingId: string, count: number) => {
    const log = new MailLog(svc.service.context.store);
    const mine = async () => (await log.recent(undefined, 1000)).filter((r) => r.bookingId === bookingId).sort((a, b) => a.sequence - b.sequence);
    await until(async () => (await mine()).length >= count, DELIVERY_WAIT_MS, `${count} messages`);
    return Promise.all((await mine()).map(async (r) => {
      const { calendars } = await readMail(Buffer.from(r.raw, 'base64'));
      return [r.method, r.sequence, r.subject.split(':')[0], veventOf(calendars[1]).getFirstPropertyValue('status')];
    }));
  };

  it('answers a pending booking that holds its slot; the host confirms it and the guest is told', async () => {
    const host = await berlinHost({ requiresConfirmation: true });
    const { booking } = await booked(svc.base, host, berlin(9 * H));
    expect(booking.status).toBe('pending');
    expect(booking.meetingType.requiresConfirmation).toBe(true);
    expect(await starts(host)).not.toContain(berlin(9 * H));
    expectError(await book(svc.base, host, berlin(9 * H), { guest: guest(2) }), 409, 'slot_taken');
    expect((await host.client.call('GET', '/inbox')).body.items.map((i: { id: string }) => i.id)).toEqual([booking.id]);
    const confirmed = await host.client.call('POST', `/bookings/${booking.id}/confirm`);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body.booking).toMatchObject({ id: booking.id, status: 'confirmed', version: 2 });
    const before = await head();
    expect((await host.client.call('POST', `/bookings/${booking.id}/confirm`)).body.booking).toEqual(confirmed.body.booking);
    expectError(await host.client.call('POST', `/bookings/${booking.id}/decline`), 409, 'booking_not_pending');
    expect(await head()).toBe(before);
    expect(await mailTo(booking.id, 2)).toEqual([['REQUEST', 0, 'Requested', 'TENTATIVE'], ['REQUEST', 1, 'Confirmed', 'CONFIRMED']]);
  });

  it('declines: the event leaves the calendar, the slot is free again, the guest is told; a declined booking cannot move', async () => {
    const host = await berlinHost({ requiresConfirmation: true });
    const { booking, token } = await booked(svc.base, host, berlin(9 * H));
    const [listed] = (await host.client.call('GET', '/bookings')).body.bookings;
    const declined = await host.client.call('POST', `/bookings/${booking.id}/decline`);
    expect(declined.body.booking).toMatchObject({ status: 'declined', cancelledBy: 'host', version: 2 });
    expectNotFound(await host.client.call('GET', `/events/${listed.eventId}`));
    expect(await starts(host)).toContain(berlin(9 * H));
    expect((await host.client.call('GET', '/inbox')).body.items).toEqual([]);
    expectError(await host.client.call('POST', `/bookings/${booking.id}/confirm`), 409, 'booking_not_pending');
    expectError(await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: berlin(10 * H) }, asGuest(token)), 409, 'booking_cancelled');
    expect((await request(svc.base, 'GET', `/public/bookings/${booking.id}/reschedule`, undefined, asGuest(token))).body.slots).toEqual([]);
    expect(await mailTo(booking.id, 2)).toEqual([['REQUEST', 0, 'Requested', 'TENTATIVE'], ['CANCEL', 1, 'Declined', 'CANCELLED']]);
  });

  it('lets the guest move or cancel a pending booking (it stays pending when moved)', async () => {
    const host = await berlinHost({ requiresConfirmation: true });
    const { booking, token } = await booked(svc.base, host, berlin(9 * H));
    const moved = await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: berlin(10 * H) }, asGuest(token));
    expect(moved.body.booking).toMatchObject({ status: 'pending', startsAt: berlin(10 * H) });
    const cancelled = await request(svc.base, 'POST', `/public/bookings/${booking.id}/cancel`, undefined, asGuest(token));
    expect(cancelled.body.booking.status).toBe('cancelled');
    expectError(await host.client.call('POST', `/bookings/${booking.id}/confirm`), 409, 'booking_not_pending');
  });

  it('takes an answer from the host only (404 for others, 401 for a guest token, bookings:write for keys)', async () => {
    const host = await berlinHost({ requiresConfirmation: true });
    const { booking, token } = await booked(svc.base, host, berlin(9 * H));
    const other = await signUp(svc.base);
    const before = await head();
    expectNotFound(await other.call('POST', `/bookings/${booking.id}/confirm`));
    expectNotFound(await other.call('POST', `/bookings/${booking.id}/decline`));
    expectError(await request(svc.base, 'POST', `/bookings/${booking.id}/confirm`, undefined, asGuest(token)), 401, 'unauthenticated');
    const key = await host.client.call('POST', '/api-keys', { name: 'read', scopes: ['bookings:read'] });
    const reader = { authorization: `Bearer ${key.body.key}` };
    expectError(await request(svc.base, 'POST', `/bookings/${booking.id}/confirm`, undefined, reader), 403, 'insufficient_scope');
    expectInvalid(await host.client.call('POST', '/bookings/not-a-uuid/confirm'), 'path.id');
    expect(await head()).toBe(before);
  });
});
