/**
 * One occurrence of a series over real HTTP (addendum, "One occurrence of a series", "Reminders"):
 * PATCH and DELETE /events/{id}/occurrences/{occurrenceStartsAt} and POST /events/{id}/split, every status, what
 * GET /events, GET /events/{id}, /sync and time travel then show, and two users who never reach each other's series.
 * The series is daily at 09:00 in Berlin from Thursday 23 October 2031: 07:00Z until the 25th, 08:00Z from the 26th.
 */
import { instantBetweenWrites, request, signUp, useTestService, type ApiResponse, type Client } from '../support/service';

let base: string;
useTestService((started) => (base = started.base));

interface Item {
  id: string;
  title: string;
  startsAt: string;
  endsAt: string;
  seriesId: string | null;
  occurrenceStartsAt: string | null;
  version: number;
  [k: string]: unknown;
}

const enc = encodeURIComponent;
const FIRST = '2031-10-23T07:00:00.000Z';
const range = (from = '2031-10-20T00:00:00Z', to = '2031-11-10T00:00:00Z') => `from=${enc(from)}&to=${enc(to)}`;

async function series(c: Client, extra: Record<string, unknown> = {}) {
  const res = await c.call('POST', '/events', {
    title: 'Standup', startsAt: FIRST, endsAt: '2031-10-23T07:30:00.000Z', timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=DAILY;COUNT=10', ...extra,
  });
  expect(res.status).toBe(201);
  return res.body.event as Item & { exceptions: unknown[] };
}

async function list(c: Client, query = range()): Promise<Item[]> {
  const res = await c.call('GET', `/events?${query}`);
  expect(res.status).toBe(200);
  return res.body.events;
}

const get = async (c: Client, id: string) => (await c.call('GET', `/events/${id}`)).body.event as Item & { exceptions: Array<Record<string, unknown>> };
const occurrence = (id: string, at: string) => `/events/${id}/occurrences/${enc(at)}`;
const times = (items: Item[]) => items.map((o) => [o.startsAt, o.occurrenceStartsAt]);

function expectError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe('string');
}

describe('PATCH /events/{id}/occurrences/{occurrenceStartsAt}', () => {
  it('moves one occurrence: 200 with it, listed once at its new time with its original start; the series holds the exception', async () => {
    const c = await signUp(base);
    const s = await series(c);
    const res = await c.call('PATCH', occurrence(s.id, '2031-10-24T07:00:00.000Z'), {
      title: 'Standup (Friday late)', startsAt: '2031-10-24T14:00:00Z', endsAt: '2031-10-24T14:45:00Z',
    });
    expect(res.status).toBe(200);
    expect(res.body.event).toMatchObject({
      id: s.id, seriesId: s.id, occurrenceStartsAt: '2031-10-24T07:00:00.000Z', title: 'Standup (Friday late)',
      startsAt: '2031-10-24T14:00:00.000Z', endsAt: '2031-10-24T14:45:00.000Z', recurrenceRule: 'FREQ=DAILY;COUNT=10', version: 2,
    });
    expect(res.body.event).not.toHaveProperty('exceptions');
    expect(res.headers.get('etag')).toBe('"v2"');

    const items = await list(c, range('2031-10-23T00:00:00Z', '2031-10-27T00:00:00Z'));
    expect(times(items)).toEqual([
      ['2031-10-23T07:00:00.000Z', '2031-10-23T07:00:00.000Z'],
      ['2031-10-24T14:00:00.000Z', '2031-10-24T07:00:00.000Z'],
      ['2031-10-25T07:00:00.000Z', '2031-10-25T07:00:00.000Z'],
      ['2031-10-26T08:00:00.000Z', '2031-10-26T08:00:00.000Z'],
    ]);
    expect(items.map((o) => o.title)).toEqual(['Standup', 'Standup (Friday late)', 'Standup', 'Standup']);
    for (const o of items) expect(o).not.toHaveProperty('exceptions');

    const stored = await get(c, s.id);
    expect(stored.version).toBe(2);
    expect(stored.exceptions).toEqual([
      { occurrenceStartsAt: '2031-10-24T07:00:00.000Z', title: 'Standup (Friday late)', startsAt: '2031-10-24T14:00:00.000Z', endsAt: '2031-10-24T14:45:00.000Z' },
    ]);
  });

  it('addresses the occurrence by its original start however it is written: encoded or not, any offset, and again after a move', async () => {
    const c = await signUp(base);
    const s = await series(c);
    expect((await c.call('PATCH', `/events/${s.id}/occurrences/2031-10-27T08:00:00.000Z`, { title: 'Plain' })).status).toBe(200);
    expect((await c.call('PATCH', occurrence(s.id, '2031-10-27T09:00:00+01:00'), { location: 'Room 2' })).status).toBe(200);
    const moved = await c.call('PATCH', occurrence(s.id, '2031-10-27T08:00:00Z'), { startsAt: '2031-10-27T10:00:00Z', endsAt: '2031-10-27T10:30:00Z' });
    expect(moved.body.event).toMatchObject({ title: 'Plain', location: 'Room 2', startsAt: '2031-10-27T10:00:00.000Z', occurrenceStartsAt: '2031-10-27T08:00:00.000Z' });
    const again = await c.call('PATCH', occurrence(s.id, '2031-10-27T08:00:00.000Z'), { title: 'Standup' });
    expect(again.status).toBe(200);
    expect((await get(c, s.id)).exceptions).toEqual([
      { occurrenceStartsAt: '2031-10-27T08:00:00.000Z', location: 'Room 2', startsAt: '2031-10-27T10:00:00.000Z', endsAt: '2031-10-27T10:30:00.000Z' },
    ]);
  });

  it('404 for starts the rule does not produce, a single event, an unknown or foreign series; 400 for malformed input; nothing written', async () => {
    const [c, other] = await Promise.all([signUp(base), signUp(base)]);
    const s = await series(c);
    const single = (await c.call('POST', '/events', { title: 'One', startsAt: '2031-12-01T09:00:00Z', endsAt: '2031-12-01T10:00:00Z' })).body.event;
    for (const at of ['2031-10-26T07:00:00.000Z', '2031-10-23T07:00:01.000Z', '2031-11-02T08:00:00.000Z', '2031-10-22T07:00:00.000Z']) {
      expectError(await c.call('PATCH', occurrence(s.id, at), { title: 'x' }), 404, 'not_found');
      expectError(await c.call('DELETE', occurrence(s.id, at)), 404, 'not_found');
    }
    expectError(await c.call('PATCH', occurrence(single.id, '2031-12-01T09:00:00.000Z'), { title: 'x' }), 404, 'not_found');
    expectError(await c.call('PATCH', occurrence('0b7c9e2a-4d6f-4a8b-9c1d-3e5f7a9b1c2d', FIRST), { title: 'x' }), 404, 'not_found');
    expectError(await other.call('PATCH', occurrence(s.id, FIRST), { title: 'Mine now' }), 404, 'not_found');
    expectError(await other.call('DELETE', occurrence(s.id, FIRST)), 404, 'not_found');
    for (const bad of ['tomorrow', '2031-10-23', '2031-13-23T07:00:00Z', '2031-10-23T07:00:00']) {
      const res = await c.call('PATCH', occurrence(s.id, bad), { title: 'x' });
      expectError(res, 400, 'invalid_request');
      expect(res.body.error.details.issues[0].path).toBe('path.occurrenceStartsAt');
    }
    expectError(await c.call('PATCH', occurrence(s.id, FIRST), {}), 400, 'invalid_request');
    expectError(await c.call('PATCH', occurrence(s.id, FIRST), { recurrenceRule: 'FREQ=WEEKLY' }), 400, 'invalid_request');
    expectError(await c.call('PATCH', occurrence(s.id, FIRST), { endsAt: '2031-10-23T06:00:00Z' }), 400, 'invalid_request');
    expectError(await c.call('PATCH', occurrence(s.id, FIRST), { startsAt: '2031-10-23T08:00:00Z', endsAt: '2031-10-23T07:59:00Z' }), 400, 'invalid_request');
    const after = await get(c, s.id);
    expect({ version: after.version, exceptions: after.exceptions }).toEqual({ version: 1, exceptions: [] });
  });

  it('409 when moved onto a busy event (naming it); 412 on a stale If-Match, passing with the current one', async () => {
    const c = await signUp(base);
    const s = await series(c);
    const busy = (await c.call('POST', '/events', { title: 'Dentist', startsAt: '2031-10-28T12:00:00Z', endsAt: '2031-10-28T13:00:00Z' })).body.event;
    const onto = { startsAt: '2031-10-28T12:30:00Z', endsAt: '2031-10-28T13:00:00Z' };
    const res = await c.call('PATCH', occurrence(s.id, '2031-10-28T08:00:00.000Z'), onto);
    expectError(res, 409, 'time_conflict');
    expect(res.body.error.details.conflicts).toEqual([{ id: busy.id, startsAt: '2031-10-28T12:00:00.000Z', endsAt: '2031-10-28T13:00:00.000Z' }]);
    expect((await c.call('PATCH', occurrence(s.id, '2031-10-28T08:00:00.000Z'), { ...onto, busy: false })).status).toBe(200);

    expectError(await c.call('PATCH', occurrence(s.id, FIRST), { title: 'x' }, { 'If-Match': '"v1"' }), 412, 'version_mismatch');
    expectError(await c.call('DELETE', occurrence(s.id, FIRST), undefined, { 'If-Match': '"v1"' }), 412, 'version_mismatch');
    const ok = await c.call('PATCH', occurrence(s.id, FIRST), { title: 'x' }, { 'If-Match': '"v2"' });
    expect({ status: ok.status, etag: ok.headers.get('etag') }).toEqual({ status: 200, etag: '"v3"' });
    expect((await c.call('DELETE', occurrence(s.id, FIRST), undefined, { 'If-Match': '"v3"' })).status).toBe(204);
  });

  it('is session-only: an API key with every event scope gets 403 session_required and changes nothing', async () => {
    const c = await signUp(base);
    const s = await series(c);
    const key = (await c.call('POST', '/api-keys', { name: 'All events', scopes: ['events:read', 'events:create', 'events:update', 'events:delete'] })).body.key;
    const auth = { authorization: `Bearer ${key}` };
    expectError(await request(base, 'PATCH', occurrence(s.id, FIRST), { title: 'x' }, auth), 403, 'session_required');
    expectError(await request(base, 'DELETE', occurrence(s.id, FIRST), undefined, auth), 403, 'session_required');
    expectError(await request(base, 'POST', `/events/${s.id}/split`, { occurrenceStartsAt: '2031-10-27T08:00:00Z' }, auth), 403, 'session_required');
    expect((await get(c, s.id)).version).toBe(1);
  });
});

describe('DELETE /events/{id}/occurrences/{occurrenceStartsAt}', () => {
  it('204: the occurrence is no longer listed nor busy; a second DELETE is 404', async () => {
    const c = await signUp(base);
    const s = await series(c);
    const at = '2031-10-26T08:00:00.000Z';
    const freeBusy = async () => (await c.call('GET', `/free-busy?from=${enc('2031-10-26T00:00:00Z')}&to=${enc('2031-10-27T00:00:00Z')}`)).body.busy;
    expect(await freeBusy()).toEqual([{ startsAt: at, endsAt: '2031-10-26T08:30:00.000Z' }]);
    const res = await c.call('DELETE', occurrence(s.id, at));
    expect(res.status).toBe(204);
    expect(res.headers.get('x-calendar-position')).toMatch(/^\d+$/);
    expect((await list(c)).map((o) => o.occurrenceStartsAt)).not.toContain(at);
    expect(await list(c)).toHaveLength(9);
    expect(await freeBusy()).toEqual([]);
    expect((await get(c, s.id)).exceptions).toEqual([{ occurrenceStartsAt: at, cancelled: true }]);
    expectError(await c.call('DELETE', occurrence(s.id, at)), 404, 'not_found');
    expectError(await c.call('PATCH', occurrence(s.id, at), { title: 'Back' }), 404, 'not_found');
    // Its slot is free for a single event now.
    expect((await c.call('POST', '/events', { title: 'Dentist', startsAt: at, endsAt: '2031-10-26T08:30:00Z' })).status).toBe(201);
  });
});

describe('POST /events/{id}/split', () => {
  it('201 with the new series; the old one ends just before; together they list the same occurrences; exceptions follow their side', async () => {
    const c = await signUp(base);
    const s = await series(c);
    await c.call('DELETE', occurrence(s.id, '2031-10-24T07:00:00.000Z'));
    await c.call('PATCH', occurrence(s.id, '2031-10-29T08:00:00.000Z'), { title: 'Wednesday' });
    const before = times(await list(c));
    const res = await c.call('POST', `/events/${s.id}/split`, { occurrenceStartsAt: '2031-10-27T08:00:00Z', location: 'Room 7' });
    expect(res.status).toBe(201);
    const fresh = res.body.event;
    expect(res.headers.get('etag')).toBe('"v1"');
    expect(fresh).toMatchObject({
      title: 'Standup', location: 'Room 7', startsAt: '2031-10-27T08:00:00.000Z', endsAt: '2031-10-27T08:30:00.000Z',
      recurrenceRule: 'FREQ=DAILY;COUNT=6', timeZone: 'Europe/Berlin', version: 1,
      exceptions: [{ occurrenceStartsAt: '2031-10-29T08:00:00.000Z', title: 'Wednesday' }],
    });
    expect(fresh.id).not.toBe(s.id);
    const old = await get(c, s.id);
    expect(old).toMatchObject({ recurrenceRule: 'FREQ=DAILY;UNTIL=20311027T075959Z', version: 4, exceptions: [{ occurrenceStartsAt: '2031-10-24T07:00:00.000Z', cancelled: true }] });
    const after = await list(c);
    expect(times(after)).toEqual(before);
    expect(after.map((o) => o.seriesId)).toEqual([...Array(3).fill(s.id), ...Array(6).fill(fresh.id)]);
  });

  it('400 at the first occurrence and for a body without one, 404 for a start not produced; nothing written', async () => {
    const c = await signUp(base);
    const s = await series(c);
    expectError(await c.call('POST', `/events/${s.id}/split`, { occurrenceStartsAt: FIRST }), 400, 'invalid_request');
    expectError(await c.call('POST', `/events/${s.id}/split`, { title: 'x' }), 400, 'invalid_request');
    expectError(await c.call('POST', `/events/${s.id}/split`, { occurrenceStartsAt: '2031-10-27T07:00:00Z' }), 404, 'not_found');
    expect((await get(c, s.id)).version).toBe(1);
    expect(await list(c)).toHaveLength(10);
  });

  it('409 when the new series conflicts within the 366 days conflicts are checked over; the old part is left as it was', async () => {
    const c = await signUp(base);
    // Daily from two days on (UTC): series are checked from now on, so these days are near.
    const day = (n: number, h: number) => new Date(Date.UTC(new Date().getUTCFullYear(), new Date().getUTCMonth(), new Date().getUTCDate() + n, h)).toISOString();
    const s = (await c.call('POST', '/events', { title: 'Daily', startsAt: day(2, 9), endsAt: day(2, 10), timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY;COUNT=10' })).body.event;
    const green = (await c.call('POST', '/events', { title: 'Green', startsAt: day(8, 15), endsAt: day(8, 16), resources: ['room:green'], busy: false })).body.event;
    const res = await c.call('POST', `/events/${s.id}/split`, { occurrenceStartsAt: day(5, 9), startsAt: day(5, 15), endsAt: day(5, 16), resources: ['room:green'] });
    expectError(res, 409, 'resource_conflict');
    expect(res.body.error.details.conflicts).toEqual([{ id: green.id, startsAt: day(8, 15), endsAt: day(8, 16) }]);
    expect((await get(c, s.id)).version).toBe(1);
  });
});

describe('PATCH /events/{id} with exceptions', () => {
  it('keeps the exceptions the new rule still produces and drops the others', async () => {
    const c = await signUp(base);
    const s = await series(c);
    await c.call('PATCH', occurrence(s.id, '2031-10-24T07:00:00.000Z'), { title: 'Kept' });
    await c.call('DELETE', occurrence(s.id, '2031-10-31T08:00:00.000Z'));
    const res = await c.call('PATCH', `/events/${s.id}`, { recurrenceRule: 'FREQ=DAILY;COUNT=5', title: 'Daily' });
    expect(res.status).toBe(200);
    expect(res.body.event.exceptions).toEqual([{ occurrenceStartsAt: '2031-10-24T07:00:00.000Z', title: 'Kept' }]);
    expect((await list(c)).map((o) => o.title)).toEqual(['Daily', 'Kept', 'Daily', 'Daily', 'Daily']);
  });
});

describe('GET /events pages with moved occurrences', () => {
  it('lists every occurrence exactly once across pages, also two of one series at one start', async () => {
    const c = await signUp(base);
    const s = await series(c, { allowOverlap: true });
    // Three moved onto the start of others, one to before the series began, one far after its end.
    const moves: Array<[string, string]> = [
      ['2031-10-24T07:00:00.000Z', '2031-10-25T07:00:00.000Z'], ['2031-10-28T08:00:00.000Z', '2031-10-27T08:00:00.000Z'],
      ['2031-10-29T08:00:00.000Z', '2031-10-27T08:00:00.000Z'], ['2031-10-30T08:00:00.000Z', '2031-10-21T12:00:00.000Z'],
      ['2031-10-31T08:00:00.000Z', '2031-11-09T12:00:00.000Z'],
    ];
    for (const [from, to] of moves) {
      const res = await c.call('PATCH', occurrence(s.id, from), { startsAt: to, endsAt: new Date(Date.parse(to) + 1_800_000).toISOString(), busy: false });
      expect(res.status).toBe(200);
    }
    const whole = await list(c);
    expect(whole).toHaveLength(10);
    const pages: Item[] = [];
    let token: string | null = null;
    for (let n = 0; n < 20; n++) {
      const res = await c.call('GET', `/events?${range()}&limit=3${token ? `&pageToken=${enc(token)}` : ''}`);
      expect(res.status).toBe(200);
      pages.push(...res.body.events);
      token = res.body.nextPageToken;
      if (!token) break;
    }
    expect(times(pages)).toEqual(times(whole));
    expect(new Set(pages.map((o) => o.occurrenceStartsAt)).size).toBe(10);
    expect(times(whole)[0]).toEqual(['2031-10-21T12:00:00.000Z', '2031-10-30T08:00:00.000Z']);
    expect(times(whole)[9]).toEqual(['2031-11-09T12:00:00.000Z', '2031-10-31T08:00:00.000Z']);
    // A window holding only a moved occurrence finds its series.
    expect(times(await list(c, range('2031-11-09T00:00:00Z', '2031-11-10T00:00:00Z')))).toEqual([['2031-11-09T12:00:00.000Z', '2031-10-31T08:00:00.000Z']]);
  });
});

describe('sync and time travel', () => {
  it('/sync from the bootstrap cursor carries the series with its exceptions, its version moved on', async () => {
    const c = await signUp(base);
    const s = await series(c);
    const { cursor } = (await c.call('GET', '/me/bootstrap')).body;
    await c.call('DELETE', occurrence(s.id, '2031-10-25T07:00:00.000Z'));
    const res = await c.call('GET', `/sync?since=${enc(cursor)}`);
    expect(res.status).toBe(200);
    expect(res.body.changes.events).toEqual([expect.objectContaining({
      id: s.id, version: 2, deletedAt: null, exceptions: [{ occurrenceStartsAt: '2031-10-25T07:00:00.000Z', cancelled: true }],
    })]);
  });

  it('asOf shows the occurrence where it was before it moved', async () => {
    const c = await signUp(base);
    const s = await series(c);
    const t0 = await instantBetweenWrites();
    await c.call('PATCH', occurrence(s.id, FIRST), { startsAt: '2031-10-23T16:00:00Z', endsAt: '2031-10-23T16:30:00Z' });
    const window = range('2031-10-23T00:00:00Z', '2031-10-24T00:00:00Z');
    expect(times(await list(c, `${window}&asOf=${enc(t0)}`))).toEqual([[FIRST, FIRST]]);
    expect(times(await list(c, window))).toEqual([['2031-10-23T16:00:00.000Z', FIRST]]);
  });
});

describe('reminders', () => {
  it('an event gets the owner\'s preferences.defaultReminders unless it names its own; an occurrence may have its own', async () => {
    const c = await signUp(base);
    expect((await c.call('POST', '/events', { title: 'None', startsAt: '2031-12-01T09:00:00Z', endsAt: '2031-12-01T10:00:00Z' })).body.event.reminders).toEqual([]);
    const defaults = [{ minutesBefore: 10, method: 'notification' }, { minutesBefore: 1440, method: 'email' }];
    expect((await c.call('PATCH', '/me', { preferences: { defaultReminders: defaults } })).status).toBe(200);
    const s = await series(c);
    expect(s.reminders).toEqual(defaults);
    const own = await c.call('POST', '/events', { title: 'Own', startsAt: '2031-12-02T09:00:00Z', endsAt: '2031-12-02T10:00:00Z', reminders: [] });
    expect(own.body.event.reminders).toEqual([]);
    const changed = await c.call('PATCH', occurrence(s.id, FIRST), { reminders: [{ minutesBefore: 0, method: 'push' }] });
    expect(changed.body.event.reminders).toEqual([{ minutesBefore: 0, method: 'push' }]);
    expect((await get(c, s.id)).exceptions).toEqual([{ occurrenceStartsAt: FIRST, reminders: [{ minutesBefore: 0, method: 'push' }] }]);
  });

  it('refuses more than five, a minutesBefore past four weeks, an unknown method, and bad defaults, as 400', async () => {
    const c = await signUp(base);
    const body = { title: 'R', startsAt: '2031-12-03T09:00:00Z', endsAt: '2031-12-03T10:00:00Z' };
    const six = Array.from({ length: 6 }, (_, i) => ({ minutesBefore: i, method: 'push' }));
    for (const reminders of [six, [{ minutesBefore: 40_321, method: 'push' }], [{ minutesBefore: -1, method: 'push' }], [{ minutesBefore: 5, method: 'sms' }], [{ minutesBefore: 5 }]]) {
      expectError(await c.call('POST', '/events', { ...body, reminders }), 400, 'invalid_request');
      expectError(await c.call('PATCH', '/me', { preferences: { defaultReminders: reminders } }), 400, 'invalid_request');
    }
    expect((await c.call('POST', '/events', { ...body, reminders: [{ minutesBefore: 40_320, method: 'email' }] })).status).toBe(201);
    expect((await c.call('GET', '/me')).body.user.preferences).not.toHaveProperty('defaultReminders');
  });
});
