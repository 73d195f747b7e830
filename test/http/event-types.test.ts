/** Event types over real HTTP: built-in kinds plus one's own; create, rename/recolour, delete; isolation. */
import { EVENT_KINDS } from '../../contracts/events';
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { type Client, signUp } from '../support/service';
import { usePlanningService } from '../support/planning';

const api = usePlanningService();


async function create(c: Client, body: Record<string, unknown> = {}) {
  const res = await c.call('POST', '/event-types', { name: 'Deep work', color: '#ff8800', ...body });
  expect(res.status).toBe(201);
  return res.body.eventType as Record<string, any>;
}

async function list(c: Client) {
  const res = await c.call('GET', '/event-types');
  expect(res.status).toBe(200);
  return res.body.eventTypes as Array<Record<string, any>>;
}

const own = async (c: Client) => (await list(c)).filter((t) => !t.builtIn);

describe('GET /event-types', () => {
  it('lists every built-in kind first, each with a name, colour and default length', async () => {
    const c = await signUp(api.base);
    const types = await list(c);
    expect(types.map((t) => t.id)).toEqual([...EVENT_KINDS]);
    for (const t of types) {
      expect(t).toMatchObject({ builtIn: true, baseKind: t.id });
      expect(t.name.toLowerCase()).toBe(t.id);
      expect(t.color).toMatch(/^#[0-9a-f]{6}$/);
      expect(t.defaultMinutes).toBeGreaterThan(0);
    }
  });

  it('then the caller\'s own types, oldest first', async () => {
    const c = await signUp(api.base);
    const first = await create(c, { name: 'Deep work' });
    const second = await create(c, { name: 'Gym', color: '#00aa00' });
    const types = await list(c);
    expect(types.slice(EVENT_KINDS.length).map((t) => t.id)).toEqual([first.id, second.id]);
  });
});

describe('POST /event-types', () => {
  it('creates a type with every field; baseKind and defaultMinutes default to null', async () => {
    const c = await signUp(api.base);
    const res = await c.call('POST', '/event-types', { name: 'Deep work', color: '#ff8800', baseKind: 'focus', defaultMinutes: 90 });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['eventType']);
    expect(res.body.eventType).toMatchObject({
      name: 'Deep work', color: '#ff8800', baseKind: 'focus', defaultMinutes: 90, builtIn: false, deletedAt: null, version: 1,
    });
    expect(res.headers.get('etag')).toBe('"v1"');
    expect(await create(c, { name: 'Plain' })).toMatchObject({ baseKind: null, defaultMinutes: null });
  });

  it.each([
    [{ color: '#ff8800' }, 'body.name'],
    [{ name: 'No colour' }, 'body.color'],
    [{ name: '', color: '#ff8800' }, 'body.name'],
    [{ name: 'x'.repeat(101), color: '#ff8800' }, 'body.name'],
    [{ name: 'Bad colour', color: 'orange' }, 'body.color'],
    [{ name: 'Bad kind', color: '#ff8800', baseKind: 'party' }, 'body.baseKind'],
    [{ name: 'Zero', color: '#ff8800', defaultMinutes: 0 }, 'body.defaultMinutes'],
    [{ name: 'Long', color: '#ff8800', defaultMinutes: 1441 }, 'body.defaultMinutes'],
    [{ name: 'Extra', color: '#ff8800', icon: 'star' }, 'body.icon'],
  ])('400 for %j, and nothing is written', async (body, path) => {
    const c = await signUp(api.base);
    const before = await api.head();
    expectInvalid(await c.call('POST', '/event-types', body), path);
    expect(await api.head()).toBe(before);
    expect(await own(c)).toEqual([]);
  });

  it('keeps at most 100 types per person (409 event_type_limit_reached)', async () => {
    const c = await signUp(api.base);
    for (let i = 0; i < 100; i += 20) {
      const answers = await Promise.all(Array.from({ length: 20 }, (_, j) => c.call('POST', '/event-types', { name: `T${i + j}`, color: '#123456' })));
      expect(answers.map((r) => r.status)).toEqual(Array(20).fill(201));
    }
    expectError(await c.call('POST', '/event-types', { name: 'One more', color: '#123456' }), 409, 'event_type_limit_reached');
    expect(await own(c)).toHaveLength(100);
  });
});

describe('PATCH /event-types/{id}', () => {
  it('renames and recolours, keeping what is not sent', async () => {
    const c = await signUp(api.base);
    const type = await create(c, { baseKind: 'focus', defaultMinutes: 90 });
    const renamed = await c.call('PATCH', `/event-types/${type.id}`, { name: 'Deep work (no meetings)' });
    expect(renamed.status).toBe(200);
    expect(renamed.body.eventType).toMatchObject({ name: 'Deep work (no meetings)', color: '#ff8800', baseKind: 'focus', version: 2 });
    expect(renamed.headers.get('etag')).toBe('"v2"');
    const recoloured = await c.call('PATCH', `/event-types/${type.id}`, { color: '#ff5500' });
    expect(recoloured.body.eventType).toMatchObject({ name: 'Deep work (no meetings)', color: '#ff5500', version: 3 });
    expect((await own(c))[0]).toMatchObject({ name: 'Deep work (no meetings)', color: '#ff5500' });
  });

  it('built-in kinds cannot change (409 event_type_built_in)', async () => {
    const c = await signUp(api.base);
    const before = await api.head();
    expectError(await c.call('PATCH', '/event-types/meeting', { name: 'Calls' }), 409, 'event_type_built_in');
    expectError(await c.call('DELETE', '/event-types/focus'), 409, 'event_type_built_in');
    expect(await api.head()).toBe(before);
    expect((await list(c)).find((t) => t.id === 'meeting')!.name).toBe('Meeting');
  });

  it('400 for bad bodies or ids, 404 for unknown ids, 412 for a stale ETag; nothing is written', async () => {
    const c = await signUp(api.base);
    const type = await create(c);
    const before = await api.head();
    expectInvalid(await c.call('PATCH', `/event-types/${type.id}`, { color: 'red' }), 'body.color');
    expectInvalid(await c.call('PATCH', `/event-types/${type.id}`, { baseKind: 'focus' }), 'body.baseKind');
    expectInvalid(await c.call('PATCH', '/event-types/party', { name: 'X' }), 'path.id');
    expectNotFound(await c.call('PATCH', '/event-types/00000000-0000-4000-8000-000000000055', { name: 'X' }));
    expectError(await c.call('PATCH', `/event-types/${type.id}`, { name: 'X' }, { 'If-Match': '"v4"' }), 412, 'version_mismatch');
    expect(await api.head()).toBe(before);
    expect((await own(c))[0]).toMatchObject({ name: 'Deep work', version: 1 });
  });
});

describe('DELETE /event-types/{id}', () => {
  it('204, then gone from the list; a second delete and a PATCH are 404', async () => {
    const c = await signUp(api.base);
    const type = await create(c);
    expectError(await c.call('DELETE', `/event-types/${type.id}`, undefined, { 'If-Match': '"v2"' }), 412, 'version_mismatch');
    expect((await c.call('DELETE', `/event-types/${type.id}`, undefined, { 'If-Match': '"v1"' })).status).toBe(204);
    expect(await own(c)).toEqual([]);
    expectNotFound(await c.call('DELETE', `/event-types/${type.id}`));
    expectNotFound(await c.call('PATCH', `/event-types/${type.id}`, { name: 'Back' }));
  });
});

describe('two people', () => {
  it('B neither sees nor changes A\'s types (404), and A\'s type stays as it was', async () => {
    const [a, b] = await Promise.all([signUp(api.base), signUp(api.base)]);
    const type = await create(a, { name: 'A private type' });
    expect(await own(b)).toEqual([]);
    expectNotFound(await b.call('PATCH', `/event-types/${type.id}`, { name: 'Mine now' }));
    expectNotFound(await b.call('DELETE', `/event-types/${type.id}`));
    expect(await own(a)).toEqual([expect.objectContaining({ id: type.id, name: 'A private type', version: 1 })]);
  });
});
