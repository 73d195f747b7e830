/**
 * API keys over real HTTP: creation (the key shown once, stored only as a hash), listing, scope checks, revocation,
 * and the test environment (a test key never reads or changes live data, and the other way round).
 * Contract: api-spec.md sections 2 (API key), 4 (Keys and OAuth apps), 5, 7; addendum.md (token prefixes, errors).
 */
import { createHash } from 'node:crypto';
import { API_KEYS } from '../../write-api/api-keys/api-keys';
import { type ApiResponse, type Client, request, signUp, type TestService, useTestService } from '../support/service';

let svc: TestService;
let base: string;
useTestService((started) => {
  svc = started;
  base = started.base;
});

// ---- helpers -------------------------------------------------------------------------------------------------

const ALL_EVENT_SCOPES = ['events:read', 'events:create', 'events:update', 'events:delete'];
const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const withKey = (key: string) => (method: string, path: string, body?: unknown) => request(base, method, path, body, bearer(key));

function expectError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe('string');
}

function expectInvalid(res: ApiResponse, field: string): void {
  expectError(res, 400, 'invalid_request');
  const issues = res.body.error.details.issues as Array<{ path: string }>;
  expect(issues.some((i) => i.path.includes(field))).toBe(true);
}

async function createKey(c: Client, body: Record<string, unknown>): Promise<{ key: string; apiKey: Record<string, any> }> {
  const res = await c.call('POST', '/api-keys', { name: 'Integration', scopes: ['events:read'], ...body });
  expect(res.status).toBe(201);
  return res.body;
}

const event = (title: string, day = 1, extra: Record<string, unknown> = {}) => ({
  title, startsAt: `2032-03-${String(day).padStart(2, '0')}T10:00:00Z`, endsAt: `2032-03-${String(day).padStart(2, '0')}T11:00:00Z`, ...extra,
});
const RANGE = `from=${encodeURIComponent('2032-03-01T00:00:00Z')}&to=${encodeURIComponent('2032-04-01T00:00:00Z')}`;
const titles = (res: ApiResponse) => (res.body.events as Array<{ title: string }>).map((e) => e.title).sort();

// ---- create, list, delete ------------------------------------------------------------------------------------

describe('POST /api-keys', () => {
  it('answers 201 with the full key once (ck_live_…) and the record, which has no key', async () => {
    const c = await signUp(base);
    const res = await c.call('POST', '/api-keys', { name: 'Zapier', scopes: ['events:read', 'calendars:read'] });
    expect(res.status).toBe(201);
    expect(res.headers.get('cache-control')).toMatch(/no-store/);
    expect(res.body.key).toMatch(/^ck_live_[A-Za-z0-9_-]{43}$/);
    expect(res.body.apiKey).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/), name: 'Zapier', prefix: res.body.key.slice(0, 12),
      scopes: ['events:read', 'calendars:read'], environment: 'live', createdAt: expect.any(String), lastUsedAt: null,
    });
    expect(res.body.apiKey.prefix).toMatch(/^ck_live_.{4}$/);
    expect(JSON.stringify(res.body.apiKey)).not.toContain(res.body.key);
  });

  it('makes ck_test_ keys for environment test, and drops duplicate scopes', async () => {
    const c = await signUp(base);
    const { key, apiKey } = await createKey(c, { environment: 'test', scopes: ['events:read', 'events:read'] });
    expect(key).toMatch(/^ck_test_/);
    expect(apiKey).toMatchObject({ environment: 'test', prefix: key.slice(0, 12), scopes: ['events:read'] });
  });

  it('stores only a SHA-256 of the key', async () => {
    const c = await signUp(base);
    const { key, apiKey } = await createKey(c, {});
    const docs = await svc.service.context.store.collection(API_KEYS).find({ id: apiKey.id });
    expect(docs).toHaveLength(1);
    expect(docs[0]._id).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(docs)).not.toContain(key);
  });

  it.each([
    ['an unknown scope', { scopes: ['events:read', 'events:admin'] }, 'scopes'],
    ['no scopes', { scopes: [] }, 'scopes'],
    ['missing scopes', { scopes: undefined }, 'scopes'],
    ['a scope of the wrong type', { scopes: [42] }, 'scopes'],
    ['missing name', { name: undefined }, 'name'],
    ['an empty name', { name: '   ' }, 'name'],
    ['an unknown environment', { environment: 'production' }, 'environment'],
  ])('refuses %s with 400 invalid_request and creates nothing', async (_label, over, field) => {
    const c = await signUp(base);
    expectInvalid(await c.call('POST', '/api-keys', { name: 'Bad', scopes: ['events:read'], ...over }), field);
    expect((await c.call('GET', '/api-keys')).body.apiKeys).toEqual([]);
  });
});

describe('GET /api-keys', () => {
  it('lists the caller\'s keys with prefix, scopes, environment and times, never the key', async () => {
    const c = await signUp(base);
    const live = await createKey(c, { name: 'One', scopes: ['events:read'] });
    const test = await createKey(c, { name: 'Two', scopes: ['calendars:read', 'sync:read'], environment: 'test' });
    const res = await c.call('GET', '/api-keys');
    expect(res.status).toBe(200);
    expect(res.body.apiKeys).toEqual([live.apiKey, test.apiKey]);
    const text = JSON.stringify(res.body);
    for (const k of [live.key, test.key]) {
      expect(text).not.toContain(k);
      expect(text).not.toContain(k.slice(12, 30));
    }
  });

  it('records the last use (at most about once a minute)', async () => {
    const c = await signUp(base);
    const { key, apiKey } = await createKey(c, {});
    const before = Date.now();
    expect((await withKey(key)('GET', `/events?${RANGE}`)).status).toBe(200);
    const first = (await c.call('GET', '/api-keys')).body.apiKeys.find((k: { id: string }) => k.id === apiKey.id);
    expect(Date.parse(first.lastUsedAt)).toBeGreaterThanOrEqual(before - 1000);
    expect((await withKey(key)('GET', `/events?${RANGE}`)).status).toBe(200);
    const second = (await c.call('GET', '/api-keys')).body.apiKeys.find((k: { id: string }) => k.id === apiKey.id);
    expect(second.lastUsedAt).toBe(first.lastUsedAt);
  });

  it('shows only the caller\'s own keys', async () => {
    const a = await signUp(base);
    const b = await signUp(base);
    await createKey(a, { name: 'A key' });
    expect((await b.call('GET', '/api-keys')).body.apiKeys).toEqual([]);
  });
});

describe('DELETE /api-keys/{id}', () => {
  it('answers 204 and the key stops working at once; a second delete is 404', async () => {
    const c = await signUp(base);
    const { key, apiKey } = await createKey(c, {});
    expect((await withKey(key)('GET', `/events?${RANGE}`)).status).toBe(200);
    expect((await c.call('DELETE', `/api-keys/${apiKey.id}`)).status).toBe(204);
    expectError(await withKey(key)('GET', `/events?${RANGE}`), 401, 'unauthenticated');
    expect((await c.call('GET', '/api-keys')).body.apiKeys).toEqual([]);
    expectError(await c.call('DELETE', `/api-keys/${apiKey.id}`), 404, 'not_found');
  });

  it('a key removed from the store by another process stops here too (nothing is cached)', async () => {
    const c = await signUp(base);
    const { key } = await createKey(c, {});
    expect((await withKey(key)('GET', `/events?${RANGE}`)).status).toBe(200);
    await svc.service.context.store.collection(API_KEYS).delete(createHash('sha256').update(key).digest('hex'));
    expectError(await withKey(key)('GET', `/events?${RANGE}`), 401, 'unauthenticated');
  });

  it('another user\'s key id is 404 and the key keeps working', async () => {
    const a = await signUp(base);
    const b = await signUp(base);
    const { key, apiKey } = await createKey(a, {});
    expectError(await b.call('DELETE', `/api-keys/${apiKey.id}`), 404, 'not_found');
    expectError(await b.call('DELETE', '/api-keys/00000000-0000-4000-8000-000000000000'), 404, 'not_found');
    expect((await withKey(key)('GET', `/events?${RANGE}`)).status).toBe(200);
  });

  it('refuses a malformed id with 400', async () => {
    const c = await signUp(base);
    expectInvalid(await c.call('DELETE', '/api-keys/not-a-uuid'), 'id');
  });
});

// ---- what a key may do ---------------------------------------------------------------------------------------

describe('a key acts within its scopes', () => {
  it('an unknown or malformed ck_ key is 401', async () => {
    expectError(await withKey('ck_live_thisisnotakey')('GET', `/events?${RANGE}`), 401, 'unauthenticated');
    expectError(await withKey('ck_test_')('GET', `/events?${RANGE}`), 401, 'unauthenticated');
  });

  it('events:read can read but not create, change or delete (403 insufficient_scope with details.required)', async () => {
    const c = await signUp(base);
    const created = await c.call('POST', '/events', event('Mine'));
    const id = created.body.event.id;
    const { key } = await createKey(c, { scopes: ['events:read'] });
    const call = withKey(key);
    expect((await call('GET', `/events/${id}`)).status).toBe(200);
    expect(titles(await call('GET', `/events?${RANGE}`))).toEqual(['Mine']);
    for (const [method, path, body, required] of [
      ['POST', '/events', event('New'), 'events:create'],
      ['PATCH', `/events/${id}`, { title: 'Changed' }, 'events:update'],
      ['DELETE', `/events/${id}`, undefined, 'events:delete'],
      ['GET', '/calendars', undefined, 'calendars:read'],
      ['GET', '/sync?since=2020-01-01T00:00:00Z', undefined, 'sync:read'],
    ] as const) {
      const res = await call(method, path, body);
      expectError(res, 403, 'insufficient_scope');
      expect(res.body.error.details).toEqual({ required });
    }
    expect((await c.call('GET', `/events/${id}`)).body.event.title).toBe('Mine');
  });

  it('a key with the scope may write', async () => {
    const c = await signUp(base);
    const { key } = await createKey(c, { scopes: ALL_EVENT_SCOPES });
    const res = await withKey(key)('POST', '/events', event('By key'));
    expect(res.status).toBe(201);
    expect(titles(await c.call('GET', `/events?${RANGE}`))).toEqual(['By key']);
  });

  it.each([
    ['GET', '/me'], ['PATCH', '/me'], ['GET', '/spaces'], ['POST', '/spaces'],
    ['GET', '/api-keys'], ['POST', '/api-keys'], ['DELETE', '/api-keys/00000000-0000-4000-8000-000000000000'],
    ['GET', '/oauth/applications'], ['POST', '/oauth/applications'], ['DELETE', '/oauth/applications/00000000-0000-4000-8000-000000000000'],
    ['GET', '/oauth/authorize'], ['POST', '/oauth/authorize'],
  ])('a key with every scope gets 403 session_required on %s %s', async (method, path) => {
    const c = await signUp(base);
    const { key } = await createKey(c, { scopes: ['events:read', 'calendars:read', 'calendars:write', 'spaces:read', 'sync:read'] });
    expectError(await withKey(key)(method, path, method === 'GET' || method === 'DELETE' ? undefined : {}), 403, 'session_required');
  });

  it('a key cannot create another key (even a test key making a live one)', async () => {
    const c = await signUp(base);
    const { key } = await createKey(c, { environment: 'test' });
    expectError(await withKey(key)('POST', '/api-keys', { name: 'Escalate', scopes: ['events:read'] }), 403, 'session_required');
    expect((await c.call('GET', '/api-keys')).body.apiKeys).toHaveLength(1);
  });
});

// ---- test and live environments ------------------------------------------------------------------------------

describe('test environment', () => {
  const SCOPES = [...ALL_EVENT_SCOPES, 'events:write', 'calendars:read', 'calendars:write', 'spaces:read', 'sync:read'];
  let user: Client;
  let liveKey: string;
  let testKey: string;
  let liveEvent: Record<string, any>;
  let testEvent: Record<string, any>;
  let liveCalendarId: string;

  beforeAll(async () => {
    user = await signUp(base);
    liveCalendarId = (await user.call('GET', '/me')).body.user.defaultCalendarId;
    liveKey = (await createKey(user, { scopes: SCOPES })).key;
    testKey = (await createKey(user, { scopes: SCOPES, environment: 'test' })).key;
    liveEvent = (await user.call('POST', '/events', event('Live meeting', 2))).body.event;
    const created = await withKey(testKey)('POST', '/events', event('Test meeting', 2));
    expect(created.status).toBe(201);
    testEvent = created.body.event;
  });

  it('a test key writes to a calendar of its own test account, not the live default calendar', async () => {
    expect(testEvent.calendarId).not.toBe(liveCalendarId);
    const calendars = await withKey(testKey)('GET', '/calendars');
    expect(calendars.status).toBe(200);
    expect(calendars.body.calendars.map((c: { id: string }) => c.id)).toEqual([testEvent.calendarId]);
  });

  it('a test key sees only test events, a live key and the session only live ones', async () => {
    expect(titles(await withKey(testKey)('GET', `/events?${RANGE}`))).toEqual(['Test meeting']);
    expect(titles(await withKey(liveKey)('GET', `/events?${RANGE}`))).toEqual(['Live meeting']);
    expect(titles(await user.call('GET', `/events?${RANGE}`))).toEqual(['Live meeting']);
  });

  it('a test key can neither read nor change a live event (404), and the live event stays as it was', async () => {
    const call = withKey(testKey);
    expectError(await call('GET', `/events/${liveEvent.id}`), 404, 'not_found');
    expectError(await call('PATCH', `/events/${liveEvent.id}`, { title: 'Hijacked' }), 404, 'not_found');
    expectError(await call('DELETE', `/events/${liveEvent.id}`), 404, 'not_found');
    expectError(await call('POST', '/events', event('Into live', 3, { calendarId: liveCalendarId })), 404, 'not_found');
    const now = await user.call('GET', `/events/${liveEvent.id}`);
    expect(now.status).toBe(200);
    expect(now.body.event).toEqual(liveEvent);
    expect(titles(await user.call('GET', `/events?${RANGE}`))).toEqual(['Live meeting']);
  });

  it('a live key (and the session) can neither read nor change a test event', async () => {
    for (const call of [withKey(liveKey), user.call.bind(user)]) {
      expectError(await call('GET', `/events/${testEvent.id}`), 404, 'not_found');
      expectError(await call('PATCH', `/events/${testEvent.id}`, { title: 'Hijacked' }), 404, 'not_found');
      expectError(await call('DELETE', `/events/${testEvent.id}`), 404, 'not_found');
      expectError(await call('POST', '/events', event('Into test', 4, { calendarId: testEvent.calendarId })), 404, 'not_found');
    }
    const now = await withKey(testKey)('GET', `/events/${testEvent.id}`);
    expect(now.body.event).toEqual(testEvent);
  });

  it('sync and bootstrap with a test key show the test account only', async () => {
    const sync = await withKey(testKey)('GET', '/sync?since=2000-01-01T00:00:00Z');
    expect(sync.status).toBe(200);
    const text = JSON.stringify(sync.body);
    expect(text).toContain(testEvent.id);
    expect(text).not.toContain(liveEvent.id);
    const boot = await withKey(testKey)('GET', '/me/bootstrap');
    expect(boot.status).toBe(200);
    expect(boot.body.user.id).not.toBe(user.userId);
    expect(boot.body.spaces.map((s: { ownerId: string }) => s.ownerId)).toEqual([boot.body.user.id]);
    expect(JSON.stringify(boot.body)).not.toContain(liveCalendarId);
  });

  it('every test key of a user shares one test account; other users have their own', async () => {
    const second = (await createKey(user, { scopes: SCOPES, environment: 'test' })).key;
    expect(titles(await withKey(second)('GET', `/events?${RANGE}`))).toEqual(['Test meeting']);
    const other = await signUp(base);
    const otherKey = (await createKey(other, { scopes: SCOPES, environment: 'test' })).key;
    expect(titles(await withKey(otherKey)('GET', `/events?${RANGE}`))).toEqual([]);
    expectError(await withKey(otherKey)('GET', `/events/${testEvent.id}`), 404, 'not_found');
  });

  it('invitations never cross environments: a test event reaches no live inbox, a live event no test inbox', async () => {
    const other = await signUp(base);
    const otherTestKey = (await createKey(other, { scopes: SCOPES, environment: 'test' })).key;
    const otherTestEmail = (await withKey(otherTestKey)('GET', '/me/bootstrap')).body.user.email as string;
    const fromTest = await withKey(testKey)('POST', '/events', event('Test invite', 5, { attendees: [{ email: other.email }, { email: user.email }] }));
    expect(fromTest.status).toBe(201);
    const fromLive = await user.call('POST', '/events', event('Live invite', 6, { attendees: [{ email: otherTestEmail }] }));
    expect(fromLive.status).toBe(201);
    for (const c of [other, user]) {
      expect((await c.call('GET', '/inbox')).body.items).toEqual([]);
      expectError(await c.call('GET', `/events/${fromTest.body.event.id}`), 404, 'not_found');
    }
    expect((await withKey(otherTestKey)('GET', '/inbox')).body.items).toEqual([]);
    expectError(await withKey(otherTestKey)('GET', `/events/${fromLive.body.event.id}`), 404, 'not_found');

    // Attendees may answer by email; across environments that is refused too, and nothing changes.
    expectError(await user.call('POST', `/events/${fromTest.body.event.id}/rsvp`, { answer: 'yes' }), 404, 'not_found');
    expectError(await other.call('POST', `/events/${fromTest.body.event.id}/rsvp`, { answer: 'yes' }), 404, 'not_found');
    expectError(await withKey(otherTestKey)('POST', `/events/${fromLive.body.event.id}/rsvp`, { answer: 'yes' }), 404, 'not_found');
    expect((await withKey(testKey)('GET', `/events/${fromTest.body.event.id}`)).body.event).toEqual(fromTest.body.event);
    expect((await user.call('GET', `/events/${fromLive.body.event.id}`)).body.event).toEqual(fromLive.body.event);

    // Inside the test environment invitations work as usual.
    const within = await withKey(testKey)('POST', '/events', event('Test to test', 7, { attendees: [{ email: otherTestEmail }] }));
    expect((await withKey(otherTestKey)('GET', '/inbox')).body.items.map((i: { event: { id: string } }) => i.event.id)).toEqual([within.body.event.id]);
    expect((await withKey(otherTestKey)('POST', `/events/${within.body.event.id}/rsvp`, { answer: 'yes' })).status).toBe(200);
  });

  it('nobody can sign in to the test account', async () => {
    const email = (await withKey(testKey)('GET', '/me/bootstrap')).body.user.email as string;
    for (const password of ['', 'none', 'correct horse']) {
      const res = await request(base, 'POST', '/auth/login', { email, password });
      expect(res.status).toBe(401);
    }
    expectError(await request(base, 'POST', '/auth/signup', { email, password: 'correct horse', name: 'Squatter' }), 409, 'email_taken');
  });

  it('a revoked test key stops at once', async () => {
    const { key, apiKey } = await createKey(user, { scopes: SCOPES, environment: 'test' });
    expect((await withKey(key)('GET', `/events?${RANGE}`)).status).toBe(200);
    expect((await user.call('DELETE', `/api-keys/${apiKey.id}`)).status).toBe(204);
    expectError(await withKey(key)('GET', `/events?${RANGE}`), 401, 'unauthenticated');
  });
});
