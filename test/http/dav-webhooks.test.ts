/**
 * A CalDAV write is the same change as REST's: PUT and DELETE of an object reach the owner's webhooks as
 * event.created, event.updated and event.cancelled, the delivered event carrying the client's UID, once each; another
 * user's webhook hears nothing.
 */
import { davClientOf, vcalendar } from '../support/dav';
import { DELIVERY_WAIT_MS, sleep, until, useServiceAndReceiver, type Receiver } from '../support/receiver';
import { signUp, type Client, type TestService } from '../support/service';

jest.setTimeout(90_000);

let svc: TestService;
let receiver: Receiver;
useServiceAndReceiver((started, r) => ([svc, receiver] = [started, r]));

async function hook(c: Client, route: string) {
  const res = await c.call('POST', '/webhooks', { name: route, url: receiver.url(route), events: ['event.created', 'event.updated', 'event.cancelled'] });
  expect(res.status).toBe(201);
}

const typesAt = (route: string) => receiver.received(route).map((r) => [r.json.type, r.json.data.icalUid, r.json.data.title]);

it('delivers PUT and DELETE over CalDAV as the REST event types, to the owner only', async () => {
  const [ada, bob] = [await signUp(svc.base), await signUp(svc.base)];
  await hook(ada, '/ada');
  await hook(bob, '/bob');
  const dav = await davClientOf(svc.base, ada);
  const calendarId = (await ada.call('GET', '/calendars')).body.calendars[0].id as string;
  const href = `/dav/calendars/${dav.username}/${calendarId}/w1.ics`;
  const text = (title: string) => vcalendar('w1', ['DTSTART:20311103T090000Z', 'DTEND:20311103T100000Z', `SUMMARY:${title}`]);

  expect((await dav.call('PUT', href, text('Alpha'))).status).toBe(201);
  expect((await dav.call('PUT', href, text('Alpha (moved)'))).status).toBe(204);
  expect((await dav.call('DELETE', href)).status).toBe(204);
  await until(() => receiver.received('/ada').length >= 3, DELIVERY_WAIT_MS, 'three deliveries');
  expect(typesAt('/ada')).toEqual([['event.created', 'w1', 'Alpha'], ['event.updated', 'w1', 'Alpha (moved)'], ['event.cancelled', 'w1', 'Alpha (moved)']]);
  await sleep(500);
  expect(receiver.received('/ada')).toHaveLength(3);
  expect(receiver.received('/bob')).toHaveLength(0);
});
