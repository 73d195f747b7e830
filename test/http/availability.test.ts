/**
 * GET /availability, /available-slots and /free-busy over real HTTP: answers built from the caller's events and
 * profile (time zone, working hours), every 400, the access rules, and two users who never see each other's time.
 * Days are in March 2031 (Monday the 3rd), far from any DST change in Berlin, so nothing depends on today.
 */
import { request, signUp, useTestService, type ApiResponse, type Client } from '../support/service';

let base: string;
useTestService((started) => (base = started.base));

const BERLIN = 'Europe/Berlin';
const short = (iso: string) => new Date(iso).toISOString().slice(0, 16);
const spans = (items: Array<{ startsAt: string; endsAt: string }>) => items.map((i) => `${short(i.startsAt)}/${short(i.endsAt)}`);

function expectInvalid(res: ApiResponse, path?: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status: 400, code: 'invalid_request' });
  expect(res.body.error.details.issues.length).toBeGreaterThan(0);
  if (path) expect(res.body.error.details.issues.map((i: { path: string }) => i.path)).toContain(path);
}

async function created(c: Client, body: Record<string, unknown>): Promise<Record<string, any>> {
  const res = await c.call('POST', '/events', { timeZone: BERLIN, ...body });
  expect(res.status).toBe(201);
  return res.body.event;
}

async function keyOf(c: Client, scopes: string[]): Promise<string> {
  const res = await c.call('POST', '/api-keys', { name: `key ${scopes.join(' ')}`, scopes });
  expect(res.status).toBe(201);
  return res.body.key;
}

/** A Berlin user's week: a daily stand-up, focus time, a tentative coffee and a public holiday on Tuesday. */
async function berlinUser() {
  const c = await signUp(base, { timeZone: BERLIN });
  const standup = await created(c, { title: 'Stand-up', startsAt: '2031-03-03T09:30:00+01:00', endsAt: '2031-03-03T10:00:00+01:00', recurrenceRule: 'FREQ=DAILY;COUNT=5' });
  const focus = await created(c, { title: 'Deep work', kind: 'focus', startsAt: '2031-03-03T13:00:00+01:00', endsAt: '2031-03-03T15:00:00+01:00' });
  const coffee = await created(c, { title: 'Coffee, maybe', busy: false, startsAt: '2031-03-03T10:00:00+01:00', endsAt: '2031-03-03T10:30:00+01:00' });
  const holiday = await created(c, { title: 'Holiday', kind: 'holiday', allDay: true, allowOverlap: true, startsAt: '2031-03-04T00:00:00+01:00', endsAt: '2031-03-05T00:00:00+01:00' });
  return { c, standup, focus, coffee, holiday };
}

let world: Awaited<ReturnType<typeof berlinUser>>;
let other: Client;
let otherEvent: Record<string, any>;

beforeAll(async () => {
  world = await berlinUser();
  other = await signUp(base, { timeZone: BERLIN });
  otherEvent = await created(other, { title: 'Secret interview', startsAt: '2031-03-03T11:00:00+01:00', endsAt: '2031-03-03T12:00:00+01:00' });
});

describe('GET /availability', () => {
  it('answers each day with its events, protected time, free stretches ranked, and the rest blocked with reasons', async () => {
    const { c, standup, focus, coffee, holiday } = world;
    const res = await c.call('GET', '/availability?from=2031-03-03&days=3');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timeZone: BERLIN, purpose: 'meeting', preferred: null });
    expect(res.body.days.map((d: { date: string }) => d.date)).toEqual(['2031-03-03', '2031-03-04', '2031-03-05']);
    const [monday, tuesday, wednesday] = res.body.days;

    expect(spans([monday])).toEqual(['2031-03-02T23:00/2031-03-03T23:00']);
    expect(monday.events.map((e: { id: string }) => e.id)).toEqual([standup.id, coffee.id, focus.id]);
    expect(monday.events[0]).toMatchObject({ title: 'Stand-up', seriesId: standup.id, busy: true, allDay: false });
    expect(monday.events[1]).toMatchObject({ busy: false, seriesId: null });
    expect(monday.protectedTime).toEqual([{ eventId: focus.id, title: 'Deep work', startsAt: '2031-03-03T12:00:00.000Z', endsAt: '2031-03-03T14:00:00.000Z' }]);
    expect(monday.routinePeriods).toEqual([]);
    // Meeting: long enough first, then the shorter one (it fills a gap), then the earlier.
    expect(monday.free.map((f: { rank: number }) => f.rank)).toEqual([1, 2, 3]);
    expect(spans(monday.free)).toEqual(['2031-03-03T08:00/2031-03-03T08:30', '2031-03-03T14:00/2031-03-03T16:00', '2031-03-03T09:00/2031-03-03T12:00']);
    expect(monday.blocked).toEqual([
      { startsAt: '2031-03-02T23:00:00.000Z', endsAt: '2031-03-03T08:00:00.000Z', reasons: [{ type: 'outside_hours' }] },
      { startsAt: '2031-03-03T08:30:00.000Z', endsAt: '2031-03-03T09:00:00.000Z', reasons: [{ type: 'event', eventId: standup.id }] },
      { startsAt: '2031-03-03T12:00:00.000Z', endsAt: '2031-03-03T14:00:00.000Z', reasons: [{ type: 'focus', eventId: focus.id }] },
      { startsAt: '2031-03-03T16:00:00.000Z', endsAt: '2031-03-03T23:00:00.000Z', reasons: [{ type: 'outside_hours' }] },
    ]);

    expect(tuesday.free).toEqual([]);
    expect(tuesday.events.find((e: { id: string }) => e.id === holiday.id)).toMatchObject({
      allDay: true, startsAt: '2031-03-03T23:00:00.000Z', endsAt: '2031-03-04T23:00:00.000Z',
    });
    for (const b of tuesday.blocked) expect(b.reasons).toContainEqual({ type: 'event', eventId: holiday.id });

    expect(spans(wednesday.free).sort()).toEqual(['2031-03-05T08:00/2031-03-05T08:30', '2031-03-05T09:00/2031-03-05T16:00']);
  });

  it('tiles every day with free and blocked stretches', async () => {
    const res = await world.c.call('GET', '/availability?from=2031-03-03&days=2');
    for (const day of res.body.days) {
      const pieces = [...day.free, ...day.blocked].sort((a, b) => a.startsAt.localeCompare(b.startsAt));
      expect(pieces[0].startsAt).toBe(day.startsAt);
      expect(pieces[pieces.length - 1].endsAt).toBe(day.endsAt);
      for (let i = 1; i < pieces.length; i++) expect(pieces[i].startsAt).toBe(pieces[i - 1].endsAt);
    }
  });

  it('ranks for focus (longer first) and for a preferred part of the day', async () => {
    const focus = await world.c.call('GET', '/availability?from=2031-03-03&purpose=focus');
    expect(focus.status).toBe(200);
    expect(spans(focus.body.days[0].free)).toEqual(['2031-03-03T09:00/2031-03-03T12:00', '2031-03-03T14:00/2031-03-03T16:00', '2031-03-03T08:00/2031-03-03T08:30']);
    expect(focus.body.days[0].free.map((f: { fitsPurpose: boolean }) => f.fitsPurpose)).toEqual([true, true, false]);

    const afternoon = await world.c.call('GET', '/availability?from=2031-03-03&purpose=focus&preferred=afternoon');
    expect(afternoon.body.preferred).toBe('afternoon');
    expect(afternoon.body.days[0].free[0]).toMatchObject({ startsAt: '2031-03-03T14:00:00.000Z', preferredMinutes: 120, inPreferred: true, rank: 1 });
  });

  it('defaults to one day, today where the person is', async () => {
    const c = await signUp(base, { timeZone: 'Pacific/Kiritimati' }); // UTC+14: often a day ahead of the process zone
    const today = () => new Intl.DateTimeFormat('en-CA', { timeZone: 'Pacific/Kiritimati' }).format(new Date());
    const before = today();
    const res = await c.call('GET', '/availability');
    const after = today();
    expect(res.status).toBe(200);
    expect(res.body.days).toHaveLength(1);
    expect([before, after]).toContain(res.body.days[0].date);
  });

  it.each([
    ['days=0', 'query.days'], ['days=15', 'query.days'], ['days=two', 'query.days'], ['days=1.5', 'query.days'],
    ['purpose=lunch', 'query.purpose'], ['preferred=night', 'query.preferred'],
    ['from=2031-13-01', 'query.from'], ['from=03/03/2031', 'query.from'], ['from=1969-12-31', 'query.from'], ['from=9999-12-25', 'query.from'],
  ])('400 for %s', async (q, path) => {
    expectInvalid(await world.c.call('GET', `/availability?${q}`), path);
  });

  it('is for sessions only: 401 without a credential, 403 session_required with an API key', async () => {
    expect((await request(base, 'GET', '/availability')).status).toBe(401);
    const key = await keyOf(world.c, ['availability:read']);
    const res = await request(base, 'GET', '/availability', undefined, { authorization: `Bearer ${key}` });
    expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 403, code: 'session_required' });
  });
});

describe('GET /available-slots', () => {
  it('lists free windows inside working hours, at least 30 minutes by default', async () => {
    const key = await keyOf(world.c, ['availability:read']);
    const res = await request(base, 'GET', '/available-slots?from=2031-03-03&days=3', undefined, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ timeZone: BERLIN, minimumMinutes: 30, startsAt: '2031-03-02T23:00:00.000Z', endsAt: '2031-03-05T23:00:00.000Z' });
    expect(spans(res.body.slots)).toEqual([
      '2031-03-03T08:00/2031-03-03T08:30', '2031-03-03T09:00/2031-03-03T12:00', '2031-03-03T14:00/2031-03-03T16:00',
      '2031-03-05T08:00/2031-03-05T08:30', '2031-03-05T09:00/2031-03-05T16:00',
    ]);
    expect(res.body.slots.map((s: { minutes: number }) => s.minutes)).toEqual([30, 180, 120, 30, 420]);
  });

  it('drops windows shorter than minimumMinutes and spans 7 days by default', async () => {
    const res = await world.c.call('GET', '/available-slots?from=2031-03-03&minimumMinutes=31');
    expect(res.status).toBe(200);
    expect(res.body.endsAt).toBe('2031-03-09T23:00:00.000Z');
    expect(res.body.slots.every((s: { minutes: number }) => s.minutes >= 31)).toBe(true);
    expect(spans(res.body.slots)).toContain('2031-03-07T09:00/2031-03-07T16:00');
    expect(spans(res.body.slots)).not.toContain('2031-03-07T08:00/2031-03-07T08:30');
  });

  it('uses the working hours of the profile, kept across DST for an owner in New York', async () => {
    const c = await signUp(base, { timeZone: 'America/New_York' });
    const workingHours = [1, 2, 3, 4, 5].map((day) => ({ day, startMinute: 8 * 60, endMinute: 12 * 60 }));
    expect((await c.call('PATCH', '/me', { preferences: { workingHours } })).status).toBe(200);
    const res = await c.call('GET', '/available-slots?from=2031-03-07&days=4'); // clocks go forward on Sunday the 9th
    expect(spans(res.body.slots)).toEqual(['2031-03-07T13:00/2031-03-07T17:00', '2031-03-10T12:00/2031-03-10T16:00']);
  });

  it('starts today no earlier than now', async () => {
    const c = await signUp(base, { timeZone: 'UTC' });
    expect((await c.call('PATCH', '/me', { preferences: { workingHours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, startMinute: 0, endMinute: 1440 })) } })).status).toBe(200);
    const asked = Date.now();
    const res = await c.call('GET', '/available-slots?days=2&minimumMinutes=1');
    expect(res.status).toBe(200);
    expect(res.body.slots.length).toBeGreaterThan(0);
    expect(Date.parse(res.body.slots[0].startsAt)).toBeGreaterThanOrEqual(asked - 1000);
  });

  it.each([
    ['days=0', 'query.days'], ['days=32', 'query.days'], ['minimumMinutes=0', 'query.minimumMinutes'],
    ['minimumMinutes=1441', 'query.minimumMinutes'], ['minimumMinutes=x', 'query.minimumMinutes'], ['from=tomorrow', 'query.from'],
  ])('400 for %s', async (q, path) => {
    expectInvalid(await world.c.call('GET', `/available-slots?${q}`), path);
  });

  it('needs availability:read', async () => {
    expect((await request(base, 'GET', '/available-slots')).status).toBe(401);
    const key = await keyOf(world.c, ['events:read']);
    const res = await request(base, 'GET', '/available-slots', undefined, { authorization: `Bearer ${key}` });
    expect({ status: res.status, code: res.body.error.code, required: res.body.error.details.required }).toEqual({
      status: 403, code: 'insufficient_scope', required: 'availability:read',
    });
  });
});

describe('GET /free-busy', () => {
  const range = 'from=2031-03-03T00:00:00Z&to=2031-03-05T00:00:00Z';

  it('answers merged busy intervals only: no titles, no tentative events', async () => {
    const key = await keyOf(world.c, ['availability:read']);
    const res = await request(base, 'GET', `/free-busy?${range}`, undefined, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    expect(res.body.from).toBe('2031-03-03T00:00:00.000Z');
    expect(res.body.to).toBe('2031-03-05T00:00:00.000Z');
    expect(spans(res.body.busy)).toEqual([
      '2031-03-03T08:30/2031-03-03T09:00', '2031-03-03T12:00/2031-03-03T14:00', '2031-03-03T23:00/2031-03-04T23:00',
    ]);
    for (const b of res.body.busy) expect(Object.keys(b).sort()).toEqual(['endsAt', 'startsAt']);
    expect(JSON.stringify(res.body)).not.toMatch(/Stand-up|Deep work|Holiday/);
  });

  it('clips to the range and takes any offset', async () => {
    const res = await world.c.call('GET', `/free-busy?from=${encodeURIComponent('2031-03-03T13:00:00+01:00')}&to=${encodeURIComponent('2031-03-03T14:30:00+01:00')}`);
    expect(res.status).toBe(200);
    expect(spans(res.body.busy)).toEqual(['2031-03-03T12:00/2031-03-03T13:30']);
  });

  it.each([
    ['', 'query.from'], ['from=2031-03-03T00:00:00Z', 'query.to'], ['to=2031-03-03T00:00:00Z', 'query.from'],
    ['from=2031-03-03&to=2031-03-04', 'query.from'], ['from=2031-03-03T00:00:00Z&to=2031-03-03T00:00:00Z', 'query.to'],
    ['from=9999-12-01T00:00:00Z&to=9999-12-02T00:00:00Z', 'query.from'],
    ['from=2031-03-03T00:00:00Z&to=2031-03-02T00:00:00Z', 'query.to'], ['from=2031-03-01T00:00:00Z&to=2031-05-03T00:00:00Z', 'query.to'],
  ])('400 for "%s"', async (q, path) => {
    expectInvalid(await world.c.call('GET', `/free-busy?${q}`), path);
  });

  it('counts routine periods that cannot move, not movable or skipped ones', async () => {
    const c = await signUp(base, { timeZone: BERLIN });
    const res = await c.call('POST', '/routines', {
      name: 'Days', type: 'personal', days: [1, 2, 3, 4, 5],
      periods: [
        { name: 'School run', startMinute: 480, endMinute: 510, canMove: false },
        { name: 'Walk', startMinute: 720, endMinute: 750, canMove: true },
      ],
    });
    expect(res.status).toBe(201);
    const schoolRun = res.body.routine.periods[0].id as string;
    const skipped = await c.call('PUT', `/routines/periods/${schoolRun}/days/2031-03-04`, { status: 'skipped' });
    expect(skipped.status).toBe(200);
    const busy = await c.call('GET', `/free-busy?${range}`, undefined, { 'X-Calendar-Min-Position': skipped.headers.get('x-calendar-position')! });
    expect(busy.status).toBe(200);
    expect(spans(busy.body.busy)).toEqual(['2031-03-03T07:00/2031-03-03T07:30']);
    const day = await c.call('GET', '/availability?from=2031-03-03');
    const blocked = day.body.days[0].blocked.find((b: { startsAt: string }) => short(b.startsAt) === '2031-03-03T07:00');
    expect(blocked.reasons).toContainEqual({ type: 'routine', routineId: res.body.routine.id, periodId: schoolRun });
  });

  it('needs availability:read', async () => {
    expect((await request(base, 'GET', `/free-busy?${range}`)).status).toBe(401);
    const key = await keyOf(world.c, ['calendars:read']);
    const res = await request(base, 'GET', `/free-busy?${range}`, undefined, { authorization: `Bearer ${key}` });
    expect({ status: res.status, code: res.body.error.code }).toEqual({ status: 403, code: 'insufficient_scope' });
  });
});

describe('two users', () => {
  it('never see each other\'s busy time', async () => {
    const mine = await world.c.call('GET', '/free-busy?from=2031-03-03T00:00:00Z&to=2031-03-04T00:00:00Z');
    const theirs = await other.call('GET', '/free-busy?from=2031-03-03T00:00:00Z&to=2031-03-04T00:00:00Z');
    expect(spans(theirs.body.busy)).toEqual(['2031-03-03T10:00/2031-03-03T11:00']);
    expect(spans(mine.body.busy)).not.toContain('2031-03-03T10:00/2031-03-03T11:00');

    const days = await world.c.call('GET', '/availability?from=2031-03-03');
    expect(JSON.stringify(days.body)).not.toContain(otherEvent.id);
    expect(spans(days.body.days[0].free)).toContain('2031-03-03T09:00/2031-03-03T12:00');

    const slots = await other.call('GET', '/available-slots?from=2031-03-03&days=1');
    expect(spans(slots.body.slots)).toEqual(['2031-03-03T08:00/2031-03-03T10:00', '2031-03-03T11:00/2031-03-03T16:00']);
  });
});

describe('working hours in the profile', () => {
  it.each([
    [[{ day: 8, startMinute: 0, endMinute: 60 }], 'body.preferences.workingHours.0.day'],
    [[{ day: 1, startMinute: 600, endMinute: 500 }], 'body.preferences.workingHours.0.endMinute'],
    [[{ day: 1, startMinute: 0, endMinute: 1441 }], 'body.preferences.workingHours.0.endMinute'],
    [[{ day: 1, startMinute: 0, endMinute: 60, lunch: true }], 'body.preferences.workingHours.0'],
    ['weekdays', 'body.preferences.workingHours'],
  ])('PATCH /me refuses %j', async (workingHours, path) => {
    const c = await signUp(base);
    expectInvalid(await c.call('PATCH', '/me', { preferences: { workingHours } }), path);
    expect((await c.call('GET', '/me')).body.user.preferences.workingHours).toBeUndefined();
  });

  it('null goes back to Monday-Friday 09:00-17:00', async () => {
    const c = await signUp(base, { timeZone: BERLIN });
    await c.call('PATCH', '/me', { preferences: { workingHours: [{ day: 1, startMinute: 600, endMinute: 660 }] } });
    expect(spans((await c.call('GET', '/available-slots?from=2031-03-03&days=1')).body.slots)).toEqual(['2031-03-03T09:00/2031-03-03T10:00']);
    expect((await c.call('PATCH', '/me', { preferences: { workingHours: null } })).status).toBe(200);
    expect(spans((await c.call('GET', '/available-slots?from=2031-03-03&days=1')).body.slots)).toEqual(['2031-03-03T08:00/2031-03-03T16:00']);
  });
});
