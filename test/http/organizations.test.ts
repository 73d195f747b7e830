/**
 * Organizations over HTTP (addendum): POST /organizations, POST /organizations/{id}/members by the owner and admins,
 * members listing it in GET /organizations, its calendars shared with them as writers, and task assignment between
 * members of one organization (write-api/tasks/assignee.ts: an assignee must share a Space with the owner).
 */
import { randomUUID } from 'node:crypto';
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { signUp, useTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
useTestService((s) => (svc = s));

const head = () => svc.service.context.events.headPosition();
const organizationsOf = async (c: Client) => {
  const res = await c.call('GET', '/organizations');
  expect(res.status).toBe(200);
  return res.body.organizations as Array<{ id: string; name: string; role: string }>;
};
const add = (by: Client, orgId: string, who: Client, role = 'member') => by.call('POST', `/organizations/${orgId}/members`, { email: who.email, role });

async function organization(owner: Client, name = 'Design team') {
  const res = await owner.call('POST', '/organizations', { name });
  expect(res.status).toBe(201);
  return res.body.organization as { id: string; name: string; role: string; spaceIds: string[]; createdAt: string };
}

describe('POST /organizations', () => {
  it('201: a shared Space the caller owns, listed in GET /organizations, /spaces and its calendar in /calendars', async () => {
    const [owner, stranger] = await Promise.all([signUp(svc.base), signUp(svc.base)]);
    const org = await organization(owner);
    expect(org).toEqual({ id: expect.any(String), name: 'Design team', role: 'owner', spaceIds: [org.id], createdAt: expect.any(String) });
    expect(await organizationsOf(owner)).toEqual([org]);
    expect((await owner.call('GET', '/spaces')).body.spaces.find((s: { id: string }) => s.id === org.id)).toMatchObject({ kind: 'shared', ownerId: owner.userId });
    expect((await owner.call('GET', '/calendars')).body.calendars.filter((c: { spaceId: string }) => c.spaceId === org.id)).toEqual([
      expect.objectContaining({ name: 'Design team', role: 'owner', isDefault: true }),
    ]);
    expect(await organizationsOf(stranger)).toEqual([]);
  });

  it('400 for a blank or missing name, writing nothing', async () => {
    const owner = await signUp(svc.base);
    const before = await head();
    expectInvalid(await owner.call('POST', '/organizations', { name: '   ' }), 'body.name');
    expectInvalid(await owner.call('POST', '/organizations', {}), 'body.name');
    expect(await head()).toBe(before);
  });
});

describe('POST /organizations/{id}/members', () => {
  it('the owner adds a member and an admin; each lists it with their role; the admin adds a third person', async () => {
    const [owner, member, admin, third, stranger] = await Promise.all(Array.from({ length: 5 }, () => signUp(svc.base)));
    const org = await organization(owner);
    const added = await add(owner, org.id, member);
    expect(added.status).toBe(201);
    expect(added.body).toEqual({
      member: { organizationId: org.id, userId: member.userId, email: member.email, name: 'Test User', role: 'member', createdAt: expect.any(String) },
    });
    expect((await add(owner, org.id, admin, 'admin')).status).toBe(201);
    expect((await add(admin, org.id, third)).status).toBe(201);
    for (const [who, role] of [[owner, 'owner'], [member, 'member'], [admin, 'admin'], [third, 'member']] as const) {
      expect(await organizationsOf(who)).toEqual([{ ...org, role }]);
    }
    expect(await organizationsOf(stranger)).toEqual([]);
    // Promoting a member is adding them again with another role.
    expect((await add(owner, org.id, member, 'admin')).body.member).toMatchObject({ role: 'admin', createdAt: added.body.member.createdAt });
    expect((await organizationsOf(member))[0].role).toBe('admin');
  });

  it('refusals write nothing: member 403, stranger 404, personal Space 404, unknown email 404, owner 409, bad role 400', async () => {
    const [owner, member, stranger] = await Promise.all(Array.from({ length: 3 }, () => signUp(svc.base)));
    const org = await organization(owner);
    await add(owner, org.id, member);
    const personal = (await owner.call('GET', '/me')).body.user.personalSpaceId as string;
    const before = await head();
    expectError(await add(member, org.id, stranger), 403, 'forbidden');
    expectNotFound(await add(stranger, org.id, stranger));
    expectNotFound(await add(owner, personal, member));
    expectNotFound(await add(owner, randomUUID(), member));
    expectNotFound(await owner.call('POST', `/organizations/${org.id}/members`, { email: 'no-such-user@example.com', role: 'member' }));
    expectError(await add(owner, org.id, owner), 409, 'already_owner');
    expectInvalid(await add(owner, org.id, stranger, 'owner'), 'body.role');
    expect(await head()).toBe(before);
    expect(await organizationsOf(stranger)).toEqual([]);
  });
});

describe('working together in an organization', () => {
  it('members see its calendar\'s events and write there (writers); a stranger sees nothing', async () => {
    const [owner, member, stranger] = await Promise.all(Array.from({ length: 3 }, () => signUp(svc.base)));
    const org = await organization(owner);
    await add(owner, org.id, member);
    const calendar = (await member.call('GET', '/calendars')).body.calendars.find((c: { spaceId: string }) => c.spaceId === org.id);
    expect(calendar.role).toBe('writer');
    const created = await member.call('POST', '/events', { title: 'Team lunch', calendarId: calendar.id, startsAt: '2031-09-01T11:00:00Z', endsAt: '2031-09-01T12:00:00Z' });
    expect(created.status).toBe(201);
    expect((await owner.call('GET', `/events/${created.body.event.id}`)).body.event).toMatchObject({ title: 'Team lunch', spaceId: org.id });
    expectNotFound(await stranger.call('GET', `/events/${created.body.event.id}`));
    // A member may not add calendars to it (admins may).
    expectNotFound(await member.call('POST', '/calendars', { name: 'Side project', spaceId: org.id }));
  });

  it('tasks may be assigned between members of one organization, not to someone outside it', async () => {
    const [owner, member, stranger] = await Promise.all(Array.from({ length: 3 }, () => signUp(svc.base)));
    expectNotFound(await owner.call('POST', '/tasks', { title: 'Draft the brief', assigneeId: member.userId }));
    const org = await organization(owner);
    await add(owner, org.id, member);
    const given = await owner.call('POST', '/tasks', { title: 'Draft the brief', assigneeId: member.userId });
    expect(given.status).toBe(201);
    expect((await member.call('GET', '/tasks')).body.tasks.map((t: { id: string }) => t.id)).toEqual([given.body.task.id]);
    // And the other way round: the member gives the owner one of their own tasks.
    expect((await member.call('POST', '/tasks', { title: 'Review it', assigneeId: owner.userId })).status).toBe(201);
    expectNotFound(await owner.call('POST', '/tasks', { title: 'Outside', assigneeId: stranger.userId }));
  });
});
