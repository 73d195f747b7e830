/**
 * A shared calendar's changes reach its readers and writers by the same paths as their own (webhooks, /sync), and
 * never a freeBusyReader's or a stranger's: not a title, an attendee or a location. A role taken away stops both at
 * once, and /sync tells the former member (their membership row comes back with `deletedAt`).
 */
import { DELIVERY_WAIT_MS, until, useServiceAndReceiver, type Receiver } from '../support/receiver';
import { signUp, type Client } from '../support/service';

jest.setTimeout(120_000);

let base: string;
let receiver: Receiver;
useServiceAndReceiver((started, r) => ([base, receiver] = [started.base, r]));

const SECRETS = ['Acquisition talks', 'Room 42', 'banker@example.com', 'Due diligence'];

async function hook(c: Client, path: string): Promise<string> {
  const res = await c.call('POST', '/webhooks', { name: path, url: receiver.url(path), events: ['*'] });
  expect(res.status).toBe(201);
  return res.body.webhook.id as string;
}
const deliveriesOf = async (c: Client, webhookId: string) => (await c.call('GET', `/webhooks/${webhookId}/deliveries`)).body.deliveries as unknown[];
const syncOf = async (c: Client, since: string) => {
  const res = await c.call('GET', `/sync?since=${encodeURIComponent(since)}`);
  expect(res.status).toBe(200);
  return res.body;
};
const eventTypes = (path: string) => receiver.received(path).map((r) => `${r.json.type} ${r.json.data.title}`).sort();

it('readers and writers get webhooks and /sync rows of the calendar; a freeBusyReader and a stranger nothing', async () => {
  const [owner, reader, busyOnly, writer, stranger] = await Promise.all(Array.from({ length: 5 }, () => signUp(base)));
  const calendarId = (await owner.call('POST', '/calendars', { name: 'Deals' })).body.calendar.id as string;
  for (const [who, role] of [[reader, 'reader'], [busyOnly, 'freeBusyReader'], [writer, 'writer']] as const) {
    expect((await owner.call('POST', `/calendars/${calendarId}/members`, { email: who.email, role })).status).toBe(201);
  }
  const hooks = {
    owner: await hook(owner, '/owner'), reader: await hook(reader, '/reader'), busyOnly: await hook(busyOnly, '/busy-only'),
    writer: await hook(writer, '/writer'), stranger: await hook(stranger, '/stranger'),
  };
  const cursors = await Promise.all([reader, busyOnly, stranger].map(async (c) => (await syncOf(c, '1970-01-01T00:00:00Z')).cursor as string));

  // Each member's own roles come through /sync, whatever the role.
  const memberships = (await syncOf(busyOnly, '1970-01-01T00:00:00Z')).changes.calendarMemberships;
  expect(memberships).toEqual([expect.objectContaining({ calendarId, userId: busyOnly.userId, role: 'freeBusyReader', deletedAt: null })]);

  const event = (await owner.call('POST', '/events', {
    title: SECRETS[0], calendarId, startsAt: '2031-07-01T09:00:00Z', endsAt: '2031-07-01T10:00:00Z', location: SECRETS[1],
    attendees: [{ email: SECRETS[2] }], description: SECRETS[3],
  })).body.event;
  expect((await owner.call('PATCH', `/events/${event.id}`, { startsAt: '2031-07-01T11:00:00Z', endsAt: '2031-07-01T12:00:00Z' })).status).toBe(200);
  const byWriter = await writer.call('POST', '/events', { title: 'Prep call', calendarId, startsAt: '2031-07-02T09:00:00Z', endsAt: '2031-07-02T09:30:00Z' });
  expect(byWriter.status).toBe(201);

  const expected = [`event.created ${SECRETS[0]}`, 'event.created Prep call', `event.updated ${SECRETS[0]}`];
  for (const path of ['/owner', '/reader', '/writer']) {
    await until(() => receiver.received(path).length >= 3, DELIVERY_WAIT_MS, `three deliveries to ${path}`);
  }
  for (const path of ['/owner', '/reader', '/writer']) expect(eventTypes(path)).toEqual(expected);
  // Deliveries are recorded for every audience member before any is sent: by now none exist for the others.
  expect(await deliveriesOf(busyOnly, hooks.busyOnly)).toEqual([]);
  expect(await deliveriesOf(stranger, hooks.stranger)).toEqual([]);
  expect(receiver.received('/busy-only')).toEqual([]);
  expect(receiver.received('/stranger')).toEqual([]);

  const [readerSync, busySync, strangerSync] = await Promise.all([reader, busyOnly, stranger].map((c, i) => syncOf(c, cursors[i])));
  expect(readerSync.changes.events.map((e: { id: string; title: string }) => e.title).sort()).toEqual([SECRETS[0], 'Prep call']);
  expect(busySync.changes.events).toEqual([]);
  expect(strangerSync.changes.events).toEqual([]);
  for (const body of [busySync, strangerSync]) for (const secret of SECRETS) expect(JSON.stringify(body)).not.toContain(secret);

  // The reader's role ends: no more of the calendar's webhooks or /sync rows; the membership row says so.
  expect((await owner.call('DELETE', `/calendars/${calendarId}/members/${reader.userId}`)).status).toBe(204);
  await owner.call('POST', '/events', { title: 'After the reader left', calendarId, startsAt: '2031-07-03T09:00:00Z', endsAt: '2031-07-03T10:00:00Z' });
  await until(() => receiver.received('/owner').length >= 4 && receiver.received('/writer').length >= 4, DELIVERY_WAIT_MS, 'the fourth delivery');
  expect(await deliveriesOf(reader, hooks.reader)).toHaveLength(3);
  const after = await syncOf(reader, readerSync.cursor);
  expect(after.changes.events).toEqual([]);
  expect(after.changes.calendarMemberships).toEqual([expect.objectContaining({ calendarId, userId: reader.userId, deletedAt: expect.any(String) })]);
});
