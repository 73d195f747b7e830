/**
 * Managing bookings over real HTTP: the guest with X-Booking-Token (cancel, reschedule, the times it could move to),
 * the host with bookings:read / bookings:write (list, cancel, reschedule options, reschedule); the calendar event
 * follows; wrong tokens, other hosts and bad input change nothing; the inbox lists booking requests.
 */
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { asGuest, booked, hostWithType, slotsOf, type Host } from '../support/bookings';
import { request, signUp, useTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
useTestService((s) => (svc = s));

const head = () => svc.service.context.events.headPosition();

/** A host, the first few slots of the next two days, and one booking on the first. */
async function withBooking(typeOverrides: Record<string, unknown> = {}) {
  const host = await hostWithType(svc.base, typeOverrides);
  const slots = await slotsOf(svc.base, host, '?days=2');
  const made = await booked(svc.base, host, slots[0].startsAt);
  return { host, slots: slots.map((s) => s.startsAt), ...made };
}

const event = (host: Host, id: string) => host.client.call('GET', `/events/${id}`);
const hostBookings = async (c: Client, query = '') => {
  const res = await c.call('GET', `/bookings${query}`);
  expect(res.status).toBe(200);
  return res.body as { bookings: Array<Record<string, any>>; nextPageToken: string | null };
};

async function apiKey(c: Client, scopes: string[]) {
  const res = await c.call('POST', '/api-keys', { name: 'k', scopes });
  return (method: string, path: string, body?: unknown) => request(svc.base, method, path, body, { authorization: `Bearer ${res.body.key}` });
}

describe('the guest, with the manage token', () => {
  it('sees the booking and the times it could move to, its own time included', async () => {
    const { booking, token, slots } = await withBooking();
    const res = await request(svc.base, 'GET', `/public/bookings/${booking.id}/reschedule?days=2&timeZone=Asia/Tokyo`, undefined, asGuest(token));
    expect(res.status).toBe(200);
    expect(res.body.booking).toEqual(booking);
    expect(res.body.timeZone).toBe('Asia/Tokyo');
    expect(res.body.slots.map((s: { startsAt: string }) => s.startsAt)).toContain(slots[0]);
  });

  it('moves the booking (200) and its calendar event; the old time is free again', async () => {
    const { host, booking, token, slots } = await withBooking();
    const res = await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: slots[6] }, asGuest(token));
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ id: booking.id, startsAt: slots[6], status: 'confirmed', version: 2 });
    const [listed] = (await hostBookings(host.client)).bookings;
    expect((await event(host, listed.eventId)).body.event).toMatchObject({ startsAt: slots[6], version: 2 });
    expect((await slotsOf(svc.base, host, '?days=2')).map((s) => s.startsAt)).toContain(slots[0]);
  });

  it('may move a booking by less than its length (its own time does not block)', async () => {
    const { booking, token, slots } = await withBooking();
    const res = await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: slots[1] }, asGuest(token));
    expect(res.status).toBe(200);
    expect(res.body.booking.startsAt).toBe(slots[1]);
  });

  it('cannot move onto taken time (409 slot_taken) nor off the slots (409 slot_unavailable); nothing changes', async () => {
    const { host, booking, token, slots } = await withBooking();
    await booked(svc.base, host, slots[6]);
    const before = await head();
    expectError(await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: slots[6] }, asGuest(token)), 409, 'slot_taken');
    const past = await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: '2020-01-06T09:00:00Z' }, asGuest(token));
    expectError(past, 409, 'slot_unavailable');
    expectInvalid(await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: 'soon' }, asGuest(token)), 'body.startsAt');
    expectInvalid(await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, {}, asGuest(token)), 'body.startsAt');
    expect(await head()).toBe(before);
  });

  it('cancels the booking (200) and its calendar event; cancelling again changes nothing; a cancelled booking cannot move', async () => {
    const { host, booking, token, slots } = await withBooking();
    const res = await request(svc.base, 'POST', `/public/bookings/${booking.id}/cancel`, undefined, asGuest(token));
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ id: booking.id, status: 'cancelled', cancelledBy: 'guest', version: 2 });
    const [listed] = (await hostBookings(host.client)).bookings;
    expectNotFound(await event(host, listed.eventId));
    const before = await head();
    const again = await request(svc.base, 'POST', `/public/bookings/${booking.id}/cancel`, undefined, asGuest(token));
    expect(again.status).toBe(200);
    expect(again.body.booking).toEqual(res.body.booking);
    expectError(await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: slots[4] }, asGuest(token)), 409, 'booking_cancelled');
    expect(await head()).toBe(before);
    const options = await request(svc.base, 'GET', `/public/bookings/${booking.id}/reschedule`, undefined, asGuest(token));
    expect(options.body.slots).toEqual([]);
  });

  it('is refused without the token (401), with a wrong one or another booking\'s (404), and nothing changes', async () => {
    const first = await withBooking();
    const second = await withBooking();
    const id = first.booking.id;
    const before = await head();
    for (const headers of [{}, asGuest(''), asGuest('bk_wrong'), asGuest(second.token), asGuest(`${first.token}x`)]) {
      const cancel = await request(svc.base, 'POST', `/public/bookings/${id}/cancel`, undefined, headers);
      const move = await request(svc.base, 'POST', `/public/bookings/${id}/reschedule`, { startsAt: first.slots[6] }, headers);
      const look = await request(svc.base, 'GET', `/public/bookings/${id}/reschedule`, undefined, headers);
      const expected = Object.keys(headers).length && headers['X-Booking-Token' as keyof typeof headers] ? 404 : 401;
      for (const res of [cancel, move, look]) expectError(res, expected, expected === 401 ? 'unauthenticated' : 'not_found');
    }
    expectNotFound(await request(svc.base, 'POST', '/public/bookings/00000000-0000-4000-8000-000000000000/cancel', undefined, asGuest(first.token)));
    expectInvalid(await request(svc.base, 'POST', '/public/bookings/not-a-uuid/cancel', undefined, asGuest(first.token)), 'path.id');
    expect(await head()).toBe(before);
    expect((await hostBookings(first.host.client)).bookings[0]).toMatchObject({ status: 'confirmed', version: 1 });
  });
});

describe('the host', () => {
  it('lists bookings by start, paged, filtered by status and start', async () => {
    const host = await hostWithType(svc.base);
    const slots = (await slotsOf(svc.base, host, '?days=2')).map((s) => s.startsAt);
    const later = await booked(svc.base, host, slots[8]);
    const earlier = await booked(svc.base, host, slots[2]);
    const middle = await booked(svc.base, host, slots[5]);
    await host.client.call('POST', `/bookings/${middle.booking.id}/cancel`);
    const page = await hostBookings(host.client, '?limit=2');
    expect(page.bookings.map((b) => b.id)).toEqual([earlier.booking.id, middle.booking.id]);
    const rest = await hostBookings(host.client, `?limit=2&pageToken=${page.nextPageToken}`);
    expect(rest).toEqual({ bookings: [expect.objectContaining({ id: later.booking.id })], nextPageToken: null });
    expect((await hostBookings(host.client, '?status=cancelled')).bookings.map((b) => b.id)).toEqual([middle.booking.id]);
    expect((await hostBookings(host.client, `?from=${encodeURIComponent(slots[5])}`)).bookings.map((b) => b.id)).toEqual([middle.booking.id, later.booking.id]);
    expectInvalid(await host.client.call('GET', '/bookings?status=gone'), 'query.status');
    expectInvalid(await host.client.call('GET', '/bookings?limit=0'), 'query.limit');
  });

  it('cancels (200, guest told by mail): the event is cancelled too; again changes nothing', async () => {
    const { host, booking } = await withBooking();
    const res = await host.client.call('POST', `/bookings/${booking.id}/cancel`);
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({ id: booking.id, status: 'cancelled', cancelledBy: 'host', hostId: host.client.userId, version: 2 });
    expectNotFound(await event(host, res.body.booking.eventId));
    const before = await head();
    expect((await host.client.call('POST', `/bookings/${booking.id}/cancel`)).body.booking).toEqual(res.body.booking);
    expect(await head()).toBe(before);
  });

  it('lists where a booking could move (its own time included) and moves it (200)', async () => {
    const { host, booking, slots } = await withBooking();
    const options = await host.client.call('GET', `/bookings/${booking.id}/reschedule?days=2`);
    expect(options.status).toBe(200);
    expect(options.body.bookingId).toBe(booking.id);
    expect(options.body.slots.map((s: { startsAt: string }) => s.startsAt)).toContain(slots[0]);
    const moved = await host.client.call('POST', `/bookings/${booking.id}/reschedule`, { startsAt: options.body.slots[5].startsAt });
    expect(moved.status).toBe(200);
    expect(moved.body.booking).toMatchObject({ startsAt: options.body.slots[5].startsAt, version: 2, status: 'confirmed' });
    expect((await event(host, moved.body.booking.eventId)).body.event.startsAt).toBe(options.body.slots[5].startsAt);
    expectInvalid(await host.client.call('GET', `/bookings/${booking.id}/reschedule?days=40`), 'query.days');
  });

  it('cancelling the booking\'s event in the calendar cancels the booking', async () => {
    const { host, booking } = await withBooking();
    const [listed] = (await hostBookings(host.client)).bookings;
    expect((await host.client.call('DELETE', `/events/${listed.eventId}`)).status).toBe(204);
    expect((await hostBookings(host.client)).bookings[0]).toMatchObject({ id: booking.id, status: 'cancelled', cancelledBy: 'host' });
  });

  it('never sees or changes another host\'s bookings (404), and a guest token is no credential', async () => {
    const { host, booking, token, slots } = await withBooking();
    const other = await signUp(svc.base);
    const before = await head();
    expect((await hostBookings(other)).bookings).toEqual([]);
    expectNotFound(await other.call('POST', `/bookings/${booking.id}/cancel`));
    expectNotFound(await other.call('GET', `/bookings/${booking.id}/reschedule`));
    expectNotFound(await other.call('POST', `/bookings/${booking.id}/reschedule`, { startsAt: slots[6] }));
    expectError(await request(svc.base, 'POST', `/bookings/${booking.id}/cancel`, undefined, asGuest(token)), 401, 'unauthenticated');
    expect(await head()).toBe(before);
    expect((await hostBookings(host.client)).bookings[0].status).toBe('confirmed');
  });

  it('needs bookings:read to look and bookings:write to change', async () => {
    const { host, booking, slots } = await withBooking();
    const reader = await apiKey(host.client, ['bookings:read']);
    const writer = await apiKey(host.client, ['bookings:write']);
    expect((await reader('GET', '/bookings')).status).toBe(200);
    expect((await reader('GET', `/bookings/${booking.id}/reschedule`)).status).toBe(200);
    expectError(await reader('POST', `/bookings/${booking.id}/cancel`), 403, 'insufficient_scope');
    expectError(await reader('POST', `/bookings/${booking.id}/reschedule`, { startsAt: slots[6] }), 403, 'insufficient_scope');
    expectError(await writer('GET', '/bookings'), 403, 'insufficient_scope');
    expect((await writer('POST', `/bookings/${booking.id}/reschedule`, { startsAt: slots[6] })).status).toBe(200);
    expect((await writer('POST', `/bookings/${booking.id}/cancel`)).status).toBe(200);
  });
});

describe('the inbox', () => {
  const inbox = async (c: Client) => {
    const [items, count] = await Promise.all([c.call('GET', '/inbox'), c.call('GET', '/inbox/count')]);
    expect(items.body.items).toHaveLength(count.body.count);
    return items.body.items as Array<Record<string, any>>;
  };

  it('lists new bookings as requests (count included) until they are cancelled; moves update them', async () => {
    const { host, booking, token, slots } = await withBooking();
    const second = await booked(svc.base, host, slots[8]);
    let items = await inbox(host.client);
    expect(items.map((i) => [i.type, i.id])).toEqual([['booking', second.booking.id], ['booking', booking.id]]);
    expect(items[1].booking).toMatchObject({ id: booking.id, status: 'confirmed', hostId: host.client.userId });
    await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: slots[4] }, asGuest(token));
    items = await inbox(host.client);
    expect(items.find((i) => i.id === booking.id)!.booking.startsAt).toBe(slots[4]);
    await host.client.call('POST', `/bookings/${second.booking.id}/cancel`);
    expect((await inbox(host.client)).map((i) => i.id)).toEqual([booking.id]);
    expect(await inbox(await signUp(svc.base))).toEqual([]);
  });

  it('drops requests whose start has passed', async () => {
    const { host, position } = await withBooking();
    expect(await inbox(host.client)).toHaveLength(1);
    const [{ id }] = (await hostBookings(host.client)).bookings;
    // Re-apply the stored request as if its time had come: the read filters on the start.
    const docs = await svc.service.context.readModels.docs('inbox');
    const stored = (await docs('bookings').get(id))!;
    await docs('bookings').put({ ...stored, _startMs: Date.now() - 1000 });
    expect(await inbox(host.client)).toEqual([]);
    expect(Number(position)).toBeGreaterThan(0);
  });
});

describe('sync', () => {
  it('carries the host\'s meeting types and bookings, never the token hash, and nothing of them to others', async () => {
    const { host, booking, token } = await withBooking();
    const start = await host.client.call('GET', '/me/bootstrap');
    await request(svc.base, 'POST', `/public/bookings/${booking.id}/cancel`, undefined, asGuest(token));
    const since = await host.client.call('GET', `/sync?since=${encodeURIComponent(start.body.cursor)}`);
    expect(since.status).toBe(200);
    expect(since.body.changes.bookings).toEqual([expect.objectContaining({ id: booking.id, status: 'cancelled', cancelledBy: 'guest' })]);
    const all = await host.client.call('GET', '/sync?since=1970-01-01T00:00:00Z');
    expect(all.body.changes.meetingTypes.map((t: { id: string }) => t.id)).toEqual([host.type.id]);
    expect(JSON.stringify(all.body)).not.toMatch(/tokenHash/i);
    const other = await (await signUp(svc.base)).call('GET', '/sync?since=1970-01-01T00:00:00Z');
    expect([other.body.changes.bookings, other.body.changes.meetingTypes]).toEqual([[], []]);
  });
});
