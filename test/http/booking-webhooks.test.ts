/**
 * booking.* end to end with the real events: webhooks (log -> relay -> bus -> dispatcher -> a real receiver) carry
 * the Booking as `data` (booking.rescheduled with `previous`) to the host's webhooks only, next to event.* for the
 * calendar event; the notifications projection tells the host. Contract: api-spec.md section 6, addendum.md.
 */
import { Booking } from '../../contracts/bookings';
import { verifyWebhookSignature } from '../../contracts/webhook-signature';
import { asGuest, booked, hostWithType, slotsOf } from '../support/bookings';
import { DELIVERY_WAIT_MS as WAIT_MS, sleep, until, useServiceAndReceiver, type Receiver } from '../support/receiver';
import { request, signUp, type TestService } from '../support/service';

jest.setTimeout(90_000);

let svc: TestService;
let receiver: Receiver;
useServiceAndReceiver((started, r) => ([svc, receiver] = [started, r]));

it('delivers booking.created, booking.rescheduled (with previous) and booking.cancelled to the host\'s webhooks only', async () => {
  const host = await hostWithType(svc.base);
  const other = await signUp(svc.base);
  const hook = await host.client.call('POST', '/webhooks', { name: 'bookings', url: receiver.url('/host'), events: ['booking.created', 'booking.rescheduled', 'booking.cancelled', 'event.cancelled'] });
  const otherHook = await other.call('POST', '/webhooks', { name: 'all', url: receiver.url('/other'), events: ['*'] });
  expect([hook.status, otherHook.status]).toEqual([201, 201]);

  const slots = (await slotsOf(svc.base, host, '?days=2')).map((s) => s.startsAt);
  const { booking, token } = await booked(svc.base, host, slots[0]);
  expect((await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: slots[6] }, asGuest(token))).status).toBe(200);
  expect((await host.client.call('POST', `/bookings/${booking.id}/cancel`)).status).toBe(200);

  await until(() => receiver.received('/host').length >= 4, WAIT_MS, 'four deliveries');
  await sleep(300);
  const got = receiver.received('/host');
  expect(got.map((r) => r.json.type).sort()).toEqual(['booking.cancelled', 'booking.created', 'booking.rescheduled', 'event.cancelled']);
  for (const r of got) {
    expect(verifyWebhookSignature({ secret: hook.body.secret, timestamp: r.headers['x-calendar-timestamp'] as string, signature: r.headers['x-calendar-signature'] as string, body: r.body })).toBe(true);
  }
  const of = (type: string) => got.find((r) => r.json.type === type)!.json;
  for (const type of ['booking.created', 'booking.rescheduled', 'booking.cancelled']) {
    expect(Booking.strict().safeParse(of(type).data).success).toBe(true);
    expect(JSON.stringify(of(type))).not.toMatch(/tokenHash|bk_/);
  }
  expect(of('booking.created').data).toMatchObject({ id: booking.id, hostId: host.client.userId, startsAt: slots[0], status: 'confirmed', version: 1 });
  expect(of('booking.created')).not.toHaveProperty('previous');
  expect(of('booking.rescheduled')).toMatchObject({ data: { startsAt: slots[6], version: 2 }, previous: { startsAt: slots[0], endsAt: booking.endsAt } });
  expect(of('booking.cancelled').data).toMatchObject({ status: 'cancelled', cancelledBy: 'host', version: 3 });
  expect(of('event.cancelled').data).toMatchObject({ id: of('booking.created').data.eventId, status: 'cancelled' });
  expect(receiver.received('/other')).toEqual([]);
});

it('tells the host in notifications: booked, moved, cancelled by the guest', async () => {
  const host = await hostWithType(svc.base, {}, { timeZone: 'Europe/Lisbon' });
  const slots = (await slotsOf(svc.base, host, '?days=2')).map((s) => s.startsAt);
  const { booking, token } = await booked(svc.base, host, slots[0], { guest: { name: 'Ana Costa', email: 'ana@example.com' } });
  await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: slots[4] }, asGuest(token));
  await request(svc.base, 'POST', `/public/bookings/${booking.id}/cancel`, undefined, asGuest(token));
  const res = await host.client.call('GET', '/notifications');
  expect(res.status).toBe(200);
  const listed = res.body.notifications as Array<Record<string, any>>;
  expect(listed.map((n) => n.kind)).toEqual(['booking_cancelled', 'booking_rescheduled', 'booking_created']);
  for (const n of listed) expect(n).toMatchObject({ read: false, source: { type: 'booking', id: booking.id } });
  expect(listed[2].title).toBe('New booking: Ana Costa');
  expect(listed[1].body).toMatch(/^Now \d{4}-\d\d-\d\d at \d\d:\d\d \(Europe\/Lisbon\), was /);
  expect(listed[0].body).toMatch(/cancelled by the guest$/);
  expect((await (await signUp(svc.base)).call('GET', '/notifications')).body.notifications).toEqual([]);
});

it('delivers a team booking to every host\'s and the owner\'s webhooks, and a declined request as booking.cancelled', async () => {
  const owner = await signUp(svc.base, { name: 'Olga Owner' });
  const [a, b, outsider] = await Promise.all([signUp(svc.base), signUp(svc.base), signUp(svc.base)]);
  const org = await owner.call('POST', '/organizations', { name: 'Support' });
  for (const m of [a, b]) expect((await owner.call('POST', `/organizations/${org.body.organization.id}/members`, { email: m.email, role: 'member' })).status).toBe(201);
  const me = await owner.call('GET', '/me');
  const type = await owner.call('POST', '/meeting-types', {
    name: 'Team call', slug: 'team', durationMinutes: 30, hours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, startMinute: 0, endMinute: 1440 })),
    hosts: [a.userId, b.userId], assignment: 'collective', requiresConfirmation: true,
  });
  expect(type.status).toBe(201);
  const events = ['booking.created', 'booking.cancelled'];
  for (const [c, path] of [[owner, '/owner'], [a, '/a'], [b, '/b'], [outsider, '/outsider']] as const) {
    expect((await c.call('POST', '/webhooks', { name: 'bookings', url: receiver.url(path), events })).status).toBe(201);
  }
  const page = `/public/${me.body.user.username}/team`;
  const [slot] = (await request(svc.base, 'GET', `${page}/slots?days=2`)).body.slots;
  const made = await request(svc.base, 'POST', `${page}/bookings`, { startsAt: slot.startsAt, guest: { name: 'Ana', email: 'ana@example.com' } });
  expect(made.status).toBe(201);
  expect((await b.call('POST', `/bookings/${made.body.booking.id}/decline`)).status).toBe(200);
  for (const path of ['/owner', '/a', '/b']) await until(() => receiver.received(path).length >= 2, WAIT_MS, `two deliveries to ${path}`);
  await sleep(300);
  for (const path of ['/owner', '/a', '/b']) {
    const got = receiver.received(path).map((r) => r.json);
    expect(got.map((d) => [d.type, d.data.status])).toEqual([['booking.created', 'pending'], ['booking.cancelled', 'declined']]);
    expect(got[0].data).toMatchObject({ hostIds: [a.userId, b.userId], ownerId: owner.userId, assignment: { method: 'collective' } });
  }
  expect(receiver.received('/outsider')).toEqual([]);
});
