/**
 * routine.* deliveries end to end (log -> relay -> bus -> dispatcher -> a receiver on 127.0.0.1): each type reaches
 * a subscribed webhook with the routine (or {period, date, routine}) as data, clearing a status delivers nothing,
 * and nobody else's webhook hears of it. Contract: api-spec.md section 6, addendum.md "Focus, routines, ...".
 */
import { Routine, RoutinePeriodDay } from '../../contracts/routines';
import { sleep, startReceiver, until, type Receiver } from '../support/receiver';
import { signUp, startTestService, type Client, type TestService } from '../support/service';

const env = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50,50', WEBHOOK_TIMEOUT_MS: '2000' };
/** Kafka needs seconds for a consumer group to join; everything else is quick. */
const WAIT_MS = 45_000;
jest.setTimeout(90_000);

let svc: TestService;
let receiver: Receiver;

beforeAll(async () => {
  [svc, receiver] = await Promise.all([startTestService(env), startReceiver()]);
});
afterAll(async () => {
  await svc.stop();
  await receiver.close();
});

let paths = 0;
async function hook(c: Client, events: string[]) {
  const route = `/routine-hook-${paths++}`;
  const res = await c.call('POST', '/webhooks', { name: route, url: receiver.url(route), events });
  expect(res.status).toBe(201);
  return route;
}

/** A routine as the API answers it, without the API-only fields: what webhooks carry. */
const asPayload = ({ version: _version, deletedAt: _deletedAt, ...routine }: Record<string, any>) => routine;

const arrived = (route: string, n: number) => until(() => receiver.received(route).length >= n, WAIT_MS, `${n} requests at ${route}`);

const body = { name: 'Mornings', days: [1, 2, 3, 4, 5], periods: [{ name: 'Run', startMinute: 420, endMinute: 465, items: [{ title: 'Stretch' }] }] };

describe('routine webhooks', () => {
  it('delivers routine.created, updated, period.completed, period.skipped and deleted with their payloads; null delivers nothing', async () => {
    const [a, b] = await Promise.all([signUp(svc.base), signUp(svc.base)]);
    const all = await hook(a, ['*']);
    const skippedOnly = await hook(a, ['routine.period.skipped']);
    const bHook = await hook(b, ['*']);

    const created = (await a.call('POST', '/routines', body)).body.routine;
    const periodId = created.periods[0].id;
    const updated = (await a.call('PATCH', `/routines/${created.id}`, { name: 'Early mornings' })).body.routine;
    expect((await a.call('PUT', `/routines/periods/${periodId}/days/2026-10-26`, { status: 'done' })).status).toBe(200);
    expect((await a.call('PUT', `/routines/periods/${periodId}/days/2026-10-26`, { status: null })).status).toBe(200);
    expect((await a.call('PUT', `/routines/periods/${periodId}/days/2026-10-27`, { status: null, startMinute: 430, endMinute: 475 })).status).toBe(200);
    expect((await a.call('PUT', `/routines/items/${created.periods[0].items[0].id}/days/2026-10-27`, { done: true })).status).toBe(200);
    expect((await a.call('PUT', `/routines/periods/${periodId}/days/2026-10-27`, { status: 'skipped' })).status).toBe(200);
    expect((await a.call('DELETE', `/routines/${created.id}`)).status).toBe(204);

    await arrived(all, 5);
    await arrived(skippedOnly, 1);
    await sleep(300);
    const got = receiver.received(all).map((r) => r.json);
    expect(got.map((d) => d.type).sort()).toEqual([
      'routine.created', 'routine.deleted', 'routine.period.completed', 'routine.period.skipped', 'routine.updated',
    ]);
    const byType = Object.fromEntries(got.map((d) => [d.type, d.data]));
    const asCreated = asPayload(created);
    const asUpdated = asPayload(updated);
    expect(byType['routine.created']).toEqual(asCreated);
    expect(byType['routine.updated']).toEqual(asUpdated);
    expect(byType['routine.deleted']).toMatchObject({ ...asUpdated, updatedAt: expect.any(String) });
    expect(byType['routine.period.completed']).toEqual({ period: asUpdated.periods[0], date: '2026-10-26', routine: asUpdated });
    expect(byType['routine.period.skipped']).toMatchObject({ period: { id: periodId }, date: '2026-10-27', routine: { id: created.id } });
    for (const type of ['routine.created', 'routine.updated', 'routine.deleted']) expect(Routine.safeParse(byType[type]).success).toBe(true);
    for (const type of ['routine.period.completed', 'routine.period.skipped']) expect(RoutinePeriodDay.safeParse(byType[type]).success).toBe(true);
    expect(receiver.received(skippedOnly).map((r) => r.json.type)).toEqual(['routine.period.skipped']);
    expect(receiver.received(bHook)).toHaveLength(0);
  });
});
