/**
 * Events over real HTTP: create/read/list/update/cancel, conflicts (time, resource, recurring), concurrency,
 * optimistic concurrency with ETag/If-Match, validation. Contract: api-spec.md "Events", addendum.md "Events".
 */
import { randomUUID } from 'node:crypto';
import { type ApiResponse, type Client, signUp, useTestService } from '../support/service';

let base: string;
useTestService((started) => (base = started.base));

// ---- helpers -------------------------------------------------------------------------------------------------

/** An ISO instant on 2031-03-<day> (a quiet month far from DST changes), hour and minute in UTC. */
const t = (day: number, hour: number, minute = 0) =>
  new Date(Date.UTC(2031, 2, day, hour, minute)).toISOString();

/** Midnight UTC `days` days from today (for recurring conflict checks, which look 366 days ahead of now). */
const fromToday = (days: number, hour = 0, minute = 0) => {
  const d = new Date();
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate() + days, hour, minute)).toISOString();
};

const create = (c: Client, body: Record<string, unknown>, headers?: Record<string, string>) =>
  c.call('POST', '/events', { title: 'Event', ...body }, headers);

async function created(c: Client, body: Record<string, unknown>) {
  const res = await create(c, body);
  expect(res.status).toBe(201);
  return res.body.event as Record<string, any>;
}

const list = (c: Client, from: string, to: string, extra = '') =>
  c.call('GET', `/events?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}${extra}`);

async function listIds(c: Client, from: string, to: string, extra = ''): Promise<string[]> {
  const res = await list(c, from, to, extra);
  expect(res.status).toBe(200);
  return res.body.events.map((e: { id: string }) => e.id);
}

function expectError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe('string');
}

function expectInvalid(res: ApiResponse): void {
  expectError(res, 400, 'invalid_request');
  expect(Array.isArray(res.body.error.details?.issues)).toBe(true);
  expect(res.body.error.details.issues.length).toBeGreaterThan(0);
}

/** 409 with details.conflicts = [{id, startsAt, endsAt}] naming the given event. */
function expectConflict(res: ApiResponse, code: 'time_conflict' | 'resource_conflict', withId: string): void {
  expectError(res, 409, code);
  const conflicts = res.body.error.details?.conflicts;
  expect(Array.isArray(conflicts)).toBe(true);
  for (const c of conflicts) {
    expect(Object.keys(c).sort()).toEqual(['endsAt', 'id', 'startsAt']);
    expect(Number.isNaN(Date.parse(c.startsAt))).toBe(false);
    expect(Number.isNaN(Date.parse(c.endsAt))).toBe(false);
  }
  expect(conflicts.map((c: { id: string }) => c.id)).toContain(withId);
}

const sameInstant = (a: string, b: string) => expect(Date.parse(a)).toBe(Date.parse(b));

// ---- create / read -------------------------------------------------------------------------------------------

describe('POST /events and GET /events/{id}', () => {
  it('creates with defaults: default calendar, profile time zone, busy, meeting', async () => {
    const c = await signUp(base, { timeZone: 'Europe/Paris' });
    const me = (await c.call('GET', '/me')).body.user;
    const res = await create(c, { title: 'Kick-off', startsAt: '2031-03-03T10:00:00+01:00', endsAt: '2031-03-03T11:00:00+01:00' });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['event']);
    const e = res.body.event;
    expect(e).toMatchObject({
      title: 'Kick-off',
      calendarId: me.defaultCalendarId,
      spaceId: me.personalSpaceId,
      timeZone: 'Europe/Paris',
      busy: true,
      kind: 'meeting',
      allDay: false,
      recurrenceRule: null,
      description: null,
      location: null,
      meetingUrl: null,
    });
    expect(e.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(e.startsAt.endsWith('Z')).toBe(true);
    sameInstant(e.startsAt, '2031-03-03T09:00:00Z');
    sameInstant(e.endsAt, '2031-03-03T10:00:00Z');
    expect(res.headers.get('etag')).toMatch(/^(W\/)?"[^"]+"$/);
    expect(res.headers.get('x-calendar-position')).toMatch(/^\d+$/);
  });

  it('takes the default time zone from the profile as it is now', async () => {
    const c = await signUp(base, { timeZone: 'Europe/Paris' });
    expect((await c.call('PATCH', '/me', { timeZone: 'Australia/Sydney' })).status).toBe(200);
    const e = await created(c, { startsAt: t(3, 20), endsAt: t(3, 21) });
    expect(e.timeZone).toBe('Australia/Sydney');
  });

  it('keeps the fields it was given', async () => {
    const c = await signUp(base);
    const e = await created(c, {
      title: 'Dentist', startsAt: t(4, 14), endsAt: t(4, 15), timeZone: 'America/Denver', busy: false, kind: 'appointment',
      description: 'Check-up', location: 'Main St 1', meetingUrl: 'https://meet.example.com/abc', resources: ['room:blue'],
    });
    expect(e).toMatchObject({
      title: 'Dentist', timeZone: 'America/Denver', busy: false, kind: 'appointment', description: 'Check-up',
      location: 'Main St 1', meetingUrl: 'https://meet.example.com/abc', resources: ['room:blue'],
    });
  });

  it('GET /events/{id} returns the event with the same ETag', async () => {
    const c = await signUp(base);
    const res = await create(c, { title: 'Read me', startsAt: t(5, 9), endsAt: t(5, 10) });
    const got = await c.call('GET', `/events/${res.body.event.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toEqual({ event: res.body.event });
    expect(got.headers.get('etag')).toBe(res.headers.get('etag'));
  });

  it('answers 404 not_found for an unknown uuid (GET, PATCH, DELETE) and 400 for a non-uuid id', async () => {
    const c = await signUp(base);
    const id = randomUUID();
    expectError(await c.call('GET', `/events/${id}`), 404, 'not_found');
    expectError(await c.call('PATCH', `/events/${id}`, { title: 'x' }), 404, 'not_found');
    expectError(await c.call('DELETE', `/events/${id}`), 404, 'not_found');
    expectInvalid(await c.call('GET', '/events/not-a-uuid'));
    expectInvalid(await c.call('PATCH', '/events/not-a-uuid', { title: 'x' }));
    expectInvalid(await c.call('DELETE', '/events/not-a-uuid'));
  });

  it.each([
    ['endsAt equal to startsAt', { startsAt: t(6, 10), endsAt: t(6, 10) }],
    ['endsAt before startsAt', { startsAt: t(6, 10), endsAt: t(6, 9) }],
    ['no title', { title: undefined, startsAt: t(6, 10), endsAt: t(6, 11) }],
    ['a startsAt that is not a date-time', { startsAt: 'tomorrow', endsAt: t(6, 11) }],
    ['an unknown kind', { kind: 'party', startsAt: t(6, 10), endsAt: t(6, 11) }],
    ['an unparseable recurrenceRule', { recurrenceRule: 'every other tuesday', startsAt: t(6, 10), endsAt: t(6, 11) }],
    ['an unknown FREQ', { recurrenceRule: 'FREQ=SOMETIMES', startsAt: t(6, 10), endsAt: t(6, 11) }],
    ['a recurrenceRule with a bad BYDAY', { recurrenceRule: 'FREQ=WEEKLY;BYDAY=XX', startsAt: t(6, 10), endsAt: t(6, 11) }],
    ['a MINUTELY recurrenceRule', { recurrenceRule: 'FREQ=MINUTELY', startsAt: t(6, 10), endsAt: t(6, 11) }],
    ['a recurrenceRule carrying DTSTART', { recurrenceRule: 'DTSTART:20310306T100000Z\nRRULE:FREQ=DAILY', startsAt: t(6, 10), endsAt: t(6, 11) }],
    ['an attendee without a valid email', { attendees: [{ email: 'nope' }], startsAt: t(6, 10), endsAt: t(6, 11) }],
    ['an attendee whose email has 65 characters before the @', { attendees: [{ email: `${'a'.repeat(65)}@example.com` }], startsAt: t(6, 10), endsAt: t(6, 11) }],
  ])('refuses %s with 400 invalid_request and creates nothing', async (_label, body) => {
    const c = await signUp(base);
    expectInvalid(await create(c, body));
    expect(await listIds(c, t(1, 0), t(20, 0))).toEqual([]);
  });

  it('answers 404 for an unknown calendarId', async () => {
    const c = await signUp(base);
    expectError(await create(c, { calendarId: randomUUID(), startsAt: t(6, 10), endsAt: t(6, 11) }), 404, 'not_found');
    expect(await listIds(c, t(1, 0), t(20, 0))).toEqual([]);
  });
});

// ---- list ----------------------------------------------------------------------------------------------------

describe('GET /events', () => {
  it('lists the events overlapping [from, to), sorted by start', async () => {
    const c = await signUp(base);
    const ten = await created(c, { title: '10', startsAt: t(10, 10), endsAt: t(10, 11) });
    const eight = await created(c, { title: '8', startsAt: t(10, 8), endsAt: t(10, 9) });
    const noon = await created(c, { title: '12', startsAt: t(10, 12), endsAt: t(10, 13) });
    const before = await created(c, { title: 'ends at from', startsAt: t(9, 23), endsAt: t(10, 0) });
    const atTo = await created(c, { title: 'starts at to', startsAt: t(11, 0), endsAt: t(11, 1) });
    const across = await created(c, { title: 'across from', startsAt: t(9, 22, 30), endsAt: t(10, 0, 30), busy: false });

    const res = await list(c, t(10, 0), t(11, 0));
    expect(res.status).toBe(200);
    const ids = res.body.events.map((e: { id: string }) => e.id);
    expect(ids).toEqual([across.id, eight.id, ten.id, noon.id]);
    expect(ids).not.toContain(before.id);
    expect(ids).not.toContain(atTo.id);
    const starts = res.body.events.map((e: { startsAt: string }) => Date.parse(e.startsAt));
    expect(starts).toEqual([...starts].sort((a, b) => a - b));
    // A list item is the event without its (series') exception list.
    const { exceptions, ...listed } = eight;
    expect(exceptions).toEqual([]);
    expect(res.body.events[1]).toEqual({ ...listed, seriesId: null, occurrenceStartsAt: null });
  });

  it('answers a JSON body of the length it announces in bytes, the same again from its cache, and HEAD without a body', async () => {
    const c = await signUp(base);
    await created(c, { title: 'Café ☕ with Zoë', startsAt: t(12, 9), endsAt: t(12, 10) });
    const url = `${base}/events?from=${encodeURIComponent(t(12, 0))}&to=${encodeURIComponent(t(13, 0))}`;
    const headers = { authorization: `Bearer ${c.token}` };
    const answers: Buffer[] = [];
    for (let i = 0; i < 2; i++) {
      const get = await fetch(url, { headers });
      const bytes = Buffer.from(await get.arrayBuffer());
      expect(get.status).toBe(200);
      expect(get.headers.get('content-type')).toBe('application/json; charset=utf-8');
      expect(Number(get.headers.get('content-length'))).toBe(bytes.length);
      answers.push(bytes);
    }
    expect(answers[1].equals(answers[0])).toBe(true);
    expect(JSON.parse(answers[0].toString('utf8')).events.map((e: { title: string }) => e.title)).toEqual(['Café ☕ with Zoë']);
    const head = await fetch(url, { method: 'HEAD', headers });
    expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([200, String(answers[0].length), 0]);
  });

  it('filters by Space with the repeatable `space` parameter', async () => {
    const c = await signUp(base);
    const me = (await c.call('GET', '/me')).body.user;
    const shared = await c.call('POST', '/spaces', { name: 'Team' });
    expect(shared.status).toBe(201);
    const personal = await created(c, { title: 'mine', startsAt: t(12, 9), endsAt: t(12, 10) });
    const team = await created(c, { title: 'team', calendarId: shared.body.calendar.id, startsAt: t(12, 11), endsAt: t(12, 12) });

    expect(await listIds(c, t(12, 0), t(13, 0))).toEqual([personal.id, team.id]);
    expect(await listIds(c, t(12, 0), t(13, 0), `&space=${me.personalSpaceId}`)).toEqual([personal.id]);
    expect(await listIds(c, t(12, 0), t(13, 0), `&space=${shared.body.space.id}`)).toEqual([team.id]);
    expect(await listIds(c, t(12, 0), t(13, 0), `&space=${me.personalSpaceId}&space=${shared.body.space.id}`)).toEqual([personal.id, team.id]);
    expect(await listIds(c, t(12, 0), t(13, 0), `&space=${randomUUID()}`)).toEqual([]);
    expect(team.spaceId).toBe(shared.body.space.id);
  });

  it.each([
    ['no from', `?to=${encodeURIComponent(t(2, 0))}`],
    ['no to', `?from=${encodeURIComponent(t(1, 0))}`],
    ['neither', ''],
    ['a from that is not a date-time', `?from=yesterday&to=${encodeURIComponent(t(2, 0))}`],
    ['a to that is not a date-time', `?from=${encodeURIComponent(t(1, 0))}&to=2031-13-45`],
    ['to before from', `?from=${encodeURIComponent(t(2, 0))}&to=${encodeURIComponent(t(1, 0))}`],
    ['a space that is not a uuid', `?from=${encodeURIComponent(t(1, 0))}&to=${encodeURIComponent(t(2, 0))}&space=personal`],
  ])('answers 400 invalid_request for %s', async (_label, query) => {
    const c = await signUp(base);
    expectInvalid(await c.call('GET', `/events${query}`));
  });
});

// ---- update / delete -----------------------------------------------------------------------------------------

describe('PATCH and DELETE /events/{id}', () => {
  it('PATCH updates only the given fields and changes the ETag', async () => {
    const c = await signUp(base);
    const res = await create(c, { title: 'Old', location: 'Room 1', startsAt: t(14, 9), endsAt: t(14, 10) });
    const e = res.body.event;
    const patched = await c.call('PATCH', `/events/${e.id}`, { title: 'New', description: 'Agenda' });
    expect(patched.status).toBe(200);
    expect(patched.body.event).toMatchObject({
      id: e.id, title: 'New', description: 'Agenda', location: 'Room 1', startsAt: e.startsAt, endsAt: e.endsAt,
      calendarId: e.calendarId, busy: true, kind: 'meeting',
    });
    expect(patched.headers.get('etag')).toMatch(/^(W\/)?"[^"]+"$/);
    expect(patched.headers.get('etag')).not.toBe(res.headers.get('etag'));
    expect(patched.headers.get('x-calendar-position')).toMatch(/^\d+$/);
    const got = await c.call('GET', `/events/${e.id}`);
    expect(got.body.event).toEqual(patched.body.event);
    expect(got.headers.get('etag')).toBe(patched.headers.get('etag'));
  });

  it('PATCH moving the time shows in the list', async () => {
    const c = await signUp(base);
    const e = await created(c, { startsAt: t(15, 9), endsAt: t(15, 10) });
    const res = await c.call('PATCH', `/events/${e.id}`, { startsAt: t(16, 9), endsAt: t(16, 10) });
    expect(res.status).toBe(200);
    expect(await listIds(c, t(15, 0), t(16, 0))).toEqual([]);
    expect(await listIds(c, t(16, 0), t(17, 0))).toEqual([e.id]);
  });

  it('PATCH with only an endsAt before the stored startsAt is refused with 400 and changes nothing', async () => {
    const c = await signUp(base);
    const e = await created(c, { startsAt: t(15, 12), endsAt: t(15, 13) });
    expectError(await c.call('PATCH', `/events/${e.id}`, { endsAt: t(15, 11) }), 400, 'invalid_request');
    expect((await c.call('GET', `/events/${e.id}`)).body.event).toEqual(e);
  });

  it('PATCH with an invalid recurrenceRule is refused with 400', async () => {
    const c = await signUp(base);
    const e = await created(c, { startsAt: t(15, 14), endsAt: t(15, 15) });
    expectInvalid(await c.call('PATCH', `/events/${e.id}`, { recurrenceRule: 'FREQ=NEVER' }));
    expect((await c.call('GET', `/events/${e.id}`)).body.event).toEqual(e);
  });

  it('DELETE answers 204; afterwards GET is 404, the list omits it, and a second DELETE is 404', async () => {
    const c = await signUp(base);
    const keep = await created(c, { title: 'keep', startsAt: t(17, 8), endsAt: t(17, 9) });
    const gone = await created(c, { title: 'gone', startsAt: t(17, 10), endsAt: t(17, 11) });
    const res = await c.call('DELETE', `/events/${gone.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeUndefined();
    expect(res.headers.get('x-calendar-position')).toMatch(/^\d+$/);
    expectError(await c.call('GET', `/events/${gone.id}`), 404, 'not_found');
    expect(await listIds(c, t(17, 0), t(18, 0))).toEqual([keep.id]);
    expectError(await c.call('DELETE', `/events/${gone.id}`), 404, 'not_found');
    expectError(await c.call('PATCH', `/events/${gone.id}`, { title: 'zombie' }), 404, 'not_found');
  });

  it('a cancelled event frees its time', async () => {
    const c = await signUp(base);
    const gone = await created(c, { startsAt: t(18, 10), endsAt: t(18, 11) });
    expect((await c.call('DELETE', `/events/${gone.id}`)).status).toBe(204);
    expect((await create(c, { startsAt: t(18, 10), endsAt: t(18, 11) })).status).toBe(201);
  });
});

// ---- If-Match ------------------------------------------------------------------------------------------------

describe('ETag / If-Match', () => {
  it('PATCH with the current ETag passes; with a stale one 412 version_mismatch and nothing changes', async () => {
    const c = await signUp(base);
    const res = await create(c, { title: 'v1', startsAt: t(19, 9), endsAt: t(19, 10) });
    const id = res.body.event.id;
    const etag1 = res.headers.get('etag')!;

    const ok = await c.call('PATCH', `/events/${id}`, { title: 'v2' }, { 'if-match': etag1 });
    expect(ok.status).toBe(200);
    const etag2 = ok.headers.get('etag')!;
    expect(etag2).not.toBe(etag1);

    const stale = await c.call('PATCH', `/events/${id}`, { title: 'lost update' }, { 'if-match': etag1 });
    expectError(stale, 412, 'version_mismatch');
    const got = await c.call('GET', `/events/${id}`);
    expect(got.body.event.title).toBe('v2');
    expect(got.headers.get('etag')).toBe(etag2);
  });

  it('If-Match accepts a list of ETags containing the current one, and *', async () => {
    const c = await signUp(base);
    const res = await create(c, { title: 'v1', startsAt: t(19, 15), endsAt: t(19, 16) });
    const id = res.body.event.id;
    const etag1 = res.headers.get('etag')!;
    const listed = await c.call('PATCH', `/events/${id}`, { title: 'via list' }, { 'if-match': `"stale", ${etag1}` });
    expect(listed.status).toBe(200);
    expect(listed.body.event.title).toBe('via list');
    const star = await c.call('PATCH', `/events/${id}`, { title: 'via star' }, { 'if-match': '*' });
    expect(star.status).toBe(200);
    expectError(await c.call('PATCH', `/events/${id}`, { title: 'stale list' }, { 'if-match': `"stale", ${etag1}` }), 412, 'version_mismatch');
    expect((await c.call('GET', `/events/${id}`)).body.event.title).toBe('via star');
  });

  it('DELETE with a stale ETag is 412 and the event stays; with the current one it is 204', async () => {
    const c = await signUp(base);
    const res = await create(c, { startsAt: t(19, 12), endsAt: t(19, 13) });
    const id = res.body.event.id;
    const etag1 = res.headers.get('etag')!;
    const patched = await c.call('PATCH', `/events/${id}`, { title: 'changed' });
    const etag2 = patched.headers.get('etag')!;

    expectError(await c.call('DELETE', `/events/${id}`, undefined, { 'if-match': etag1 }), 412, 'version_mismatch');
    const still = await c.call('GET', `/events/${id}`);
    expect(still.status).toBe(200);
    expect(still.body.event).toEqual(patched.body.event);

    expect((await c.call('DELETE', `/events/${id}`, undefined, { 'if-match': etag2 })).status).toBe(204);
    expect((await c.call('GET', `/events/${id}`)).status).toBe(404);
  });
});

// ---- conflicts -----------------------------------------------------------------------------------------------

describe('conflicts', () => {
  it('an overlapping busy event in the same calendar is refused with 409 time_conflict naming the other event', async () => {
    const c = await signUp(base);
    const a = await created(c, { title: 'A', startsAt: t(20, 10), endsAt: t(20, 11) });
    const res = await create(c, { title: 'B', startsAt: t(20, 10, 30), endsAt: t(20, 11, 30) });
    expectConflict(res, 'time_conflict', a.id);
    const conflict = res.body.error.details.conflicts.find((x: { id: string }) => x.id === a.id);
    sameInstant(conflict.startsAt, a.startsAt);
    sameInstant(conflict.endsAt, a.endsAt);
    expect(await listIds(c, t(20, 0), t(21, 0))).toEqual([a.id]);
  });

  it('an event inside another, and one around another, also conflict', async () => {
    const c = await signUp(base);
    const a = await created(c, { startsAt: t(21, 10), endsAt: t(21, 12) });
    expectConflict(await create(c, { startsAt: t(21, 10, 30), endsAt: t(21, 11) }), 'time_conflict', a.id);
    expectConflict(await create(c, { startsAt: t(21, 9), endsAt: t(21, 13) }), 'time_conflict', a.id);
  });

  it('allowOverlap: true lets a busy event overlap', async () => {
    const c = await signUp(base);
    await created(c, { startsAt: t(22, 10), endsAt: t(22, 11) });
    const res = await create(c, { startsAt: t(22, 10, 30), endsAt: t(22, 11, 30), allowOverlap: true });
    expect(res.status).toBe(201);
    expect(res.body.event.allowOverlap).toBe(true);
  });

  it('a non-busy event never time-conflicts, in either direction', async () => {
    const c = await signUp(base);
    await created(c, { startsAt: t(23, 10), endsAt: t(23, 11) });
    const free = await create(c, { startsAt: t(23, 10), endsAt: t(23, 11), busy: false });
    expect(free.status).toBe(201);
    // A busy event over the free one (but not over the busy one) passes too.
    const busyOverFree = await create(c, { startsAt: t(23, 9), endsAt: t(23, 10) });
    expect(busyOverFree.status).toBe(201);
    await created(c, { startsAt: t(23, 14), endsAt: t(23, 15), busy: false });
    expect((await create(c, { startsAt: t(23, 14, 30), endsAt: t(23, 15, 30) })).status).toBe(201);
  });

  it('adjacent events (end == start) do not conflict', async () => {
    const c = await signUp(base);
    await created(c, { startsAt: t(24, 10), endsAt: t(24, 11) });
    expect((await create(c, { startsAt: t(24, 11), endsAt: t(24, 12) })).status).toBe(201);
    expect((await create(c, { startsAt: t(24, 9), endsAt: t(24, 10) })).status).toBe(201);
  });

  it('busy events in two calendars of the same Space do not time-conflict', async () => {
    const c = await signUp(base);
    const second = await c.call('POST', '/calendars', { name: 'Second' });
    expect(second.status).toBe(201);
    await created(c, { startsAt: t(25, 10), endsAt: t(25, 11) });
    expect((await create(c, { calendarId: second.body.calendar.id, startsAt: t(25, 10), endsAt: t(25, 11) })).status).toBe(201);
  });

  it('a shared resource is refused with 409 resource_conflict, even with allowOverlap and across calendars of one Space', async () => {
    const c = await signUp(base);
    const second = await c.call('POST', '/calendars', { name: 'Rooms' });
    expect(second.status).toBe(201);
    const a = await created(c, { startsAt: t(26, 10), endsAt: t(26, 11), resources: ['room:blue', 'projector'] });

    expectConflict(
      await create(c, { startsAt: t(26, 10, 30), endsAt: t(26, 11, 30), resources: ['room:blue'], allowOverlap: true }),
      'resource_conflict', a.id,
    );
    expectConflict(
      await create(c, { calendarId: second.body.calendar.id, startsAt: t(26, 10, 30), endsAt: t(26, 11, 30), resources: ['projector'], busy: false }),
      'resource_conflict', a.id,
    );
    // Another resource, another calendar: fine.
    expect(
      (await create(c, { calendarId: second.body.calendar.id, startsAt: t(26, 10, 30), endsAt: t(26, 11, 30), resources: ['room:red'] })).status,
    ).toBe(201);
    // Same resource, not overlapping: fine.
    expect((await create(c, { startsAt: t(26, 11), endsAt: t(26, 12), resources: ['room:blue'] })).status).toBe(201);
  });

  it('the same resource in another Space does not conflict', async () => {
    const c = await signUp(base);
    const team = await c.call('POST', '/spaces', { name: 'Other space' });
    expect(team.status).toBe(201);
    await created(c, { startsAt: t(27, 10), endsAt: t(27, 11), resources: ['room:blue'] });
    const res = await create(c, { calendarId: team.body.calendar.id, startsAt: t(27, 10), endsAt: t(27, 11), resources: ['room:blue'] });
    expect(res.status).toBe(201);
  });

  it('a recurring series conflicts with a single event on a later occurrence (both ways)', async () => {
    const c = await signUp(base);
    const series = await created(c, {
      title: 'Daily stand-up', startsAt: fromToday(3, 9), endsAt: fromToday(3, 9, 30), timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY',
    });
    // Ten days in: overlaps the 8th occurrence only.
    const res = await create(c, { title: 'Clash', startsAt: fromToday(10, 9, 15), endsAt: fromToday(10, 10) });
    expectConflict(res, 'time_conflict', series.id);
    const conflict = res.body.error.details.conflicts.find((x: { id: string }) => x.id === series.id);
    sameInstant(conflict.startsAt, fromToday(10, 9));
    sameInstant(conflict.endsAt, fromToday(10, 9, 30));
    // Between occurrences: fine.
    expect((await create(c, { startsAt: fromToday(10, 10), endsAt: fromToday(10, 11) })).status).toBe(201);

    // The other way round: a single event exists, a weekly series would hit it in its third week.
    const single = await created(c, { startsAt: fromToday(17, 15), endsAt: fromToday(17, 16) });
    expectConflict(
      await create(c, { startsAt: fromToday(3, 15, 30), endsAt: fromToday(3, 16, 30), timeZone: 'UTC', recurrenceRule: 'FREQ=WEEKLY' }),
      'time_conflict', single.id,
    );
  });

  it('two recurring series conflict when a later occurrence of one overlaps the other', async () => {
    const c = await signUp(base);
    const daily = await created(c, {
      title: 'Daily', startsAt: fromToday(2, 9), endsAt: fromToday(2, 10), timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY',
    });
    expectConflict(
      await create(c, { startsAt: fromToday(5, 9, 30), endsAt: fromToday(5, 10, 30), timeZone: 'UTC', recurrenceRule: 'FREQ=WEEKLY' }),
      'time_conflict', daily.id,
    );
    expect(
      (await create(c, { startsAt: fromToday(5, 10), endsAt: fromToday(5, 11), timeZone: 'UTC', recurrenceRule: 'FREQ=WEEKLY' })).status,
    ).toBe(201);
  });

  it('a PATCH that makes an event recurring is refused when a later occurrence would conflict', async () => {
    const c = await signUp(base);
    const later = await created(c, { startsAt: fromToday(9, 14), endsAt: fromToday(9, 15) });
    const res = await create(c, { startsAt: fromToday(2, 14, 30), endsAt: fromToday(2, 15, 30), timeZone: 'UTC' });
    const e = res.body.event;
    expectConflict(await c.call('PATCH', `/events/${e.id}`, { recurrenceRule: 'FREQ=DAILY' }), 'time_conflict', later.id);
    const got = await c.call('GET', `/events/${e.id}`);
    expect(got.body.event.recurrenceRule).toBeNull();
    expect(got.headers.get('etag')).toBe(res.headers.get('etag'));
  });

  it('a series whose COUNT ends before the single event does not conflict with it', async () => {
    const c = await signUp(base);
    const series = await created(c, { startsAt: fromToday(3, 7), endsAt: fromToday(3, 8), timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY;COUNT=3' });
    expect((await create(c, { startsAt: fromToday(6, 7), endsAt: fromToday(6, 8) })).status).toBe(201);
    expectConflict(await create(c, { startsAt: fromToday(5, 7), endsAt: fromToday(5, 8) }), 'time_conflict', series.id);
  });

  it('a PATCH that would conflict is refused with 409 and nothing changes', async () => {
    const c = await signUp(base);
    const a = await created(c, { startsAt: t(28, 10), endsAt: t(28, 11), resources: ['car'] });
    const bRes = await create(c, { startsAt: t(28, 12), endsAt: t(28, 13) });
    const b = bRes.body.event;
    expectConflict(await c.call('PATCH', `/events/${b.id}`, { startsAt: t(28, 10, 30), endsAt: t(28, 11, 30) }), 'time_conflict', a.id);
    expectConflict(
      await c.call('PATCH', `/events/${b.id}`, { startsAt: t(28, 10, 30), endsAt: t(28, 11, 30), resources: ['car'], allowOverlap: true }),
      'resource_conflict', a.id,
    );
    const got = await c.call('GET', `/events/${b.id}`);
    expect(got.body.event).toEqual(b);
    expect(got.headers.get('etag')).toBe(bRes.headers.get('etag'));
  });

  it('ten concurrent conflicting creates: exactly one 201 and nine 409', async () => {
    const c = await signUp(base);
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => create(c, { title: `racer ${i}`, startsAt: t(29, 10), endsAt: t(29, 11) })),
    );
    const statuses = results.map((r) => r.status).sort();
    expect(statuses).toEqual([201, ...Array(9).fill(409)]);
    const winner = results.find((r) => r.status === 201)!.body.event;
    for (const r of results.filter((x) => x.status === 409)) expectConflict(r, 'time_conflict', winner.id);
    expect(await listIds(c, t(29, 0), t(30, 0))).toEqual([winner.id]);
  });

  it('ten concurrent creates holding one resource in two calendars: exactly one wins', async () => {
    const c = await signUp(base);
    const second = await c.call('POST', '/calendars', { name: 'Parallel' });
    const calendars = [undefined, second.body.calendar.id];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        create(c, { calendarId: calendars[i % 2], startsAt: t(30, 10), endsAt: t(30, 11), resources: ['room:one'], allowOverlap: true })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    for (const r of results.filter((x) => x.status === 409)) expect(r.body.error.code).toBe('resource_conflict');
  });
});
