/**
 * Time travel: `asOf` on GET /events, /tasks and /routines answers as it was then (created, renamed, removed: before,
 * between and after), in the live shape; malformed and future instants are 400; nobody sees another user's past.
 * `stateAsOf` gives an aggregate or a read model's item as it was, and refuses histories beyond its bound.
 */
import { randomUUID } from 'node:crypto';
import { ApiError } from '../../services/errors';
import { stateAsOf } from '../../services/history/as-of';
import { historyUpTo } from '../../services/history/time-travel';
import { type Client, instantBetweenWrites, ok, signUp, type TestService, useTestService } from '../support/service';
import { shareASpace } from '../support/sharing';

let svc: TestService;
let base: string;
useTestService((started) => ((svc = started), (base = started.base)));

const RANGE = `from=${encodeURIComponent('2031-08-01T00:00:00Z')}&to=${encodeURIComponent('2031-08-08T00:00:00Z')}`;

const at = (path: string, asOf: string) => `${path}${path.includes('?') ? '&' : '?'}asOf=${encodeURIComponent(asOf)}`;
const titles = async (c: Client, path: string, key: string, field = 'title') =>
  (await ok(c, 'GET', path))[key].map((item: Record<string, string>) => item[field]);

describe('asOf on list reads', () => {
  let ada: Client;
  let bob: Client;
  beforeAll(async () => {
    [ada, bob] = await Promise.all([signUp(base), signUp(base)]);
  });

  it('GET /events: before, between and after a create, a rename and a cancel', async () => {
    const t0 = await instantBetweenWrites();
    const event = (await ok(ada, 'POST', '/events', { title: 'Draft', startsAt: '2031-08-04T09:00:00Z', endsAt: '2031-08-04T10:00:00Z' })).event;
    const t1 = await instantBetweenWrites();
    await ok(ada, 'PATCH', `/events/${event.id}`, { title: 'Final' });
    const t2 = await instantBetweenWrites();
    await ok(ada, 'DELETE', `/events/${event.id}`);
    const t3 = await instantBetweenWrites();

    expect(await titles(ada, at(`/events?${RANGE}`, t0), 'events')).toEqual([]);
    expect(await titles(ada, at(`/events?${RANGE}`, t1), 'events')).toEqual(['Draft']);
    expect(await titles(ada, at(`/events?${RANGE}`, t2), 'events')).toEqual(['Final']);
    expect(await titles(ada, at(`/events?${RANGE}`, t3), 'events')).toEqual([]);
    expect(await titles(ada, `/events?${RANGE}`, 'events')).toEqual([]);
    const then = await ok(ada, 'GET', at(`/events?${RANGE}`, t2));
    const { exceptions: _exceptions, ...listed } = event;
    expect(then).toEqual({ events: [{ ...listed, title: 'Final', version: 2, updatedAt: expect.any(String), seriesId: null, occurrenceStartsAt: null }], nextPageToken: null });
    expect(await titles(bob, at(`/events?${RANGE}`, t1), 'events')).toEqual([]);

    // The aggregate and the read model's item, as they were.
    const space = await stateAsOf(svc.service.context, 'stream', `space-${event.spaceId}`, t1);
    expect((space.state as { events: Record<string, { title: string }> }).events[event.id].title).toBe('Draft');
    expect((await stateAsOf(svc.service.context, 'events', event.id, t2)).state).toMatchObject({ id: event.id, title: 'Final', status: 'confirmed' });
    expect((await stateAsOf(svc.service.context, 'events', event.id, t3)).state).toMatchObject({ status: 'cancelled' });
    expect((await stateAsOf(svc.service.context, 'events', event.id, t0)).state).toBeNull();
  });

  it('GET /tasks: the owner\'s board and the boards that assigned the caller a task', async () => {
    const t0 = await instantBetweenWrites();
    await shareASpace(ada, bob);
    const task = (await ok(ada, 'POST', '/tasks', { title: 'Write report', assigneeId: bob.userId })).task;
    const t1 = await instantBetweenWrites();
    await ok(ada, 'PATCH', `/tasks/${task.id}`, { title: 'Write the Q3 report' });
    const t2 = await instantBetweenWrites();
    await ok(ada, 'DELETE', `/tasks/${task.id}`);
    const t3 = await instantBetweenWrites();

    for (const c of [ada, bob]) {
      expect(await titles(c, at('/tasks', t0), 'tasks')).toEqual([]);
      expect(await titles(c, at('/tasks', t1), 'tasks')).toEqual(['Write report']);
      expect(await titles(c, at('/tasks', t2), 'tasks')).toEqual(['Write the Q3 report']);
      expect(await titles(c, at('/tasks', t3), 'tasks')).toEqual([]);
    }
    const stranger = await signUp(base);
    expect(await titles(stranger, at('/tasks', t2), 'tasks')).toEqual([]);
    expect((await stateAsOf(svc.service.context, 'tasks', task.id, t1)).state).toMatchObject({ title: 'Write report', assigneeId: bob.userId });
  });

  it('GET /routines: created, renamed, deleted', async () => {
    const t0 = await instantBetweenWrites();
    const routine = (await ok(ada, 'POST', '/routines', {
      name: 'Mornings', days: [1, 2, 3], periods: [{ name: 'Run', startMinute: 420, endMinute: 480, items: [{ title: 'Stretch' }] }],
    })).routine;
    const t1 = await instantBetweenWrites();
    await ok(ada, 'PATCH', `/routines/${routine.id}`, { name: 'Early mornings' });
    const t2 = await instantBetweenWrites();
    await ok(ada, 'DELETE', `/routines/${routine.id}`);
    const t3 = await instantBetweenWrites();

    expect(await titles(ada, at('/routines', t0), 'routines', 'name')).toEqual([]);
    expect(await titles(ada, at('/routines', t1), 'routines', 'name')).toEqual(['Mornings']);
    expect(await titles(ada, at('/routines', t2), 'routines', 'name')).toEqual(['Early mornings']);
    expect(await titles(ada, at('/routines', t3), 'routines', 'name')).toEqual([]);
    expect((await ok(ada, 'GET', at('/routines', t1))).routines[0]).toEqual(routine);
    expect(await titles(bob, at('/routines', t2), 'routines', 'name')).toEqual([]);
  });

  it('400 for a malformed or future instant, on each of the three', async () => {
    const future = new Date(Date.now() + 3_600_000).toISOString();
    for (const path of [`/events?${RANGE}`, '/tasks', '/routines']) {
      for (const asOf of ['yesterday', '2031-13-01T00:00:00Z', future]) {
        const res = await ada.call('GET', at(path, asOf));
        expect({ path, asOf, status: res.status, code: res.body.error?.code }).toEqual({ path, asOf, status: 400, code: 'invalid_request' });
        expect(res.body.error.details.issues[0].path).toBe('query.asOf');
      }
    }
  });

  it('documents asOf on the three operations', async () => {
    const spec = (await (await fetch(`${base.replace('/api/v1', '')}/openapi.json`)).json()) as { paths: Record<string, { get: { parameters: Array<{ name: string }> } }> };
    for (const path of ['/events', '/tasks', '/routines']) {
      const key = Object.keys(spec.paths).find((p) => p.endsWith(path))!;
      expect(spec.paths[key].get.parameters.map((p) => p.name)).toContain('asOf');
    }
  });

  it('replays at most its bound of events, however many come after the instant', async () => {
    const append = async (stream: string, n: number, occurredAt: string) => {
      const metadata = { userId: null, correlationId: 'c', causationId: 'c', occurredAt, schemaVersion: 1 };
      const batch = Array.from({ length: n }, () => ({ id: randomUUID(), type: 'thing.noted', data: {}, metadata }));
      await svc.service.ports.events.append(stream, batch, 'any');
    };
    const [small, large] = [`space-${randomUUID()}`, `space-${randomUUID()}`];
    await append(small, 10, '2020-01-01T00:00:00.000Z');
    await append(small, 100, '2020-02-01T00:00:00.000Z');
    await append(large, 11, '2020-01-01T00:00:00.000Z');
    const app = svc.service.context;
    expect(await historyUpTo(app, [small], '2020-01-15T00:00:00.000Z', 10)).toHaveLength(10);
    expect(await historyUpTo(app, [small, large], '2019-12-31T00:00:00.000Z', 10)).toEqual([]);
    const refused = historyUpTo(app, [large], '2020-01-15T00:00:00.000Z', 10);
    await expect(refused).rejects.toBeInstanceOf(ApiError);
    await expect(refused).rejects.toMatchObject({ status: 400, message: expect.stringContaining('more than 10 events') });
    await expect(historyUpTo(app, [small, large], '2020-01-15T00:00:00.000Z', 20)).rejects.toMatchObject({ status: 400 });
    // Let the projectors and the relay take the burst in before the service stops.
    const head = await app.events.headPosition();
    expect(await app.watermarks.waitFor(app.projectionNames, head, 10_000)).toBe(true);
    for (let i = 0; i < 200 && svc.service.relay!.position < head; i++) await new Promise((r) => setTimeout(r, 50));
  });
});
