/**
 * Routines over real HTTP: create, list (paged), get, update (period ids kept), delete, ETag/If-Match, validation,
 * limits, scopes, two-user isolation, /sync and /me/bootstrap. Contract: api-spec.md section 2 "Routine" and
 * "Routines" in section 4; addendum.md "Focus, routines, ...".
 */
import { randomUUID } from 'node:crypto';
import type { EventStore } from '../../services/eventstore/event-store.port';
import { type ApiResponse, type Client, signUp, useTestService } from '../support/service';

let base: string;
let log: EventStore;
useTestService((started) => {
  base = started.base;
  log = started.service.context.events;
});

const period = (over: Record<string, unknown> = {}) => ({
  name: 'Morning run', startMinute: 420, endMinute: 465, windowStartMinute: 360, windowEndMinute: 540,
  priority: 'high', canMove: true, items: [{ title: 'Stretch' }, { title: 'Run 5 km' }], ...over,
});
const routineBody = (over: Record<string, unknown> = {}) => ({
  name: 'Mornings', type: 'personal', color: '#2f855a', days: [1, 2, 3, 4, 5],
  periods: [period(), { name: 'Read', startMinute: 1260, endMinute: 1290 }], ...over,
});

async function created(c: Client, over: Record<string, unknown> = {}) {
  const res = await c.call('POST', '/routines', routineBody(over));
  expect(res.status).toBe(201);
  return res.body.routine as Record<string, any>;
}

const listed = async (c: Client, query = '') => {
  const res = await c.call('GET', `/routines${query}`);
  expect(res.status).toBe(200);
  return res.body as { routines: Array<Record<string, any>>; nextPageToken: string | null };
};

function expectError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
}

function expectInvalid(res: ApiResponse, path?: string): void {
  expectError(res, 400, 'invalid_request');
  const issues = res.body.error.details?.issues as Array<{ path: string; message: string }>;
  expect(issues.length).toBeGreaterThan(0);
  if (path) expect(issues.map((i) => i.path)).toContain(path);
}

describe('POST /routines and GET /routines/{id}', () => {
  it('creates the routine with ids for it, each period and each item, and an ETag', async () => {
    const c = await signUp(base);
    const res = await c.call('POST', '/routines', routineBody());
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['routine']);
    const r = res.body.routine;
    expect(r).toMatchObject({
      name: 'Mornings', type: 'personal', color: '#2f855a', isActive: true, days: [1, 2, 3, 4, 5], ownerId: c.userId,
      version: 1, deletedAt: null,
    });
    expect(r.periods).toHaveLength(2);
    expect(r.periods[0]).toMatchObject({
      name: 'Morning run', startMinute: 420, endMinute: 465, windowStartMinute: 360, windowEndMinute: 540, priority: 'high',
      canMove: true, items: [{ title: 'Stretch' }, { title: 'Run 5 km' }],
    });
    expect(r.periods[1]).toMatchObject({ windowStartMinute: null, windowEndMinute: null, priority: 'normal', canMove: true, items: [] });
    const ids = [r.id, ...r.periods.map((p: any) => p.id), ...r.periods[0].items.map((i: any) => i.id)];
    expect(new Set(ids).size).toBe(5);
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(r.createdAt).toBe(r.updatedAt);
    expect(res.headers.get('etag')).toBe('"v1"');
    expect(res.headers.get('x-calendar-position')).toMatch(/^\d+$/);

    const got = await c.call('GET', `/routines/${r.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ routine: r });
    expect(got.headers.get('etag')).toBe('"v1"');
  });

  it('takes defaults: type personal, no colour, active', async () => {
    const c = await signUp(base);
    const r = await created(c, { type: undefined, color: undefined });
    expect(r).toMatchObject({ type: 'personal', color: null, isActive: true });
  });

  it('answers a retry with the same Idempotency-Key with the same routine and stores one', async () => {
    const c = await signUp(base);
    const key = { 'Idempotency-Key': randomUUID() };
    const first = await c.call('POST', '/routines', routineBody(), key);
    const again = await c.call('POST', '/routines', routineBody(), key);
    expect([first.status, again.status]).toEqual([201, 201]);
    expect(again.body).toEqual(first.body);
    expect((await listed(c)).routines).toHaveLength(1);
  });

  it('answers 404 for an unknown id and 400 for one that is not a uuid', async () => {
    const c = await signUp(base);
    const id = randomUUID();
    expectError(await c.call('GET', `/routines/${id}`), 404, 'not_found');
    expectError(await c.call('PATCH', `/routines/${id}`, { name: 'x' }), 404, 'not_found');
    expectError(await c.call('DELETE', `/routines/${id}`), 404, 'not_found');
    expectInvalid(await c.call('GET', '/routines/not-a-uuid'), 'path.id');
  });

  it('refuses the twentyfirst routine with 409 routine_limit_reached', async () => {
    const c = await signUp(base);
    for (let i = 0; i < 20; i++) await created(c, { name: `R${i}` });
    expectError(await c.call('POST', '/routines', routineBody()), 409, 'routine_limit_reached');
    const { routines } = await listed(c, '?limit=500');
    expect(routines).toHaveLength(20);
    expect((await c.call('DELETE', `/routines/${routines[0].id}`)).status).toBe(204);
    await created(c);
  });
});

describe('validation: 400 invalid_request with details.issues, nothing written', () => {
  const bad = (p: Record<string, unknown>) => ({ periods: [period(p)] });
  it.each<[string, Record<string, unknown>, string]>([
    ['no name', { name: undefined }, 'body.name'],
    ['a blank name', { name: '  ' }, 'body.name'],
    ['no days', { days: undefined }, 'body.days'],
    ['empty days', { days: [] }, 'body.days'],
    ['day 0', { days: [0, 1] }, 'body.days.0'],
    ['day 8', { days: [8] }, 'body.days.0'],
    ['a repeated day', { days: [1, 3, 1] }, 'body.days'],
    ['a fractional day', { days: [1.5] }, 'body.days.0'],
    ['no periods', { periods: undefined }, 'body.periods'],
    ['an empty period list', { periods: [] }, 'body.periods'],
    ['eleven periods', { periods: Array.from({ length: 11 }, (_, i) => period({ name: `P${i}` })) }, 'body.periods'],
    ['an unknown type', { type: 'school' }, 'body.type'],
    ['a colour that is not hex', { color: 'blue' }, 'body.color'],
    ['an unknown field', { owner: 'me' }, 'body.owner'],
    ['a negative startMinute', bad({ startMinute: -1, windowStartMinute: null }), 'body.periods.0.startMinute'],
    ['an endMinute past 1440', bad({ endMinute: 1441, windowEndMinute: null }), 'body.periods.0.endMinute'],
    ['a fractional minute', bad({ startMinute: 420.5 }), 'body.periods.0.startMinute'],
    ['end equal to start', bad({ endMinute: 420 }), 'body.periods.0.endMinute'],
    ['end before start', bad({ startMinute: 500, endMinute: 450 }), 'body.periods.0.endMinute'],
    ['a window starting after the period (the start is then before it)', bad({ windowStartMinute: 430 }), 'body.periods.0.startMinute'],
    ['a window ending before the period', bad({ windowEndMinute: 460 }), 'body.periods.0.windowEndMinute'],
    ['an unknown priority', bad({ priority: 'urgent' }), 'body.periods.0.priority'],
    ['canMove that is not a boolean', bad({ canMove: 'yes' }), 'body.periods.0.canMove'],
    ['a period without a name', bad({ name: undefined }), 'body.periods.0.name'],
    ['a period with an id', bad({ id: randomUUID() }), 'body.periods.0'],
    ['an item without a title', bad({ items: [{}] }), 'body.periods.0.items.0.title'],
    ['an item with an unknown field', bad({ items: [{ title: 'x', done: true }] }), 'body.periods.0.items.0'],
    ['twenty-one items', bad({ items: Array.from({ length: 21 }, (_, i) => ({ title: `i${i}` })) }), 'body.periods.0.items'],
  ])('POST refuses %s', async (_label, over, path) => {
    const c = await signUp(base);
    expectInvalid(await c.call('POST', '/routines', routineBody(over)), path);
    expect((await listed(c)).routines).toEqual([]);
  });

  it('PATCH refuses bad fields, unknown or repeated period ids, and foreign item ids, changing nothing', async () => {
    const c = await signUp(base);
    const r = await created(c);
    const [p0, p1] = r.periods;
    for (const [body, path] of [
      [{ days: [9] }, 'body.days.0'],
      [{ isActive: 'no' }, 'body.isActive'],
      [{ periods: [] }, 'body.periods'],
      [{ periods: [period({ endMinute: 400 })] }, 'body.periods.0.endMinute'],
      [{ periods: [period({ id: p0.id }), period({ id: p0.id, name: 'Again' })] }, 'body.periods'],
    ] as Array<[Record<string, unknown>, string]>) {
      expectInvalid(await c.call('PATCH', `/routines/${r.id}`, body), path);
    }
    // Ids this routine does not have: a conflict with its current state.
    for (const [body, path] of [
      [{ periods: [period({ id: randomUUID() })] }, 'body.periods.0.id'],
      [{ periods: [{ ...period({ id: p1.id }), items: [{ id: p0.items[0].id, title: 'Stolen' }] }] }, 'body.periods.0.items.0.id'],
    ] as Array<[Record<string, unknown>, string]>) {
      const res = await c.call('PATCH', `/routines/${r.id}`, body);
      expectError(res, 409, 'unknown_id');
      expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toEqual([path]);
    }
    expect((await c.call('GET', `/routines/${r.id}`)).body.routine).toEqual(r);
  });
});

describe('hostile input', () => {
  const HOSTILE: unknown[] = [
    null, true, 0, -1, 1441, 3.14, 1e308, '', ' ', 'x'.repeat(20_000), '\u0000', [], [null], {}, { $gt: '' }, { __proto__: { a: 1 } },
    '2026-13-45', 'NaN', "' OR 1=1 --",
  ];
  const int = (min: number, max: number) => (v: unknown) => Number.isInteger(v) && (v as number) >= min && (v as number) <= max;
  const text = (v: unknown) => typeof v === 'string' && v.trim().length > 0 && v.length <= 200;
  /** Field -> which replacement values are valid there (given the rest of the valid body). */
  const routineFields: Record<string, (v: unknown) => boolean> = {
    name: text, type: () => false, color: (v) => v === null, isActive: (v) => typeof v === 'boolean', days: () => false, periods: () => false,
  };
  const periodFields: Record<string, (v: unknown) => boolean> = {
    name: text, startMinute: () => false, endMinute: () => false, priority: () => false, canMove: (v) => typeof v === 'boolean',
    windowStartMinute: (v) => v === null || int(0, 420)(v), windowEndMinute: (v) => v === null || int(465, 1440)(v),
    items: (v) => Array.isArray(v) && v.length === 0,
  };
  // A start of 0 is well-formed but outside this period's window: a conflict (409 outside_window), not bad input.
  const dayFields: Record<string, (v: unknown) => boolean> = { status: (v) => v === null, startMinute: (v) => v === 0, endMinute: () => false };

  it('refuses every hostile value in every field of every routine write with 400, and stores nothing', async () => {
    const c = await signUp(base);
    const r = await created(c);
    const [p] = r.periods;
    const head = await log.headPosition();
    const cases: Array<[string, string, unknown]> = [];
    for (const v of HOSTILE) {
      for (const [field, valid] of Object.entries(routineFields)) {
        if (valid(v)) continue;
        cases.push(['POST', '/routines', { ...routineBody(), [field]: v }]);
        cases.push(['PATCH', `/routines/${r.id}`, { [field]: v }]);
      }
      for (const [field, valid] of Object.entries(periodFields)) {
        if (!valid(v)) cases.push(['POST', '/routines', routineBody({ periods: [period({ [field]: v })] })]);
      }
      for (const [field, valid] of Object.entries(dayFields)) {
        if (!valid(v)) cases.push(['PUT', `/routines/periods/${p.id}/days/2026-10-26`, { status: 'done', startMinute: 450, endMinute: 480, [field]: v }]);
      }
      if (typeof v !== 'boolean') cases.push(['PUT', `/routines/items/${p.items[0].id}/days/2026-10-26`, { done: v }]);
      if ((typeof v === 'string' && v !== '') || typeof v === 'number') {
        cases.push(['PUT', `/routines/periods/${encodeURIComponent(String(v).slice(0, 200))}/days/2026-10-26`, { status: 'done' }]);
        cases.push(['GET', `/routines/instances?from=${encodeURIComponent(String(v).slice(0, 200))}&to=2026-10-26`, undefined]);
      }
    }
    expect(cases.length).toBeGreaterThan(300);
    const wrong: string[] = [];
    for (let i = 0; i < cases.length; i += 20) {
      const batch = cases.slice(i, i + 20);
      const answers = await Promise.all(batch.map(([method, path, body]) => c.call(method, path, body)));
      answers.forEach((res, j) => {
        if (res.status !== 400 || res.body?.error?.code !== 'invalid_request' || !res.body.error.details?.issues?.length) {
          wrong.push(`${batch[j][0]} ${batch[j][1].slice(0, 80)} ${JSON.stringify(batch[j][2])?.slice(0, 120)} -> ${res.status}`);
        }
      });
    }
    expect(wrong).toEqual([]);
    expect(await log.headPosition()).toBe(head);
    expect((await c.call('GET', `/routines/${r.id}`)).body.routine).toEqual(r);
  });
});

describe('PATCH /routines/{id}', () => {
  it('changes name, type, colour, isActive and days, bumps the version and the ETag', async () => {
    const c = await signUp(base);
    const r = await created(c);
    const res = await c.call('PATCH', `/routines/${r.id}`, { name: 'Weekdays', type: 'work', color: '#112233', isActive: false, days: [1, 3] });
    expect(res.status).toBe(200);
    expect(res.body.routine).toMatchObject({
      id: r.id, name: 'Weekdays', type: 'work', color: '#112233', isActive: false, days: [1, 3], periods: r.periods,
      version: 2, createdAt: r.createdAt,
    });
    expect(Date.parse(res.body.routine.updatedAt)).toBeGreaterThanOrEqual(Date.parse(r.updatedAt));
    expect(res.headers.get('etag')).toBe('"v2"');
    expect((await c.call('GET', `/routines/${r.id}`)).body.routine).toEqual(res.body.routine);
  });

  it('replaces the period list: ids kept when given, or when name and times are unchanged; new ones get new ids', async () => {
    const c = await signUp(base);
    const r = await created(c);
    const [run, read] = r.periods;
    const res = await c.call('PATCH', `/routines/${r.id}`, {
      periods: [
        { name: 'Read', startMinute: 1260, endMinute: 1290, items: [{ title: 'Novel' }] },
        { ...period({ id: run.id, name: 'Long run', endMinute: 480 }), items: [{ title: 'Run 5 km' }, { id: run.items[0].id, title: 'Stretch more' }] },
        { name: 'Nap', startMinute: 840, endMinute: 870 },
      ],
    });
    expect(res.status).toBe(200);
    const [p0, p1, p2] = res.body.routine.periods;
    expect(p0).toMatchObject({ id: read.id, name: 'Read', items: [{ title: 'Novel' }] });
    expect(p1).toMatchObject({ id: run.id, name: 'Long run', endMinute: 480 });
    expect(p1.items).toEqual([{ id: run.items[1].id, title: 'Run 5 km' }, { id: run.items[0].id, title: 'Stretch more' }]);
    expect([run.id, read.id]).not.toContain(p2.id);
    expect(res.body.routine.periods).toHaveLength(3);
  });

  it('changing nothing answers the routine as it is, at the same version', async () => {
    const c = await signUp(base);
    const r = await created(c);
    const res = await c.call('PATCH', `/routines/${r.id}`, { name: 'Mornings', days: [1, 2, 3, 4, 5] });
    expect(res.status).toBe(200);
    expect(res.body.routine).toEqual(r);
    expect(res.headers.get('x-calendar-position')).toBeNull();
  });

  it('honours If-Match: the current ETag passes, a stale one is 412 version_mismatch and changes nothing', async () => {
    const c = await signUp(base);
    const r = await created(c);
    expect((await c.call('PATCH', `/routines/${r.id}`, { name: 'Two' }, { 'If-Match': '"v1"' })).status).toBe(200);
    expectError(await c.call('PATCH', `/routines/${r.id}`, { name: 'Three' }, { 'If-Match': '"v1"' }), 412, 'version_mismatch');
    expectError(await c.call('DELETE', `/routines/${r.id}`, undefined, { 'If-Match': '"v1"' }), 412, 'version_mismatch');
    expect((await c.call('GET', `/routines/${r.id}`)).body.routine).toMatchObject({ name: 'Two', version: 2 });
    expect((await c.call('DELETE', `/routines/${r.id}`, undefined, { 'If-Match': '"v2"' })).status).toBe(204);
  });
});

describe('DELETE /routines/{id}', () => {
  it('answers 204; afterwards the routine is 404 and out of the list', async () => {
    const c = await signUp(base);
    const r = await created(c);
    const keep = await created(c, { name: 'Evenings' });
    const res = await c.call('DELETE', `/routines/${r.id}`);
    expect(res.status).toBe(204);
    expect(res.headers.get('x-calendar-position')).toMatch(/^\d+$/);
    expectError(await c.call('GET', `/routines/${r.id}`), 404, 'not_found');
    expectError(await c.call('DELETE', `/routines/${r.id}`), 404, 'not_found');
    expectError(await c.call('PATCH', `/routines/${r.id}`, { name: 'x' }), 404, 'not_found');
    expect((await listed(c)).routines.map((x) => x.id)).toEqual([keep.id]);
  });
});

describe('GET /routines', () => {
  it('lists own routines with their periods, oldest first, paged', async () => {
    const c = await signUp(base);
    const made = [];
    for (const name of ['A', 'B', 'C']) made.push(await created(c, { name }));
    const first = await listed(c, '?limit=2');
    expect(first.routines).toEqual(made.slice(0, 2));
    expect(typeof first.nextPageToken).toBe('string');
    const second = await listed(c, `?limit=2&pageToken=${encodeURIComponent(first.nextPageToken!)}`);
    expect(second).toEqual({ routines: [made[2]], nextPageToken: null });
    expectInvalid(await c.call('GET', '/routines?pageToken=bogus'), 'query.pageToken');
    expectInvalid(await c.call('GET', '/routines?limit=0'), 'query.limit');
  });

  it('is open to an API key with routines:read; the other routes stay session-only', async () => {
    const c = await signUp(base);
    const r = await created(c);
    const key = (await c.call('POST', '/api-keys', { name: 'reader', scopes: ['routines:read'] })).body.key as string;
    const asKey = (method: string, path: string, body?: unknown) => c.call(method, path, body, { authorization: `Bearer ${key}` });
    const res = await asKey('GET', '/routines');
    expect(res.status).toBe(200);
    expect(res.body.routines.map((x: { id: string }) => x.id)).toEqual([r.id]);
    expectError(await asKey('GET', `/routines/${r.id}`), 403, 'session_required');
    expectError(await asKey('POST', '/routines', routineBody()), 403, 'session_required');
    expectError(await asKey('GET', '/routines/instances?from=2026-10-26&to=2026-10-27'), 403, 'session_required');
    const other = (await c.call('POST', '/api-keys', { name: 'events', scopes: ['events:read'] })).body.key as string;
    const denied = await c.call('GET', '/routines', undefined, { authorization: `Bearer ${other}` });
    expect({ status: denied.status, code: denied.body.error.code, required: denied.body.error.details.required })
      .toEqual({ status: 403, code: 'insufficient_scope', required: 'routines:read' });
  });
});

describe('two users', () => {
  it('B can neither see nor touch A\'s routine, its periods or items: 404 everywhere, A\'s data unchanged', async () => {
    const [a, b] = await Promise.all([signUp(base), signUp(base)]);
    const r = await created(a);
    const [run] = r.periods;
    const before = (await a.call('GET', `/routines/${r.id}`)).body;
    expectError(await b.call('GET', `/routines/${r.id}`), 404, 'not_found');
    expectError(await b.call('PATCH', `/routines/${r.id}`, { name: 'Mine now' }), 404, 'not_found');
    expectError(await b.call('DELETE', `/routines/${r.id}`), 404, 'not_found');
    expectError(await b.call('PUT', `/routines/periods/${run.id}/days/2026-10-26`, { status: 'done' }), 404, 'not_found');
    expectError(await b.call('PUT', `/routines/items/${run.items[0].id}/days/2026-10-26`, { done: true }), 404, 'not_found');
    expect((await listed(b)).routines).toEqual([]);
    const instances = await b.call('GET', '/routines/instances?from=2026-10-26&to=2026-10-30');
    expect(instances.body.instances).toEqual([]);
    expect((await a.call('GET', `/routines/${r.id}`)).body).toEqual(before);
    const own = await a.call('GET', '/routines/instances?from=2026-10-26&to=2026-10-26');
    expect(own.body.instances.find((i: any) => i.periodId === run.id)).toMatchObject({ status: null, items: [{ done: false }, { done: false }] });
  });
});

describe('sync and bootstrap', () => {
  it('bootstrap lists live routines; /sync returns created and changed ones, deleted ones with deletedAt', async () => {
    const c = await signUp(base);
    const kept = await created(c, { name: 'Kept' });
    const boot = (await c.call('GET', '/me/bootstrap')).body;
    expect(boot.routines).toEqual([kept]);

    const gone = await created(c, { name: 'Gone' });
    const changed = (await c.call('PATCH', `/routines/${kept.id}`, { name: 'Kept, renamed' })).body.routine;
    expect((await c.call('DELETE', `/routines/${gone.id}`)).status).toBe(204);
    const page = (await c.call('GET', `/sync?since=${encodeURIComponent(boot.cursor)}`)).body;
    expect(page.changes.routines).toHaveLength(2);
    expect(page.changes.routines).toEqual(expect.arrayContaining([
      changed,
      expect.objectContaining({ id: gone.id, name: 'Gone', deletedAt: expect.any(String) }),
    ]));
    expect((await c.call('GET', '/me/bootstrap')).body.routines).toEqual([changed]);

    const other = await signUp(base);
    expect((await other.call('GET', '/me/bootstrap')).body.routines).toEqual([]);
  });
});
