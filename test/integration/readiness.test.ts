/**
 * /readyz's answer (services/http/readiness.ts) over the embedded stores: each unreachable store and each lagging
 * role is named, and whether that makes the process not ready depends on its roles (an api keeps serving while only
 * reactions lag). Lag comes from events written with an old occurredAt, never from waiting.
 */
import { Watermarks } from '../../projections/watermarks';
import type { Bus } from '../../services/bus/bus.port';
import { DELIVERIES } from '../../services/dispatcher/webhook-store';
import type { EventStore } from '../../services/eventstore/event-store.port';
import { readiness, type ReadinessSources, type Role } from '../../services/http/readiness';
import { newId } from '../../services/ids';
import type { ReadStore } from '../../services/readstore/read-store.port';
import { useEmbeddedStores } from '../support/embedded-stores';

const LONG_AGO = '2020-01-01T00:00:00Z';
const meta = { userId: null, correlationId: 'c', causationId: 'c', occurredAt: LONG_AGO, schemaVersion: 1 };

const bus = (ping?: () => Promise<void>): Bus => ({
  publish: async () => undefined,
  subscribe: async () => ({ stop: async () => undefined }),
  ...(ping ? { ping } : {}),
  close: async () => undefined,
});

/** A read store every call of which fails, as when MongoDB cannot be reached. */
const unreachable = (store: ReadStore): ReadStore =>
  new Proxy(store, {
    get: (target, key) => (key === 'collection' ? () => new Proxy({}, { get: () => () => Promise.reject(new Error('connect ECONNREFUSED 127.0.0.1:27017')) }) : Reflect.get(target, key)),
  });

describe('readiness', () => {
  let events: EventStore;
  let store: ReadStore;
  useEmbeddedStores('readiness', (openedEvents, openedStore) => ([events, store] = [openedEvents, openedStore]));

  const sources = (over: Partial<ReadinessSources> = {}): ReadinessSources => ({
    events, store, watermarks: new Watermarks(store, false), projectionNames: ['counter'], bus: bus(), config: { READY_MAX_LAG_SECONDS: 30 }, ...over,
  });
  const check = (roles: Role[], over: Partial<ReadinessSources> = {}) => readiness(sources(over), new Set(roles));
  const appendOld = () => events.append(`s-${newId()}`, [{ id: newId(), type: 'thing.happened', data: {}, metadata: meta }], 'no_stream');

  it('is ready with every store answering and nothing behind', async () => {
    const r = await check(['api']);
    expect(r).toMatchObject({
      status: 'ready', problems: [],
      stores: { 'event store': 'ok', 'read store': 'ok', bus: 'ok' },
      roles: { projector: 'ok', relay: 'ok', dispatcher: 'ok', automations: 'ok' },
    });
  });

  it('names the projection that is stuck: the api and the projector are not ready', async () => {
    const { positions } = await appendOld();
    for (const role of ['api', 'projector'] as const) {
      const r = await check([role]);
      expect(r.status).toBe('not_ready');
      expect(r.projections?.counter).toMatchObject({ position: 0, next: { position: positions[0], type: 'thing.happened' } });
      expect(r.problems).toEqual(expect.arrayContaining([expect.stringMatching(/^projector: counter: stuck or lagging: the oldest event it has not applied \(position \d+, thing\.happened\)/)]));
      expect(r.roles.projector).toMatch(/^counter: stuck or lagging/);
    }
  });

  it('names a relay that lags: the relay is not ready, the api says degraded', async () => {
    await appendOld();
    const ready = (await check(['api'], { projectionNames: [] }));
    expect(ready.status).toBe('degraded');
    expect(ready.problems).toEqual([expect.stringMatching(/^relay: 1 log positions not yet in the bus, the oldest event \d+ s old \(limit 30 s\)$/)]);
    expect((await check(['relay'], { projectionNames: [] })).status).toBe('not_ready');
  });

  it('names a bus that cannot be reached: the relay is not ready, the api degraded', async () => {
    const down = { bus: bus(() => Promise.reject(new Error('Connection error: connect ECONNREFUSED 127.0.0.1:9092'))) };
    const api = await check(['api'], down);
    expect(api.status).toBe('degraded');
    expect(api.stores.bus).toBe('unreachable: Connection error: connect ECONNREFUSED 127.0.0.1:9092');
    expect(api.problems).toEqual(['bus: unreachable: Connection error: connect ECONNREFUSED 127.0.0.1:9092']);
    expect((await check(['relay'], down)).status).toBe('not_ready');
    expect((await check(['dispatcher'], down)).status).toBe('not_ready');
  });

  it('names a read store that cannot be reached, and checks no role through it', async () => {
    const r = await check(['api'], { store: unreachable(store) });
    expect(r.status).toBe('not_ready');
    expect(r.stores['read store']).toMatch(/^unreachable: connect ECONNREFUSED/);
    expect(r.stores['event store']).toBe('ok');
    expect(r.roles).toEqual(Object.fromEntries(['projector', 'relay', 'dispatcher', 'automations'].map((role) => [role, 'not checked: the read store is unreachable'])));
  });

  it('names a dispatcher whose deliveries wait too long', async () => {
    await store.collection(DELIVERIES).put({ _id: newId(), state: 'pending', nextAttemptMs: Date.parse(LONG_AGO) });
    await store.collection(DELIVERIES).put({ _id: newId(), state: 'delivered', nextAttemptMs: null });
    const r = await check(['dispatcher'], { projectionNames: [] });
    expect(r.status).toBe('not_ready');
    expect(r.roles).toEqual({ dispatcher: expect.stringMatching(/^1 webhook deliveries due, the longest-due for \d+ s \(limit 30 s\)$/) });
    expect((await check(['api'], { projectionNames: [] })).status).toBe('degraded');
  });
});
