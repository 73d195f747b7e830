/**
 * Meeting types over real HTTP: create with defaults, list, PATCH with the id in the body, DELETE ?id= (204, or 409
 * meeting_type_in_use once booked), unique slugs per owner, validation, scopes and two-user isolation.
 */
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { ALL_DAY_EVERY_DAY, booked, hostWithType, slotsOf } from '../support/bookings';
import { request, signUp, useTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
useTestService((s) => (svc = s));

const head = () => svc.service.context.events.headPosition();

async function create(c: Client, body: Record<string, unknown> = {}) {
  const res = await c.call('POST', '/meeting-types', { name: 'Intro call', slug: `intro-${Math.random().toString(36).slice(2, 8)}`, durationMinutes: 30, ...body });
  expect(res.status).toBe(201);
  return res.body.meetingType as Record<string, any>;
}

async function apiKey(c: Client, scopes: string[]) {
  const res = await c.call('POST', '/api-keys', { name: 'k', scopes });
  expect(res.status).toBe(201);
  return (method: string, path: string, body?: unknown) => request(svc.base, method, path, body, { authorization: `Bearer ${res.body.key}` });
}

describe('POST /meeting-types', () => {
  it('creates a type with the defaults: enabled, no buffers or notice, Monday to Friday 09:00-17:00, one length, one seat, no hosts', async () => {
    const c = await signUp(svc.base);
    const res = await c.call('POST', '/meeting-types', { name: 'Intro call', slug: 'intro-call', durationMinutes: 30 });
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBe('"v1"');
    expect(res.body.meetingType).toEqual({
      id: expect.any(String), ownerId: c.userId, name: 'Intro call', slug: 'intro-call', durationMinutes: 30, description: null,
      location: null, enabled: true, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minimumNoticeMinutes: 0,
      hours: [1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 540, endMinute: 1020 })), calendarId: null,
      durations: [30], dateOverrides: [], limits: { perDay: null, perWeek: null }, seats: 1, requiresConfirmation: false, hosts: [], assignment: null,
      createdAt: expect.any(String), updatedAt: expect.any(String), deletedAt: null, version: 1,
    });
  });

  it('keeps every field given, and a calendar of the owner\'s', async () => {
    const c = await signUp(svc.base);
    const calendarId = (await c.call('GET', '/me')).body.user.defaultCalendarId;
    const type = await create(c, {
      description: 'Half an hour', location: 'Video', enabled: false, bufferBeforeMinutes: 10, bufferAfterMinutes: 15,
      minimumNoticeMinutes: 120, hours: [{ day: 6, startMinute: 600, endMinute: 720 }], calendarId,
    });
    expect(type).toMatchObject({
      description: 'Half an hour', location: 'Video', enabled: false, bufferBeforeMinutes: 10, bufferAfterMinutes: 15,
      minimumNoticeMinutes: 120, hours: [{ day: 6, startMinute: 600, endMinute: 720 }], calendarId,
    });
  });

  it('refuses a slug its owner already uses (409 slug_taken), but another person may use it', async () => {
    const a = await signUp(svc.base);
    const b = await signUp(svc.base);
    await create(a, { slug: 'consult' });
    const before = await head();
    expectError(await a.call('POST', '/meeting-types', { name: 'Again', slug: 'consult', durationMinutes: 15 }), 409, 'slug_taken');
    expect(await head()).toBe(before);
    await create(b, { slug: 'consult' });
  });

  it('refuses another person\'s calendar as 404', async () => {
    const a = await signUp(svc.base);
    const b = await signUp(svc.base);
    const theirs = (await b.call('GET', '/me')).body.user.defaultCalendarId;
    expectNotFound(await a.call('POST', '/meeting-types', { name: 'X', slug: 'x', durationMinutes: 30, calendarId: theirs }));
  });

  it.each([
    [{ slug: 'a', durationMinutes: 30 }, 'body.name'],
    [{ name: 'X', durationMinutes: 30 }, 'body.slug'],
    [{ name: 'X', slug: 'Has Spaces', durationMinutes: 30 }, 'body.slug'],
    [{ name: 'X', slug: '-dash', durationMinutes: 30 }, 'body.slug'],
    [{ name: 'X', slug: 'x'.repeat(65), durationMinutes: 30 }, 'body.slug'],
    [{ name: 'X', slug: 'x' }, 'body.durationMinutes'],
    [{ name: 'X', slug: 'x', durationMinutes: 4 }, 'body.durationMinutes'],
    [{ name: 'X', slug: 'x', durationMinutes: 721 }, 'body.durationMinutes'],
    [{ name: 'X', slug: 'x', durationMinutes: 30.5 }, 'body.durationMinutes'],
    [{ name: 'X', slug: 'x', durationMinutes: 30, bufferBeforeMinutes: -1 }, 'body.bufferBeforeMinutes'],
    [{ name: 'X', slug: 'x', durationMinutes: 30, bufferAfterMinutes: 241 }, 'body.bufferAfterMinutes'],
    [{ name: 'X', slug: 'x', durationMinutes: 30, minimumNoticeMinutes: 43_201 }, 'body.minimumNoticeMinutes'],
    [{ name: 'X', slug: 'x', durationMinutes: 30, hours: [] }, 'body.hours'],
    [{ name: 'X', slug: 'x', durationMinutes: 30, hours: [{ day: 0, startMinute: 540, endMinute: 600 }] }, 'body.hours.0.day'],
    [{ name: 'X', slug: 'x', durationMinutes: 30, hours: [{ day: 8, startMinute: 540, endMinute: 600 }] }, 'body.hours.0.day'],
    [{ name: 'X', slug: 'x', durationMinutes: 30, hours: [{ day: 1, startMinute: 600, endMinute: 540 }] }, 'body.hours.0.endMinute'],
    [{ name: 'X', slug: 'x', durationMinutes: 30, hours: [{ day: 1, startMinute: 0, endMinute: 1441 }] }, 'body.hours.0.endMinute'],
    [{ name: 'X', slug: 'x', durationMinutes: 30, enabled: 'yes' }, 'body.enabled'],
    [{ name: 'X', slug: 'x', durationMinutes: 30, calendarId: 'nope' }, 'body.calendarId'],
    [{ name: 'X', slug: 'x', durationMinutes: 30, colour: 'red' }, 'body.colour'],
    [{ name: 'x'.repeat(201), slug: 'x', durationMinutes: 30 }, 'body.name'],
  ])('refuses %j (400 naming %s) and writes nothing', async (body, path) => {
    const c = await signUp(svc.base);
    const before = await head();
    expectInvalid(await c.call('POST', '/meeting-types', body), path);
    expect(await head()).toBe(before);
  });
});

describe('GET and PATCH /meeting-types', () => {
  it('lists the caller\'s types oldest first, paged', async () => {
    const c = await signUp(svc.base);
    const made = [await create(c, { name: 'One' }), await create(c, { name: 'Two' }), await create(c, { name: 'Three' })];
    const first = await c.call('GET', '/meeting-types?limit=2');
    expect(first.status).toBe(200);
    expect(first.body.meetingTypes.map((t: { id: string }) => t.id)).toEqual([made[0].id, made[1].id]);
    const rest = await c.call('GET', `/meeting-types?limit=2&pageToken=${first.body.nextPageToken}`);
    expect(rest.body).toEqual({ meetingTypes: [made[2]], nextPageToken: null });
  });

  it('changes the fields sent, keeps the others, honours If-Match', async () => {
    const c = await signUp(svc.base);
    const type = await create(c, { description: 'Keep me' });
    const res = await c.call('PATCH', '/meeting-types', { id: type.id, name: 'Renamed', enabled: false, durationMinutes: 45 }, { 'If-Match': '"v1"' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe('"v2"');
    expect(res.body.meetingType).toMatchObject({ name: 'Renamed', enabled: false, durationMinutes: 45, description: 'Keep me', version: 2 });
    expectError(await c.call('PATCH', '/meeting-types', { id: type.id, name: 'Stale' }, { 'If-Match': '"v1"' }), 412, 'version_mismatch');
  });

  it('refuses a slug taken by another of the owner\'s types', async () => {
    const c = await signUp(svc.base);
    await create(c, { slug: 'taken' });
    const type = await create(c, { hours: [{ day: 1, startMinute: 540, endMinute: 600 }] });
    const before = await head();
    expectError(await c.call('PATCH', '/meeting-types', { id: type.id, slug: 'taken' }), 409, 'slug_taken');
    expectInvalid(await c.call('PATCH', '/meeting-types', { name: 'No id' }), 'body.id');
    expect(await head()).toBe(before);
    expect((await c.call('PATCH', '/meeting-types', { id: type.id, slug: type.slug, name: 'Same slug' })).status).toBe(200);
  });

  it('keeps people apart: another person\'s type is 404 to PATCH and DELETE, and absent from the list', async () => {
    const a = await signUp(svc.base);
    const b = await signUp(svc.base);
    const type = await create(a);
    expectNotFound(await b.call('PATCH', '/meeting-types', { id: type.id, name: 'Mine now' }));
    expectNotFound(await b.call('DELETE', `/meeting-types?id=${type.id}`));
    expect((await b.call('GET', '/meeting-types')).body.meetingTypes).toEqual([]);
    expect((await a.call('GET', '/meeting-types')).body.meetingTypes).toHaveLength(1);
  });
});

describe('DELETE /meeting-types?id=', () => {
  it('deletes an unbooked type (204); its page is gone and its slug free again', async () => {
    const host = await hostWithType(svc.base);
    const res = await host.client.call('DELETE', `/meeting-types?id=${host.type.id}`);
    expect(res.status).toBe(204);
    expect((await host.client.call('GET', '/meeting-types')).body.meetingTypes).toEqual([]);
    expectNotFound(await request(svc.base, 'GET', host.page));
    await create(host.client, { slug: host.type.slug });
    expectNotFound(await host.client.call('DELETE', `/meeting-types?id=${host.type.id}`));
  });

  it('refuses a booked type with 409 meeting_type_in_use, even after the booking was cancelled; switching it off works', async () => {
    const host = await hostWithType(svc.base);
    const [slot] = await slotsOf(svc.base, host, '?days=2');
    const { booking } = await booked(svc.base, host, slot.startsAt);
    expect((await host.client.call('POST', `/bookings/${booking.id}/cancel`)).status).toBe(200);
    const before = await head();
    expectError(await host.client.call('DELETE', `/meeting-types?id=${host.type.id}`), 409, 'meeting_type_in_use');
    expect(await head()).toBe(before);
    const off = await host.client.call('PATCH', '/meeting-types', { id: host.type.id, enabled: false });
    expect(off.body.meetingType.enabled).toBe(false);
    expectNotFound(await request(svc.base, 'GET', host.page));
  });

  it('needs the id as a uuid (400)', async () => {
    const c = await signUp(svc.base);
    expectInvalid(await c.call('DELETE', '/meeting-types'), 'query.id');
    expectInvalid(await c.call('DELETE', '/meeting-types?id=12'), 'query.id');
  });
});

describe('scopes', () => {
  it('bookings:read lists but cannot write; bookings:write writes', async () => {
    const c = await signUp(svc.base);
    const reader = await apiKey(c, ['bookings:read']);
    const writer = await apiKey(c, ['bookings:write']);
    expect((await reader('GET', '/meeting-types')).status).toBe(200);
    expectError(await reader('POST', '/meeting-types', { name: 'X', slug: 'x', durationMinutes: 30, hours: ALL_DAY_EVERY_DAY }), 403, 'insufficient_scope');
    expect((await writer('POST', '/meeting-types', { name: 'X', slug: 'x', durationMinutes: 30 })).status).toBe(201);
    expectError(await writer('GET', '/meeting-types'), 403, 'insufficient_scope');
    expectError(await request(svc.base, 'GET', '/meeting-types'), 401, 'unauthenticated');
  });
});
