/**
 * An import is the same change as REST's: its events reach the owner's webhooks as event.created, event.updated and
 * event.cancelled (the delivered event carrying its iCalendar UID), once each; the same file again delivers nothing;
 * a request retried with its Idempotency-Key gets the first answer and writes nothing more. Another user's webhook
 * hears nothing of it.
 */
import { DELIVERY_WAIT_MS, sleep, until, useServiceAndReceiver, type Receiver } from '../support/receiver';
import { signUp, type Client, type TestService } from '../support/service';

jest.setTimeout(90_000);

let svc: TestService;
let receiver: Receiver;
useServiceAndReceiver((started, r) => ([svc, receiver] = [started, r]));

const vevent = (uid: string, title: string, ...extra: string[]) => [
  'BEGIN:VEVENT', `UID:${uid}`, 'DTSTAMP:20260101T000000Z', 'DTSTART:20311103T090000Z', 'DTEND:20311103T100000Z', `SUMMARY:${title}`, ...extra, 'END:VEVENT',
];
const file = (...events: string[][]) => ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//EN', ...events.flat(), 'END:VCALENDAR', ''].join('\r\n');

async function hook(c: Client, route: string) {
  const res = await c.call('POST', '/webhooks', { name: route, url: receiver.url(route), events: ['event.created', 'event.updated', 'event.cancelled'] });
  expect(res.status).toBe(201);
}

const typesAt = (route: string) => receiver.received(route).map((r) => [r.json.type, r.json.data.icalUid, r.json.data.title]);

it('delivers what the import changed, once, to the owner only; a retried request writes nothing more', async () => {
  const [ada, bob] = [await signUp(svc.base), await signUp(svc.base)];
  await hook(ada, '/ada');
  await hook(bob, '/bob');
  const calendarId = (await ada.call('GET', '/calendars')).body.calendars[0].id as string;
  const send = (text: string, key?: string) => ada.call('POST', `/calendars/${calendarId}/import`, text, {
    'content-type': 'text/calendar', ...(key ? { 'Idempotency-Key': key } : {}),
  });

  const first = await send(file(vevent('a@x', 'Alpha'), vevent('b@x', 'Beta')), 'import-1');
  expect(first.body).toMatchObject({ imported: 2, updated: 0 });
  await until(() => receiver.received('/ada').length >= 2, DELIVERY_WAIT_MS, 'two deliveries');
  expect(typesAt('/ada').sort()).toEqual([['event.created', 'a@x', 'Alpha'], ['event.created', 'b@x', 'Beta']]);

  const retried = await send(file(vevent('a@x', 'Alpha'), vevent('b@x', 'Beta')), 'import-1');
  expect(retried.status).toBe(200);
  expect(retried.body).toEqual(first.body);

  const changed = await send(file(vevent('a@x', 'Alpha (moved)'), vevent('b@x', 'Beta', 'STATUS:CANCELLED')));
  expect(changed.body).toMatchObject({ imported: 0, updated: 2 });
  await until(() => receiver.received('/ada').length >= 4, DELIVERY_WAIT_MS, 'four deliveries');
  expect(typesAt('/ada').slice(2).sort()).toEqual([['event.cancelled', 'b@x', 'Beta'], ['event.updated', 'a@x', 'Alpha (moved)']]);

  expect((await send(file(vevent('a@x', 'Alpha (moved)')))).body).toMatchObject({ imported: 0, updated: 0 });
  // Nothing more comes: not for the retry, not for the unchanged file; and nothing ever for Bob.
  await sleep(500);
  expect(receiver.received('/ada')).toHaveLength(4);
  expect(receiver.received('/bob')).toHaveLength(0);
});
