import { booked, hostWithType, slotsOf, asGuest } from '../support/bookings';
import { request, useTestService, type TestService } from '../support/service';

let svc: TestService;
useTestService((s) => (svc = s));

it('smoke', async () => {
  const host = await hostWithType(svc.base);
  const info = await request(svc.base, 'GET', host.page);
  console.log(info.status, JSON.stringify(info.body));
  const slots = await slotsOf(svc.base, host, '?timeZone=Asia/Tokyo&days=2');
  console.log(slots.length, slots.slice(0, 3));
  const b = await booked(svc.base, host, slots[0].startsAt, { note: 'hi' });
  console.log(JSON.stringify(b));
  const again = await request(svc.base, 'POST', `${host.page}/bookings`, { startsAt: slots[0].startsAt, guest: { name: 'x', email: 'x@example.com' } });
  console.log(again.status, JSON.stringify(again.body));
  const list = await host.client.call('GET', '/bookings');
  console.log(JSON.stringify(list.body));
  const docs = await svc.service.context.readModels.docs('bookings'); 0;
  const g = await request(svc.base, 'GET', `/public/bookings/${b.booking.id}/reschedule?days=1`, undefined, asGuest(b.token)); console.log(JSON.stringify(g.body));
  console.log(g.status);
  const r = await request(svc.base, 'POST', `/public/bookings/${b.booking.id}/reschedule`, { startsAt: slots[1].startsAt }, asGuest(b.token));
  console.log(r.status, JSON.stringify(r.body));
  const c = await host.client.call('POST', `/bookings/${b.booking.id}/cancel`);
  console.log(c.status, JSON.stringify(c.body));
  const ev = await host.client.call('GET', `/events/${c.body.booking.eventId}`);
  console.log(ev.status);
});
