/**
 * Webhooks of one occurrence (api-spec.md section 6: event.cancelled "an event or one occurrence is cancelled";
 * addendum: "Emits event.updated with data.occurrenceStartsAt"): the dispatcher delivers the occurrence, and a split
 * as the old series updated and the new one created; only the owner's webhooks hear of it.
 */
import { DELIVERY_WAIT_MS, until, useServiceAndReceiver, type Receiver } from '../support/receiver';
import { signUp, type Client, type TestService } from '../support/service';

jest.setTimeout(90_000);

let svc: TestService;
let receiver: Receiver;
useServiceAndReceiver((started, r) => ([svc, receiver] = [started, r]));

async function hook(c: Client, route: string) {
  const res = await c.call('POST', '/webhooks', { name: route, url: receiver.url(route), events: ['*'] });
  expect(res.status).toBe(201);
}

const occurrence = (id: string, at: string) => `/events/${id}/occurrences/${encodeURIComponent(at)}`;

it('delivers event.updated and event.cancelled with the occurrence as data, and a split as updated + created', async () => {
  const [a, b] = await Promise.all([signUp(svc.base), signUp(svc.base)]);
  await hook(a, '/occ-a');
  await hook(b, '/occ-b');
  const series = (await a.call('POST', '/events', {
    title: 'Standup', startsAt: '2031-03-24T08:00:00Z', endsAt: '2031-03-24T08:15:00Z', timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=6',
  })).body.event;
  // 31 March is after the change of clocks (29 March 2031): 09:00 in Berlin is 07:00Z.
  expect((await a.call('PATCH', occurrence(series.id, '2031-03-31T07:00:00.000Z'), { title: 'Retro', startsAt: '2031-04-01T12:00:00Z', endsAt: '2031-04-01T13:00:00Z' })).status).toBe(200);
  expect((await a.call('DELETE', occurrence(series.id, '2031-04-07T07:00:00.000Z'))).status).toBe(204);
  const split = await a.call('POST', `/events/${series.id}/split`, { occurrenceStartsAt: '2031-04-14T07:00:00.000Z', title: 'Standup v2' });
  expect(split.status).toBe(201);

  await until(() => receiver.received('/occ-a').length >= 5, DELIVERY_WAIT_MS, 'five deliveries');
  const got = receiver.received('/occ-a').map((r) => r.json);
  // Deliveries may arrive in any order: each is found by what it is.
  expect(got.map((d) => d.type).sort()).toEqual(['event.cancelled', 'event.created', 'event.created', 'event.updated', 'event.updated']);
  const find = (type: string, check: (data: Record<string, any>) => boolean) => got.find((d) => d.type === type && check(d.data))?.data;
  const moved = find('event.updated', (d) => d.occurrenceStartsAt !== undefined);
  expect(moved).toMatchObject({
    id: series.id, seriesId: series.id, occurrenceStartsAt: '2031-03-31T07:00:00.000Z', title: 'Retro',
    startsAt: '2031-04-01T12:00:00.000Z', endsAt: '2031-04-01T13:00:00.000Z', status: 'confirmed', version: 2,
  });
  const cancelled = find('event.cancelled', () => true);
  expect(cancelled).toMatchObject({
    id: series.id, seriesId: series.id, occurrenceStartsAt: '2031-04-07T07:00:00.000Z', startsAt: '2031-04-07T07:00:00.000Z',
    status: 'cancelled', deletedAt: expect.any(String), version: 3,
  });
  for (const d of [moved, cancelled]) expect(d).not.toHaveProperty('exceptions');
  const ended = find('event.updated', (d) => d.occurrenceStartsAt === undefined);
  expect(ended).toMatchObject({ id: series.id, recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO;UNTIL=20310414T065959Z', version: 4 });
  expect(ended!.exceptions).toHaveLength(2);
  const fresh = find('event.created', (d) => d.id === split.body.event.id);
  expect(fresh).toMatchObject({ title: 'Standup v2', recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=3', exceptions: [] });
  expect(fresh).not.toHaveProperty('occurrenceStartsAt');
  expect(new Set(got.map((d) => d.id)).size).toBe(5);
  expect(receiver.received('/occ-b')).toEqual([]);
});
