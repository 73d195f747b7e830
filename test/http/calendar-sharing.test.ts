/**
 * Sharing a calendar over HTTP (addendum, "Sharing calendars"), with three people: the owner, the person it is
 * shared with (in each role in turn) and a stranger. Every endpoint and role: what the member lists and may do, the
 * refusals (and that they write nothing), and a role taken away ending at once.
 */
import { randomUUID } from 'node:crypto';
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { instantBetweenWrites, request, signUp, useTestService, type ApiResponse, type Client, type TestService } from '../support/service';

let svc: TestService;
useTestService((s) => (svc = s));

const FROM = '2031-05-01T00:00:00Z';
const TO = '2031-06-01T00:00:00Z';
const head = () => svc.service.context.events.headPosition();

const eventsOf = async (c: Client) => {
  const res = await c.call('GET', `/events?from=${FROM}&to=${TO}`);
  expect(res.status).toBe(200);
  return res.body.events as Array<Record<string, any>>;
};
const calendarsOf = async (c: Client) => {
  const res = await c.call('GET', '/calendars');
  expect(res.status).toBe(200);
  return res.body.calendars as Array<{ id: string; role: string; name: string }>;
};
const expectForbidden = (res: ApiResponse) => expectError(res, 403, 'forbidden');

interface World {
  owner: Client;
  member: Client;
  stranger: Client;
  calendarId: string;
  event: Record<string, any>;
  private: Record<string, any>;
}

/** The owner's calendar "Team plans" with a detailed event, their default calendar with another, and two others. */
async function world(): Promise<World> {
  const [owner, member, stranger] = await Promise.all([signUp(svc.base), signUp(svc.base), signUp(svc.base)]);
  const calendar = await owner.call('POST', '/calendars', { name: 'Team plans', color: '#aa3300' });
  expect(calendar.status).toBe(201);
  const calendarId = calendar.body.calendar.id as string;
  const event = (await owner.call('POST', '/events', {
    title: 'Board review', calendarId, startsAt: '2031-05-05T09:00:00Z', endsAt: '2031-05-05T10:00:00Z', location: 'Room 7',
    description: 'Numbers for Q2', attendees: [{ email: 'guest@example.com', name: 'A Guest' }],
  })).body.event;
  const privateEvent = (await owner.call('POST', '/events', { title: 'Dentist', startsAt: '2031-05-06T09:00:00Z', endsAt: '2031-05-06T10:00:00Z' })).body.event;
  return { owner, member, stranger, calendarId, event, private: privateEvent };
}

const share = (w: World, role: string, who: Client = w.member) => w.owner.call('POST', `/calendars/${w.calendarId}/members`, { email: who.email, role });

describe('POST /calendars/{id}/members', () => {
  it('the owner shares: 201 {member}, the member lists the calendar with its role, the stranger does not', async () => {
    const w = await world();
    const res = await share(w, 'reader');
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      member: {
        calendarId: w.calendarId, userId: w.member.userId, email: w.member.email, name: 'Test User', role: 'reader',
        createdAt: expect.any(String), updatedAt: res.body.member.createdAt,
      },
    });
    expect((await calendarsOf(w.member)).filter((c) => c.id === w.calendarId)).toEqual([expect.objectContaining({ name: 'Team plans', role: 'reader' })]);
    expect((await calendarsOf(w.stranger)).map((c) => c.id)).not.toContain(w.calendarId);
    expect((await calendarsOf(w.owner)).find((c) => c.id === w.calendarId)?.role).toBe('owner');
    // /me/bootstrap lists the same calendars, with the same roles.
    const bootstrap = await w.member.call('GET', '/me/bootstrap');
    expect(bootstrap.body.calendars.map((c: { id: string; role: string }) => [c.id, c.role])).toEqual((await calendarsOf(w.member)).map((c) => [c.id, c.role]));
  });

  it('again with another role: 201 with the new role; GET lists each member once', async () => {
    const w = await world();
    const first = (await share(w, 'reader')).body.member;
    const again = await share(w, 'writer');
    expect(again.status).toBe(201);
    expect(again.body.member).toMatchObject({ role: 'writer', createdAt: first.createdAt });
    const same = await share(w, 'writer');
    expect(same.body.member).toEqual(again.body.member);
    expect((await calendarsOf(w.member)).find((c) => c.id === w.calendarId)?.role).toBe('writer');
    const listed = await w.owner.call('GET', `/calendars/${w.calendarId}/members`);
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({ members: [again.body.member], nextPageToken: null });
  });

  it('refusals write nothing: stranger 404, member 403, unknown email 404, owner 409, bad role 400, API key 403', async () => {
    const w = await world();
    await share(w, 'writer');
    const key = (await w.owner.call('POST', '/api-keys', { name: 'k', scopes: ['calendars:write', 'calendars:read'] })).body.key as string;
    const before = await head();
    expectNotFound(await w.stranger.call('POST', `/calendars/${w.calendarId}/members`, { email: w.stranger.email, role: 'reader' }));
    expectForbidden(await w.member.call('POST', `/calendars/${w.calendarId}/members`, { email: w.stranger.email, role: 'reader' }));
    const unknown = await w.owner.call('POST', `/calendars/${w.calendarId}/members`, { email: 'nobody-here@example.com', role: 'reader' });
    expectNotFound(unknown);
    expectNotFound(await w.owner.call('POST', `/calendars/${randomUUID()}/members`, { email: w.stranger.email, role: 'reader' }));
    expectError(await share(w, 'reader', w.owner), 409, 'already_owner');
    expectInvalid(await share(w, 'admin'), 'body.role');
    expectInvalid(await w.owner.call('POST', `/calendars/${w.calendarId}/members`, { email: 'not an email', role: 'reader' }), 'body.email');
    const viaKey = await request(svc.base, 'POST', `/calendars/${w.calendarId}/members`, { email: w.stranger.email, role: 'reader' }, { authorization: `Bearer ${key}` });
    expectError(viaKey, 403, 'session_required');
    expect(await head()).toBe(before);
    expect((await calendarsOf(w.stranger)).map((c) => c.id)).not.toContain(w.calendarId);
  });

  it('GET members: the owner only (member 403, stranger 404), paged', async () => {
    const w = await world();
    const others = await Promise.all([signUp(svc.base), signUp(svc.base)]);
    await share(w, 'reader');
    for (const o of others) await share(w, 'freeBusyReader', o);
    expectForbidden(await w.member.call('GET', `/calendars/${w.calendarId}/members`));
    expectNotFound(await w.stranger.call('GET', `/calendars/${w.calendarId}/members`));
    const seen: string[] = [];
    let token: string | null = null;
    do {
      const res: ApiResponse = await w.owner.call('GET', `/calendars/${w.calendarId}/members?limit=2${token ? `&pageToken=${token}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.members.length).toBeLessThanOrEqual(2);
      seen.push(...res.body.members.map((m: { userId: string }) => m.userId));
      token = res.body.nextPageToken;
    } while (token);
    expect(seen.sort()).toEqual([w.member.userId, ...others.map((o) => o.userId)].sort());
  });
});

describe('what each role sees and may do', () => {
  it('reader: sees the calendar\'s events (not the owner\'s others); may not create, change or cancel (403)', async () => {
    const w = await world();
    await share(w, 'reader');
    const listed = await eventsOf(w.member);
    expect(listed.map((e) => e.id)).toEqual([w.event.id]);
    expect(listed[0]).toMatchObject({ title: 'Board review', location: 'Room 7', attendees: [expect.objectContaining({ email: 'guest@example.com' })] });
    expect((await w.member.call('GET', `/events/${w.event.id}`)).body.event).toMatchObject({ id: w.event.id, title: 'Board review' });
    expectNotFound(await w.member.call('GET', `/events/${w.private.id}`));
    const before = await head();
    expectForbidden(await w.member.call('PATCH', `/events/${w.event.id}`, { title: 'Mine now' }));
    expectForbidden(await w.member.call('DELETE', `/events/${w.event.id}`));
    expectForbidden(await w.member.call('POST', '/events', { title: 'Sneaky', calendarId: w.calendarId, startsAt: '2031-05-07T09:00:00Z', endsAt: '2031-05-07T10:00:00Z' }));
    expect(await head()).toBe(before);
    expect((await w.owner.call('GET', `/events/${w.event.id}`)).body.event).toMatchObject({ title: 'Board review', version: 1 });
    // The stranger sees nothing of it, as before.
    expect(await eventsOf(w.stranger)).toEqual([]);
    expectNotFound(await w.stranger.call('GET', `/events/${w.event.id}`));
  });

  it('writer: creates, changes and cancels events of that calendar, in the owner\'s Space; nothing else of the owner\'s', async () => {
    const w = await world();
    await share(w, 'writer');
    const created = await w.member.call('POST', '/events', {
      title: 'Added by the writer', calendarId: w.calendarId, startsAt: '2031-05-08T09:00:00Z', endsAt: '2031-05-08T10:00:00Z',
    });
    expect(created.status).toBe(201);
    expect(created.body.event).toMatchObject({ spaceId: w.event.spaceId, calendarId: w.calendarId, createdBy: w.member.userId });
    expect((await eventsOf(w.owner)).map((e) => e.id)).toContain(created.body.event.id);
    const changed = await w.member.call('PATCH', `/events/${w.event.id}`, { title: 'Board review (moved)', startsAt: '2031-05-05T11:00:00Z', endsAt: '2031-05-05T12:00:00Z' });
    expect(changed.status).toBe(200);
    expect((await w.owner.call('GET', `/events/${w.event.id}`)).body.event).toMatchObject({ title: 'Board review (moved)', version: 2 });
    // A writer's event still obeys the calendar's conflicts.
    const clash = await w.member.call('POST', '/events', { title: 'Clash', calendarId: w.calendarId, startsAt: '2031-05-05T11:30:00Z', endsAt: '2031-05-05T12:30:00Z' });
    expectError(clash, 409, 'time_conflict');
    expect((await w.member.call('DELETE', `/events/${created.body.event.id}`)).status).toBe(204);
    expectNotFound(await w.owner.call('GET', `/events/${created.body.event.id}`));

    const before = await head();
    expectNotFound(await w.member.call('PATCH', `/events/${w.private.id}`, { title: 'Nope' }));
    expectNotFound(await w.member.call('PATCH', `/events/${w.event.id}`, { calendarId: (await calendarsOf(w.owner)).find((c) => c.role === 'owner' && c.id !== w.calendarId)!.id }));
    expectNotFound(await w.stranger.call('PATCH', `/events/${w.event.id}`, { title: 'Nope' }));
    expect(await head()).toBe(before);
  });

  it('freeBusyReader: the calendar is listed, its events never (GET /events, /events/{id}); only busy intervals', async () => {
    const w = await world();
    await share(w, 'freeBusyReader');
    expect((await calendarsOf(w.member)).find((c) => c.id === w.calendarId)?.role).toBe('freeBusyReader');
    expect(await eventsOf(w.member)).toEqual([]);
    expectNotFound(await w.member.call('GET', `/events/${w.event.id}`));
    expectNotFound(await w.member.call('PATCH', `/events/${w.event.id}`, { title: 'x' }));
    const busy = await w.member.call('POST', '/free-busy', { from: FROM, to: TO, people: [w.owner.email] });
    expect(busy.status).toBe(200);
    expect(busy.body.people).toEqual([{ id: w.owner.userId, email: w.owner.email, busy: [{ startsAt: '2031-05-05T09:00:00.000Z', endsAt: '2031-05-05T10:00:00.000Z' }] }]);
    const text = JSON.stringify([busy.body, await calendarsOf(w.member), (await w.member.call('GET', '/me/bootstrap')).body]);
    for (const secret of ['Board review', 'Room 7', 'guest@example.com', 'Numbers for Q2', 'Dentist']) expect(text).not.toContain(secret);
  });

  it('a role taken away: 204, and the next request no longer sees the calendar or its events (404)', async () => {
    const w = await world();
    await share(w, 'writer');
    expect((await w.member.call('GET', `/events/${w.event.id}`)).status).toBe(200);
    const removed = await w.owner.call('DELETE', `/calendars/${w.calendarId}/members/${w.member.userId}`);
    expect(removed.status).toBe(204);
    expectNotFound(await w.member.call('GET', `/events/${w.event.id}`));
    expectNotFound(await w.member.call('PATCH', `/events/${w.event.id}`, { title: 'Too late' }));
    expect(await eventsOf(w.member)).toEqual([]);
    expect((await calendarsOf(w.member)).map((c) => c.id)).not.toContain(w.calendarId);
    const busy = await w.member.call('POST', '/free-busy', { from: FROM, to: TO, people: [w.owner.email] });
    expect(busy.body.people).toEqual([{ id: null, email: w.owner.email, busy: [], error: 'not_shared' }]);
    expect((await w.owner.call('GET', `/calendars/${w.calendarId}/members`)).body.members).toEqual([]);
    expectNotFound(await w.owner.call('DELETE', `/calendars/${w.calendarId}/members/${w.member.userId}`));
  });

  it('a member may leave; nobody else but the owner may take a role away', async () => {
    const w = await world();
    await share(w, 'reader');
    await share(w, 'writer', w.stranger);
    expectForbidden(await w.stranger.call('DELETE', `/calendars/${w.calendarId}/members/${w.member.userId}`));
    expect((await w.member.call('DELETE', `/calendars/${w.calendarId}/members/${w.member.userId}`)).status).toBe(204);
    expect((await calendarsOf(w.member)).map((c) => c.id)).not.toContain(w.calendarId);
    expectNotFound(await w.member.call('DELETE', `/calendars/${w.calendarId}/members/${w.stranger.userId}`));
  });

  it('time travel (GET /events?asOf=) reads a shared calendar as it was, with the roles as they are now', async () => {
    const w = await world();
    await share(w, 'reader');
    const before = await instantBetweenWrites();
    expect((await w.owner.call('PATCH', `/events/${w.event.id}`, { title: 'Board review (v2)' })).status).toBe(200);
    const asOf = async () => (await w.member.call('GET', `/events?from=${FROM}&to=${TO}&asOf=${encodeURIComponent(before)}`)).body.events;
    expect((await asOf()).map((e: { title: string }) => e.title)).toEqual(['Board review']);
    await share(w, 'freeBusyReader');
    expect(await asOf()).toEqual([]);
  });
});
