/**
 * Platform behaviour over real HTTP: error envelope, authentication failures, health, OpenAPI and docs, request ids,
 * Idempotency-Key, X-Calendar-Position / X-Calendar-Min-Position. Contract: addendum.md "Runtime" and "Errors".
 *
 * This service runs with WRITE_WAITS_FOR_PROJECTION=false, so a read only sees a write for sure when it passes the
 * write's position in X-Calendar-Min-Position: that is what the read-your-writes tests rely on.
 */
import { randomUUID } from 'node:crypto';
import { access } from '../../services/http/access';
import { routeKey } from '../../services/http/route';
import { apiOperations } from '../../services/routes';
import { refsIn, resolvePointer } from '../support/openapi-doc';
import { request, signUp, startTestService, type ApiResponse, type Client, type TestService } from '../support/service';

let svc: TestService;
let base: string;
let root: string;
let c: Client;

beforeAll(async () => {
  svc = await startTestService({ WRITE_WAITS_FOR_PROJECTION: 'false' });
  base = svc.base;
  root = new URL(base).origin;
  c = await signUp(base);
});
afterAll(async () => {
  await svc.stop();
});

// ---- helpers -------------------------------------------------------------------------------------------------

let slotNo = 0;
/** A fresh one-hour slot per call, so events never conflict. */
function slot() {
  const n = slotNo++;
  const start = Date.UTC(2034, 0, 1 + n, 10);
  return { startsAt: new Date(start).toISOString(), endsAt: new Date(start + 3_600_000).toISOString() };
}

function expectEnvelope(res: ApiResponse, status: number, code?: string): void {
  expect(res.status).toBe(status);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  expect(res.body).toEqual({ error: expect.objectContaining({ code: expect.any(String), message: expect.any(String) }) });
  for (const k of Object.keys(res.body.error)) expect(['code', 'message', 'details']).toContain(k);
  if (code) expect(res.body.error.code).toBe(code);
}

const position = (res: ApiResponse) => {
  const p = res.headers.get('x-calendar-position');
  expect(p).toMatch(/^\d+$/);
  return p!;
};

async function eventsTitled(client: Client, title: string, minPosition: string) {
  const res = await client.call('GET', `/events?from=2034-01-01T00:00:00Z&to=2034-12-31T00:00:00Z`, undefined, {
    'x-calendar-min-position': minPosition,
  });
  expect(res.status).toBe(200);
  return res.body.events.filter((e: { title: string }) => e.title === title);
}

// ---- errors and authentication -------------------------------------------------------------------------------

describe('error envelope and authentication', () => {
  it('an unknown route answers 404 in the envelope', async () => {
    expectEnvelope(await c.call('GET', '/no-such-thing'), 404, 'not_found');
    expectEnvelope(await request(base, 'POST', '/events/extra/segments', { a: 1 }), 404, 'not_found');
    expectEnvelope(await request(root, 'GET', '/nowhere'), 404, 'not_found');
  });

  it('malformed JSON answers 400 in the envelope', async () => {
    const broken = await c.call('POST', '/events', '{"title": "x", ', { 'content-type': 'application/json' });
    expectEnvelope(broken, 400, 'invalid_request');
    const signup = await request(base, 'POST', '/auth/signup', '{not json', { 'content-type': 'application/json' });
    expectEnvelope(signup, 400, 'invalid_request');
  });

  it.each([
    ['GET /me', 'GET', '/me'],
    ['GET /events', 'GET', '/events?from=2034-01-01T00:00:00Z&to=2034-01-02T00:00:00Z'],
    ['POST /events', 'POST', '/events'],
    ['GET /sync', 'GET', '/sync?since=2000-01-01T00:00:00Z'],
    ['GET /calendars', 'GET', '/calendars'],
    ['POST /auth/logout', 'POST', '/auth/logout'],
  ])('no credential: %s answers 401 unauthenticated', async (_label, method, path) => {
    const body = method === 'POST' ? { title: 'x', ...slot() } : undefined;
    expectEnvelope(await request(base, method, path, body), 401, 'unauthenticated');
  });

  it.each([
    ['a garbage bearer token', { authorization: 'Bearer garbage' }],
    ['a made-up session token', { authorization: `Bearer cs_${'A'.repeat(43)}` }],
    ['a made-up API key', { authorization: 'Bearer ck_live_abcdef' }],
    ['a non-bearer scheme', { authorization: 'Basic dXNlcjpwYXNz' }],
    ['an empty bearer', { authorization: 'Bearer ' }],
    ['a garbage session cookie', { cookie: 'session=cs_nope' }],
  ])('%s answers 401 unauthenticated', async (_label, headers) => {
    expectEnvelope(await request(base, 'GET', '/me', undefined, headers), 401, 'unauthenticated');
    expectEnvelope(await request(base, 'GET', '/calendars', undefined, headers), 401, 'unauthenticated');
  });

  it('every API response carries RateLimit-* headers (addendum: errors table, 429 row)', async () => {
    for (const res of [await c.call('GET', '/me'), await request(base, 'GET', '/me'), await c.call('GET', '/calendars')]) {
      const names = [...res.headers.keys()].filter((k) => k.toLowerCase().startsWith('ratelimit'));
      expect(names.length).toBeGreaterThan(0);
    }
  });
});

// ---- health, OpenAPI, docs -----------------------------------------------------------------------------------

describe('health, OpenAPI and docs', () => {
  it('/healthz and /readyz answer 200', async () => {
    const health = await request(root, 'GET', '/healthz');
    expect(health.status).toBe(200);
    const ready = await request(root, 'GET', '/readyz');
    expect(ready.status).toBe(200);
  });

  it.each(['/openapi.json', '/api/v1/openapi.json'])('%s is an OpenAPI 3.1 document', async (path) => {
    const res = await request(root, 'GET', path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.body.openapi).toMatch(/^3\.1\.\d+$/);
    expect(res.body.info).toEqual(expect.objectContaining({ title: expect.any(String), version: expect.any(String) }));
    expect(typeof res.body.paths).toBe('object');
  });

  it('both OpenAPI URLs serve the same document', async () => {
    const a = await request(root, 'GET', '/openapi.json');
    const b = await request(root, 'GET', '/api/v1/openapi.json');
    expect(b.body).toEqual(a.body);
  });

  it('documents every served operation, and every served operation has a row in the access table', async () => {
    const doc = (await request(root, 'GET', '/openapi.json')).body;
    expect(apiOperations.length).toBeGreaterThan(0);
    const missing = apiOperations.filter((o) => {
      const op = doc.paths?.[o.path]?.[o.method];
      return !op || typeof op.responses !== 'object' || Object.keys(op.responses).length === 0;
    });
    expect(missing).toEqual([]);
    expect(apiOperations.map(routeKey).filter((key) => !(key in access))).toEqual([]);
  });

  it('marks the auth of every documented operation as the access table says', async () => {
    const doc = (await request(root, 'GET', '/openapi.json')).body;
    for (const o of apiOperations) {
      const row = routeKey(o);
      const rule = access[row];
      const op = doc.paths[o.path][o.method];
      if (rule.kind === 'public') expect({ row, security: op.security }).toEqual({ row, security: [] });
      else expect({ row, secured: Array.isArray(op.security) && op.security.length > 0 }).toEqual({ row, secured: true });
      if (rule.kind === 'scope') {
        const scopes = op.security.flatMap((s: Record<string, string[]>) => Object.values(s).flat());
        expect({ row, scopes }).toEqual({ row, scopes: expect.arrayContaining([rule.scope]) });
      }
    }
  });

  it('serves every row of the access table, and has a row for every route', () => {
    const served = apiOperations.map(routeKey);
    expect(Object.keys(access).filter((row) => !served.includes(row))).toEqual([]);
    expect(served.filter((row) => !(row in access))).toEqual([]);
  });

  it('every $ref resolves inside the document', async () => {
    const doc = (await request(root, 'GET', '/openapi.json')).body;
    const refs = [...new Set(refsIn(doc))];
    expect(refs.length).toBeGreaterThan(0);
    const broken = refs.filter((ref) => resolvePointer(doc, ref) === undefined);
    expect(broken).toEqual([]);
  });

  it('/docs serves an HTML page whose assets and spec URL load', async () => {
    const res = await fetch(`${root}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).toMatch(/<html/i);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of assets) {
      const loaded = await fetch(new URL(asset, `${root}/docs`));
      expect({ asset, status: loaded.status }).toEqual({ asset, status: 200 });
    }
    let scripts = html;
    for (const src of [...html.matchAll(/<script[^>]+src="([^"]+)"/g)].map((m) => m[1]).filter((s) => !s.includes('bundle'))) {
      scripts += (await request(root, 'GET', src)).body;
    }
    const specUrl = /url:\s*'([^']+)'/.exec(scripts)?.[1] ?? /url:\s*"([^"]+)"/.exec(scripts)?.[1];
    expect(specUrl).toBeDefined();
    const spec = await request(root, 'GET', specUrl!);
    expect(spec.body.openapi).toMatch(/^3\.1/);
  });
});

// ---- request ids ---------------------------------------------------------------------------------------------

describe('X-Request-Id', () => {
  it('echoes the caller request id, on success and on errors', async () => {
    for (const [method, path, headers] of [
      ['GET', '/me', { authorization: `Bearer ${c.token}` }],
      ['GET', '/nope', {}],
      ['GET', '/me', {}],
    ] as const) {
      const id = `req-${randomUUID()}`;
      const res = await request(base, method, path, undefined, { ...headers, 'x-request-id': id });
      expect(res.headers.get('x-request-id')).toBe(id);
    }
  });

  it('makes one up when the caller sends none', async () => {
    const res = await c.call('GET', '/me');
    expect(res.headers.get('x-request-id')).toMatch(/\S+/);
  });
});

// ---- Idempotency-Key -----------------------------------------------------------------------------------------

describe('Idempotency-Key', () => {
  it('the same key with the same body returns the first answer and creates one event only', async () => {
    const key = randomUUID();
    const body = { title: `idem ${key}`, ...slot() };
    const first = await c.call('POST', '/events', body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const again = await c.call('POST', '/events', body, { 'idempotency-key': key });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    const third = await c.call('POST', '/events', body, { 'idempotency-key': key });
    expect(third.body).toEqual(first.body);

    const found = await eventsTitled(c, body.title, position(first));
    expect(found.map((e: { id: string }) => e.id)).toEqual([first.body.event.id]);
  });

  it('the same key with a different body is refused with 409 idempotency_key_reused and writes nothing', async () => {
    const key = randomUUID();
    const body = { title: `idem-a ${key}`, ...slot() };
    const first = await c.call('POST', '/events', body, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const other = { title: `idem-b ${key}`, ...slot() };
    expectEnvelope(await c.call('POST', '/events', other, { 'idempotency-key': key }), 409, 'idempotency_key_reused');
    expect(await eventsTitled(c, other.title, position(first))).toEqual([]);
  });

  it('a failed first answer is replayed too (same status and body)', async () => {
    const key = randomUUID();
    const body = { title: 'bad', calendarId: randomUUID(), ...slot() };
    const first = await c.call('POST', '/events', body, { 'idempotency-key': key });
    expectEnvelope(first, 404, 'not_found');
    const again = await c.call('POST', '/events', body, { 'idempotency-key': key });
    expect(again.status).toBe(404);
    expect(again.body).toEqual(first.body);
  });

  it('keys belong to one credential: another user with the same key and body gets an answer of their own', async () => {
    const other = await signUp(base);
    const key = randomUUID();
    const body = { title: `shared key ${key}`, ...slot() };
    const mine = await c.call('POST', '/events', body, { 'idempotency-key': key });
    const theirs = await other.call('POST', '/events', body, { 'idempotency-key': key });
    expect([mine.status, theirs.status]).toEqual([201, 201]);
    expect(theirs.body.event.id).not.toBe(mine.body.event.id);
    expect(theirs.body.event.createdBy).toBe(other.userId);
    expect((await eventsTitled(other, body.title, position(theirs))).map((e: { id: string }) => e.id)).toEqual([theirs.body.event.id]);
  });

  it('works on other POSTs too (calendars)', async () => {
    const key = randomUUID();
    const first = await c.call('POST', '/calendars', { name: `cal ${key}` }, { 'idempotency-key': key });
    expect(first.status).toBe(201);
    const again = await c.call('POST', '/calendars', { name: `cal ${key}` }, { 'idempotency-key': key });
    expect(again.status).toBe(201);
    expect(again.body).toEqual(first.body);
    const list = await c.call('GET', '/calendars', undefined, { 'x-calendar-min-position': position(first) });
    expect(list.body.calendars.filter((x: { name: string }) => x.name === `cal ${key}`)).toHaveLength(1);
  });
});

// ---- positions -----------------------------------------------------------------------------------------------

describe('X-Calendar-Position and X-Calendar-Min-Position', () => {
  it('every write that appends answers with X-Calendar-Position, growing from write to write', async () => {
    const signup = await request(base, 'POST', '/auth/signup', {
      email: `pos-${randomUUID()}@example.com`, password: 'correct horse', name: 'Pos',
    });
    expect(signup.status).toBe(201);
    const u = await signUp(base);
    const writes: ApiResponse[] = [signup];
    writes.push(await u.call('PATCH', '/me', { name: 'Positioned' }));
    writes.push(await u.call('POST', '/calendars', { name: 'Positions' }));
    const created = await u.call('POST', '/events', { title: 'p', ...slot(), attendees: [{ email: c.email }] });
    writes.push(created);
    writes.push(await u.call('PATCH', `/events/${created.body.event.id}`, { title: 'p2' }));
    writes.push(await c.call('POST', `/events/${created.body.event.id}/rsvp`, { answer: 'yes' }, {
      'x-calendar-min-position': position(created),
    }));
    writes.push(await u.call('DELETE', `/events/${created.body.event.id}`));
    expect(writes.map((w) => w.status)).toEqual([201, 200, 201, 201, 200, 200, 204]);
    const positions = writes.map((w) => Number(position(w)));
    expect(positions).toEqual([...positions].sort((x, y) => x - y));
    expect(new Set(positions).size).toBe(positions.length);
  });

  it('a GET with the position of a write returns the write', async () => {
    const created = await c.call('POST', '/events', { title: 'read your write', ...slot() });
    expect(created.status).toBe(201);
    const p = position(created);
    const got = await c.call('GET', `/events/${created.body.event.id}`, undefined, { 'x-calendar-min-position': p });
    expect(got.status).toBe(200);
    expect(got.body.event).toEqual(created.body.event);

    const patched = await c.call('PATCH', `/events/${created.body.event.id}`, { title: 'read your update' });
    expect(patched.status).toBe(200);
    const listed = await eventsTitled(c, 'read your update', position(patched));
    expect(listed.map((e: { id: string }) => e.id)).toEqual([created.body.event.id]);

    const deleted = await c.call('DELETE', `/events/${created.body.event.id}`);
    const gone = await c.call('GET', `/events/${created.body.event.id}`, undefined, { 'x-calendar-min-position': position(deleted) });
    expect(gone.status).toBe(404);
  });

  it('a new user reads their own profile and calendars right after signup with the signup position', async () => {
    const res = await request(base, 'POST', '/auth/signup', {
      email: `fresh-${randomUUID()}@example.com`, password: 'correct horse', name: 'Fresh',
    });
    const headers = { authorization: `Bearer ${res.body.session.token}`, 'x-calendar-min-position': position(res) };
    const me = await request(base, 'GET', '/me', undefined, headers);
    expect(me.status).toBe(200);
    const calendars = await request(base, 'GET', '/calendars', undefined, headers);
    expect(calendars.body.calendars.map((x: { id: string }) => x.id)).toEqual([res.body.user.defaultCalendarId]);
  });

  it.each(['abc', '-1', '1.5', '', '12345678901234567890'])('a bad X-Calendar-Min-Position (%j) answers 400', async (value) => {
    const res = await c.call('GET', '/me', undefined, { 'x-calendar-min-position': value });
    expectEnvelope(res, 400, 'invalid_request');
  });
});
