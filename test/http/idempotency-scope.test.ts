/**
 * The scope of an Idempotency-Key is the caller (credential, or address without one), the method and the concrete
 * path: the same key and body sent to two resources behind one route template are two requests, for anonymous
 * guests on two hosts' booking pages as for a signed-in host cancelling two bookings.
 */
import { booked, guest, hostWithType } from '../support/bookings';
import { request, useTestService, type TestService } from '../support/service';

let svc: TestService;
useTestService((s) => (svc = s));

const inTwoDays = (hour: number) => {
  const at = new Date(Date.now() + 2 * 86_400_000);
  at.setUTCHours(hour, 0, 0, 0);
  return at.toISOString();
};

describe('Idempotency-Key scope', () => {
  it('an anonymous guest with one key and body books host A and host B, each once', async () => {
    const [a, b] = [await hostWithType(svc.base), await hostWithType(svc.base)];
    const body = { startsAt: inTwoDays(10), guest: guest(7) };
    const headers = { 'Idempotency-Key': 'same-key-for-both' };
    const atA = await request(svc.base, 'POST', `${a.page}/bookings`, body, headers);
    const atB = await request(svc.base, 'POST', `${b.page}/bookings`, body, headers);
    expect([atA.status, atB.status]).toEqual([201, 201]);
    expect(atB.body.booking.id).not.toBe(atA.body.booking.id);
    expect(atB.body.manageToken).not.toBe(atA.body.manageToken);
    const [ofA, ofB] = [(await a.client.call('GET', '/bookings')).body.bookings, (await b.client.call('GET', '/bookings')).body.bookings];
    expect(ofA.map((x: { id: string }) => x.id)).toEqual([atA.body.booking.id]);
    expect(ofB.map((x: { id: string }) => x.id)).toEqual([atB.body.booking.id]);

    // Within one page the key still replays: the same answer, nothing booked twice.
    const again = await request(svc.base, 'POST', `${b.page}/bookings`, body, headers);
    expect(again.status).toBe(201);
    expect(again.body).toEqual(atB.body);
    // A spelling of the same path (a trailing slash) is the same resource.
    const slashed = await request(svc.base, 'POST', `${b.page}/bookings/`, body, headers);
    expect(slashed.body).toEqual(atB.body);
    expect((await b.client.call('GET', '/bookings')).body.bookings).toHaveLength(1);
  });

  it('a signed-in host cancelling two bookings with one key cancels both', async () => {
    const host = await hostWithType(svc.base);
    const first = await booked(svc.base, host, inTwoDays(9));
    const second = await booked(svc.base, host, inTwoDays(11));
    const headers = { 'Idempotency-Key': 'cancel-key' };
    const one = await host.client.call('POST', `/bookings/${first.booking.id}/cancel`, undefined, headers);
    const two = await host.client.call('POST', `/bookings/${second.booking.id}/cancel`, undefined, headers);
    expect([one.status, two.status]).toEqual([200, 200]);
    expect(two.body.booking.id).toBe(second.booking.id);
    const statuses = (await host.client.call('GET', '/bookings')).body.bookings.map((x: { status: string }) => x.status);
    expect(statuses).toEqual(['cancelled', 'cancelled']);
  });
});
