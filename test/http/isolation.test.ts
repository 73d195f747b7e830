/**
 * Tenant isolation over real HTTP: user B can neither see nor touch anything of user A's, and always gets 404
 * (never 403) for A's ids. Contract: addendum.md "Errors" (404 not_found: absent, or owned by someone the caller may
 * not see; never 403 for other people's ids).
 */
import { signUp, startTestService, type ApiResponse, type Client, type TestService } from '../support/service';

let svc: TestService;
let base: string;

let a: Client;
let b: Client;
let aUser: Record<string, any>;
let aShared: { space: { id: string }; calendar: { id: string } };
let aEvent: Record<string, any>;
let aEtag: string;
let aRoomEvent: Record<string, any>;
let aSharedEvent: Record<string, any>;

const FROM = '2033-01-01T00:00:00Z';
const TO = '2033-02-01T00:00:00Z';

// ---- helpers -------------------------------------------------------------------------------------------------

const eventsOf = async (c: Client, extra = '') => {
  const res = await c.call('GET', `/events?from=${encodeURIComponent(FROM)}&to=${encodeURIComponent(TO)}${extra}`);
  expect(res.status).toBe(200);
  return res.body.events as Array<{ id: string; spaceId: string }>;
};

/** Everything of A's as A sees it, to compare before and after B's attempts. */
async function snapshotOfA() {
  const [event, room, shared, list, calendars, spaces] = await Promise.all([
    a.call('GET', `/events/${aEvent.id}`),
    a.call('GET', `/events/${aRoomEvent.id}`),
    a.call('GET', `/events/${aSharedEvent.id}`),
    eventsOf(a),
    a.call('GET', '/calendars'),
    a.call('GET', '/spaces'),
  ]);
  return {
    event: [event.status, event.body, event.headers.get('etag')],
    room: [room.status, room.body, room.headers.get('etag')],
    shared: [shared.status, shared.body, shared.headers.get('etag')],
    list,
    calendars: calendars.body,
    spaces: spaces.body,
  };
}

function expectNotFound(res: ApiResponse, what: string): void {
  expect({ what, status: res.status, code: res.body?.error?.code }).toEqual({ what, status: 404, code: 'not_found' });
}

let snapshotBefore: Awaited<ReturnType<typeof snapshotOfA>>;

beforeAll(async () => {
  svc = await startTestService();
  base = svc.base;
  [a, b] = await Promise.all([signUp(base), signUp(base)]);
  aUser = (await a.call('GET', '/me')).body.user;
  const shared = await a.call('POST', '/spaces', { name: 'A team' });
  expect(shared.status).toBe(201);
  aShared = shared.body;
  const created = await a.call('POST', '/events', { title: 'A secret', startsAt: '2033-01-10T10:00:00Z', endsAt: '2033-01-10T11:00:00Z' });
  expect(created.status).toBe(201);
  aEvent = created.body.event;
  aEtag = created.headers.get('etag')!;
  aRoomEvent = (await a.call('POST', '/events', {
    title: 'A room', startsAt: '2033-01-11T10:00:00Z', endsAt: '2033-01-11T11:00:00Z', resources: ['room:blue'],
  })).body.event;
  aSharedEvent = (await a.call('POST', '/events', {
    title: 'A team event', calendarId: aShared.calendar.id, startsAt: '2033-01-12T10:00:00Z', endsAt: '2033-01-12T11:00:00Z',
  })).body.event;
  expect(aRoomEvent?.id).toBeDefined();
  expect(aSharedEvent?.id).toBeDefined();
  snapshotBefore = await snapshotOfA();
});

afterAll(async () => {
  await svc.stop();
});

// ---- tests ---------------------------------------------------------------------------------------------------

describe("B and A's events", () => {
  it("B gets 404 for GET, PATCH, DELETE and RSVP on A's event ids", async () => {
    for (const e of [aEvent, aRoomEvent, aSharedEvent]) {
      expectNotFound(await b.call('GET', `/events/${e.id}`), `GET ${e.title}`);
      expectNotFound(await b.call('PATCH', `/events/${e.id}`, { title: 'pwned' }), `PATCH ${e.title}`);
      expectNotFound(await b.call('DELETE', `/events/${e.id}`), `DELETE ${e.title}`);
      expectNotFound(await b.call('POST', `/events/${e.id}/rsvp`, { answer: 'yes' }), `RSVP ${e.title}`);
    }
  });

  it("B gets 404 on A's event even with A's current ETag as If-Match", async () => {
    expectNotFound(await b.call('PATCH', `/events/${aEvent.id}`, { title: 'pwned' }, { 'if-match': aEtag }), 'PATCH');
    expectNotFound(await b.call('DELETE', `/events/${aEvent.id}`, undefined, { 'if-match': aEtag }), 'DELETE');
  });

  it("B gets 404 (not 412) on A's event with a stale or malformed If-Match, exactly as for an unknown id", async () => {
    const unknown = '00000000-0000-4000-8000-000000000000';
    for (const ifMatch of ['"v999"', 'not-an-etag']) {
      // What an id that does not exist answers; A's ids must answer the same, or B learns they exist.
      expectNotFound(await b.call('PATCH', `/events/${unknown}`, { title: 'x' }, { 'if-match': ifMatch }), `PATCH unknown If-Match ${ifMatch}`);
      expectNotFound(await b.call('DELETE', `/events/${unknown}`, undefined, { 'if-match': ifMatch }), `DELETE unknown If-Match ${ifMatch}`);
      expectNotFound(await b.call('PATCH', `/events/${aEvent.id}`, { title: 'pwned' }, { 'if-match': ifMatch }), `PATCH If-Match ${ifMatch}`);
      expectNotFound(await b.call('DELETE', `/events/${aEvent.id}`, undefined, { 'if-match': ifMatch }), `DELETE If-Match ${ifMatch}`);
    }
  });

  it("B cannot create an event in A's calendars: 404", async () => {
    for (const calendarId of [aUser.defaultCalendarId, aShared.calendar.id]) {
      const res = await b.call('POST', '/events', {
        title: 'planted', calendarId, startsAt: '2033-01-20T10:00:00Z', endsAt: '2033-01-20T11:00:00Z',
      });
      expectNotFound(res, `POST /events in ${calendarId}`);
    }
  });

  it("B cannot create a calendar in A's Spaces: 404", async () => {
    for (const spaceId of [aUser.personalSpaceId, aShared.space.id]) {
      expectNotFound(await b.call('POST', '/calendars', { name: 'planted', spaceId }), `POST /calendars in ${spaceId}`);
    }
  });

  it("A's conflicts do not reach B: B's own event at the same time with the same resource is fine", async () => {
    const res = await b.call('POST', '/events', {
      title: 'B room', startsAt: aRoomEvent.startsAt, endsAt: aRoomEvent.endsAt, resources: ['room:blue'],
    });
    expect(res.status).toBe(201);
    const busy = await b.call('POST', '/events', { title: 'B busy', startsAt: aEvent.startsAt, endsAt: aEvent.endsAt });
    expect(busy.status).toBe(201);
  });
});

describe("B's reads never show A's data", () => {
  it("GET /events (also filtered by A's Space ids) holds none of A's events", async () => {
    const aIds = [aEvent.id, aRoomEvent.id, aSharedEvent.id];
    for (const e of await eventsOf(b)) expect(aIds).not.toContain(e.id);
    expect(await eventsOf(b, `&space=${aUser.personalSpaceId}`)).toEqual([]);
    expect(await eventsOf(b, `&space=${aShared.space.id}&space=${aUser.personalSpaceId}`)).toEqual([]);
  });

  it("GET /calendars and GET /spaces hold none of A's", async () => {
    const calendars = await b.call('GET', '/calendars');
    expect(calendars.status).toBe(200);
    const calIds = calendars.body.calendars.map((c: { id: string }) => c.id);
    expect(calIds).not.toContain(aUser.defaultCalendarId);
    expect(calIds).not.toContain(aShared.calendar.id);
    for (const cal of calendars.body.calendars) expect([aUser.personalSpaceId, aShared.space.id]).not.toContain(cal.spaceId);

    const spaces = await b.call('GET', '/spaces');
    expect(spaces.status).toBe(200);
    const spaceIds = spaces.body.spaces.map((s: { id: string }) => s.id);
    expect(spaceIds).not.toContain(aUser.personalSpaceId);
    expect(spaceIds).not.toContain(aShared.space.id);
    for (const s of spaces.body.spaces) expect(s.ownerId).toBe(b.userId);
  });

  it("GET /sync and /me/bootstrap hold none of A's rows", async () => {
    const aIds = new Set([
      aEvent.id, aRoomEvent.id, aSharedEvent.id, aUser.personalSpaceId, aUser.defaultCalendarId, aShared.space.id, aShared.calendar.id,
    ]);
    const page = await b.call('GET', `/sync?since=${encodeURIComponent('2000-01-01T00:00:00Z')}`);
    expect(page.status).toBe(200);
    const rows = [...page.body.changes.events, ...page.body.changes.calendars, ...page.body.changes.spaces];
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(aIds.has(r.id)).toBe(false);

    const boot = await b.call('GET', '/me/bootstrap');
    expect(boot.status).toBe(200);
    expect(boot.body.user.id).toBe(b.userId);
    for (const r of [...boot.body.spaces, ...boot.body.calendars]) expect(aIds.has(r.id)).toBe(false);
  });

  it("GET /inbox holds nothing of A's", async () => {
    const inbox = await b.call('GET', '/inbox');
    expect(inbox.status).toBe(200);
    expect(inbox.body.items).toEqual([]);
  });
});

describe("after B's attempts", () => {
  it("nothing of A's changed", async () => {
    // Run B's write attempts once more right before comparing, so this test stands on its own.
    await b.call('PATCH', `/events/${aEvent.id}`, { title: 'pwned' });
    await b.call('DELETE', `/events/${aSharedEvent.id}`);
    await b.call('POST', '/events', { title: 'planted', calendarId: aUser.defaultCalendarId, startsAt: '2033-01-21T10:00:00Z', endsAt: '2033-01-21T11:00:00Z' });
    await b.call('POST', '/calendars', { name: 'planted', spaceId: aUser.personalSpaceId });
    expect(await snapshotOfA()).toEqual(snapshotBefore);
  });
});
