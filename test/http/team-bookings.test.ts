/**
 * Team meeting types over real HTTP, with an owner, hosts from one organization, an outsider and guests: who may host,
 * collective slots (every host free) and bookings (the event in every host's calendar, moved and cancelled together,
 * all or nothing when two guests race or a host's own booking takes the time meanwhile), round robin (any host free;
 * 20 guests for one slot with two hosts: two win, never one host twice; 300 bookings over three hosts within one of
 * each other, each saying why), and the roles of everyone around a booking.
 */
import { expectError, expectNotFound } from '../support/api-expect';
import { ALL_DAY_EVERY_DAY, asGuest, guest, mondayAhead, type Host } from '../support/bookings';
import { DELIVERY_WAIT_MS, until } from '../support/receiver';
import { request, signUp, useTestService, type ApiResponse, type Client, type TestService } from '../support/service';
import { addDays, epochAt } from '../../services/time/local-time';
import { scheduleDecider, scheduleStream } from '../../write-api/schedule/schedule.decider';

jest.setTimeout(120_000);

let svc: TestService;
useTestService((s) => (svc = s), { RATE_LIMIT_PER_IP: '100000' });

const UTC = 'UTC';
const H = 60;

const MONDAY = mondayAhead(UTC);
const utc = (minute: number, date = MONDAY) => new Date(epochAt(date, minute, UTC)).toISOString();

interface Team {
  owner: Client;
  hosts: Client[];
  organizationId: string;
}

/** An owner and `count` members of one organization (the owner first among `hosts` when `ownerHosts`). */
async function team(count: number): Promise<Team> {
  const owner = await signUp(svc.base, { name: 'Olga Owner', timeZone: UTC });
  const created = await owner.call('POST', '/organizations', { name: 'Support' });
  expect(created.status).toBe(201);
  const organizationId = created.body.organization.id as string;
  const hosts: Client[] = [];
  for (let i = 0; i < count; i++) {
    const member = await signUp(svc.base, { name: `Host ${i + 1}`, timeZone: UTC });
    expect((await owner.call('POST', `/organizations/${organizationId}/members`, { email: member.email, role: 'member' })).status).toBe(201);
    hosts.push(member);
  }
  return { owner, hosts, organizationId };
}

async function teamType(t: Team, hosts: Client[], body: Record<string, unknown>): Promise<Host> {
  const me = await t.owner.call('GET', '/me');
  const res = await t.owner.call('POST', '/meeting-types', {
    name: 'Team call', slug: `team-${Math.random().toString(36).slice(2, 8)}`, durationMinutes: 30, hours: ALL_DAY_EVERY_DAY,
    hosts: hosts.map((h) => h.userId), ...body,
  });
  expect(res.status).toBe(201);
  const username = me.body.user.username as string;
  return { client: t.owner, username, type: res.body.meetingType, page: `/public/${username}/${res.body.meetingType.slug}` };
}

const book = (host: Host, startsAt: string, n = 0, extra: Record<string, unknown> = {}) =>
  request(svc.base, 'POST', `${host.page}/bookings`, { startsAt, guest: guest(n), ...extra });

async function booked(host: Host, startsAt: string, n = 0) {
  const res = await book(host, startsAt, n);
  expect(res.status).toBe(201);
  return { booking: res.body.booking as Record<string, any>, token: res.body.manageToken as string };
}

const slotStarts = async (host: Host, date = MONDAY) => {
  const res = await request(svc.base, 'GET', `${host.page}/slots?from=${date}&days=1&timeZone=${UTC}`);
  expect(res.status).toBe(200);
  return res.body.slots.map((s: { startsAt: string }) => s.startsAt) as string[];
};

/** The host's live events of the team type between two instants. */
const teamEvents = async (c: Client, from = utc(0), to = utc(24 * H)) => {
  const res = await c.call('GET', `/events?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return (res.body.events as Array<Record<string, any>>).filter((e) => e.title.startsWith('Team call'));
};

const busyAt = (c: Client, startsAt: string, endsAt: string) => c.call('POST', '/events', { title: 'Busy', startsAt, endsAt });

describe('who may host a team type', () => {
  it('takes members of one of the owner\'s organizations (the owner too) and refuses anyone else (404 naming them), writing nothing', async () => {
    const t = await team(2);
    const outsider = await signUp(svc.base);
    const type = await teamType(t, [t.owner, ...t.hosts], { assignment: 'round_robin' });
    expect(type.type).toMatchObject({ hosts: [t.owner.userId, t.hosts[0].userId, t.hosts[1].userId], assignment: 'round_robin' });
    const before = await svc.service.context.events.headPosition();
    const res = await t.owner.call('POST', '/meeting-types', { name: 'X', slug: 'x', durationMinutes: 30, hosts: [t.hosts[0].userId, outsider.userId] });
    expectNotFound(res);
    expect(res.body.error.details).toEqual({ hosts: [outsider.userId] });
    // Members of two different organizations of the owner are not of one.
    const other = await team(0);
    const elsewhere = await signUp(svc.base);
    const second = await t.owner.call('POST', '/organizations', { name: 'Other' });
    await t.owner.call('POST', `/organizations/${second.body.organization.id}/members`, { email: elsewhere.email, role: 'member' });
    const after = await svc.service.context.events.headPosition();
    expectNotFound(await t.owner.call('POST', '/meeting-types', { name: 'X', slug: 'x', durationMinutes: 30, hosts: [t.hosts[0].userId, elsewhere.userId] }));
    expectNotFound(await t.owner.call('PATCH', '/meeting-types', { id: type.type.id, hosts: [outsider.userId] }));
    expect(await svc.service.context.events.headPosition()).toBe(after);
    expect(after).toBeGreaterThan(before);
    // A member may not list the organization's owner's types as theirs.
    expectNotFound(await t.hosts[0].call('PATCH', '/meeting-types', { id: type.type.id, name: 'Mine' }));
    expect(other.hosts).toEqual([]);
  });

  it('shows the guest the team: the owner\'s page and every host', async () => {
    const t = await team(2);
    const type = await teamType(t, t.hosts, { assignment: 'collective' });
    const page = await request(svc.base, 'GET', type.page);
    expect(page.body.host.name).toBe('Olga Owner');
    expect(page.body.hosts.map((h: { name: string }) => h.name)).toEqual(['Host 1', 'Host 2']);
    expect(page.body.meetingType.assignment).toBe('collective');
  });
});

describe('collective', () => {
  it('offers a slot only when every host is free', async () => {
    const t = await team(2);
    const type = await teamType(t, t.hosts, { assignment: 'collective', hours: [{ day: 1, startMinute: 9 * H, endMinute: 11 * H }] });
    expect(await slotStarts(type)).toHaveLength(7);
    expect((await busyAt(t.hosts[1], utc(10 * H), utc(11 * H))).status).toBe(201);
    expect(await slotStarts(type)).toEqual([9 * H, 9 * H + 15, 9 * H + 30].map((m) => utc(m)));
    expectError(await book(type, utc(10 * H)), 409, 'slot_taken');
  });

  it('puts the event in every host\'s calendar; each host sees the booking with their own event', async () => {
    const t = await team(2);
    const type = await teamType(t, t.hosts, { assignment: 'collective' });
    const { booking } = await booked(type, utc(9 * H));
    expect(booking.host.name).toBe('Host 1');
    expect(booking.hosts.map((h: { name: string }) => h.name)).toEqual(['Host 1', 'Host 2']);
    const [mine, theirs] = await Promise.all(t.hosts.map((h) => teamEvents(h)));
    expect([mine.length, theirs.length]).toEqual([1, 1]);
    expect(mine[0].id).not.toBe(theirs[0].id);
    for (const e of [mine[0], theirs[0]]) expect(e).toMatchObject({ startsAt: utc(9 * H), endsAt: utc(9 * H + 30), busy: true });
    const lists = await Promise.all([t.owner, ...t.hosts].map((c) => c.call('GET', '/bookings')));
    const seen = lists.map((l) => l.body.bookings as Array<Record<string, any>>);
    for (const list of seen) expect(list.map((b) => b.id)).toEqual([booking.id]);
    expect(seen[1][0]).toMatchObject({ hostId: t.hosts[0].userId, hostIds: [t.hosts[0].userId, t.hosts[1].userId], ownerId: t.owner.userId, eventId: mine[0].id });
    expect(seen[1][0].assignment).toEqual({ method: 'collective', reason: null, bookingsInWindow: null, lastBookedAt: null });
    expect(seen[2][0].eventId).toBe(theirs[0].id);
    expect(await slotStarts(type)).not.toContain(utc(9 * H));
  });

  it('moves and cancels in every host\'s calendar together', async () => {
    const t = await team(2);
    const type = await teamType(t, t.hosts, { assignment: 'collective' });
    const { booking, token } = await booked(type, utc(9 * H));
    const moved = await t.hosts[1].call('POST', `/bookings/${booking.id}/reschedule`, { startsAt: utc(13 * H) });
    expect(moved.status).toBe(200);
    expect(moved.body.booking.eventId).toBe((await teamEvents(t.hosts[1]))[0].id);
    for (const h of t.hosts) expect((await teamEvents(h)).map((e) => e.startsAt)).toEqual([utc(13 * H)]);
    // The move's new time must be free for every host.
    expect((await busyAt(t.hosts[0], utc(15 * H), utc(16 * H))).status).toBe(201);
    expectError(await request(svc.base, 'POST', `/public/bookings/${booking.id}/reschedule`, { startsAt: utc(15 * H) }, asGuest(token)), 409, 'slot_taken');
    for (const h of t.hosts) expect((await teamEvents(h)).map((e) => e.startsAt)).toEqual([utc(13 * H)]);
    expect((await request(svc.base, 'POST', `/public/bookings/${booking.id}/cancel`, undefined, asGuest(token))).status).toBe(200);
    for (const h of t.hosts) expect(await teamEvents(h)).toEqual([]);
  });

  it('answers a retry with the same Idempotency-Key with the first booking, holding and booking nothing twice', async () => {
    const t = await team(2);
    const type = await teamType(t, t.hosts, { assignment: 'collective' });
    const body = { startsAt: utc(9 * H), guest: guest(1) };
    const first = await request(svc.base, 'POST', `${type.page}/bookings`, body, { 'Idempotency-Key': 'team-once' });
    const before = await svc.service.context.events.headPosition();
    const retry = await request(svc.base, 'POST', `${type.page}/bookings`, body, { 'Idempotency-Key': 'team-once' });
    expect([first.status, retry.status]).toEqual([201, 201]);
    expect(retry.body).toEqual(first.body);
    expect(await svc.service.context.events.headPosition()).toBe(before);
    for (const h of t.hosts) expect(await teamEvents(h)).toHaveLength(1);
  });

  it('of 20 guests racing for one slot, exactly one books it, and both calendars hold exactly that booking', async () => {
    const t = await team(2);
    const type = await teamType(t, t.hosts, { assignment: 'collective' });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => book(type, utc(10 * H), i)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, ...Array(19).fill(409)]);
    for (const a of answers.filter((x) => x.status === 409)) expect(a.body.error.code).toBe('slot_taken');
    const winner = answers.find((a) => a.status === 201)!;
    for (const h of t.hosts) {
      const events = await teamEvents(h);
      expect(events.map((e) => e.attendees[0].email)).toEqual([winner.body.booking.guest.email]);
    }
    // No loser left a hold behind: the next slot books at once for both hosts.
    expect((await book(type, utc(10 * H + 30), 99)).status).toBe(201);
  });

  it('stays all or nothing when a host\'s own booking takes the time between the holds: the first host keeps nothing', async () => {
    const t = await team(2);
    const [first, second] = [...t.hosts].sort((a, b) => a.userId.localeCompare(b.userId));
    const collective = await teamType(t, t.hosts, { assignment: 'collective' });
    const secondsOwn = await ownType(second);
    const firstsOwn = await ownType(first);
    for (let round = 0; round < 6; round++) {
      const at = utc(8 * H + round * 60);
      const [team, own] = await Promise.all([book(collective, at, round), book(secondsOwn, at, 100 + round)]);
      expect([team.status, own.status].sort()).toEqual([201, 409]);
      const firstEvents = (await teamEvents(first)).filter((e) => e.startsAt === at);
      if (team.status === 201) {
        expect(firstEvents).toHaveLength(1);
        expect((await teamEvents(second)).filter((e) => e.startsAt === at)).toHaveLength(1);
      } else {
        // Compensated: the first host holds nothing, and their own page books that time.
        expect(firstEvents).toEqual([]);
        expect((await book(firstsOwn, at, 200 + round)).status).toBe(201);
      }
    }
  });

  it('releases the holds it made when a later host refuses, so the first host is free again at once', async () => {
    const t = await team(2);
    const [first, second] = [...t.hosts].sort((a, b) => a.userId.localeCompare(b.userId));
    const collective = await teamType(t, t.hosts, { assignment: 'collective' });
    const firstsOwn = await ownType(first);
    // Another booking holds the second host's time (no read shows a hold): the first host is held, then released.
    const spaceId = (await second.call('GET', '/me')).body.user.personalSpaceId as string;
    const now = new Date();
    await svc.service.context.commands.handle(scheduleStream(spaceId), scheduleDecider, {
      type: 'HoldSlot', ignoreEventId: null, now: now.toISOString(),
      ask: { meetingTypeId: collective.type.id, buffers: { beforeMinutes: 0, afterMinutes: 0 }, quotas: [], seats: 1 },
      hold: {
        bookingId: '00000000-0000-4000-8000-0000000000aa', hostId: second.userId, meetingTypeId: collective.type.id, startsAt: utc(9 * H),
        endsAt: utc(9 * H + 30), heldAt: now.toISOString(), expiresAt: new Date(now.getTime() + 60_000).toISOString(),
      },
    }, { userId: null, commandId: 'foreign-hold', correlationId: 'test' });
    expectError(await book(collective, utc(9 * H)), 409, 'slot_taken');
    expect(await teamEvents(first)).toEqual([]);
    expect((await book(firstsOwn, utc(9 * H), 7)).status).toBe(201);
  });

  it('seats the guests of a slot in one event in each host\'s calendar, and refuses once the seats are gone', async () => {
    const t = await team(2);
    const type = await teamType(t, t.hosts, { assignment: 'collective', seats: 2 });
    const first = await booked(type, utc(9 * H), 1);
    await booked(type, utc(9 * H), 2);
    for (const h of t.hosts) {
      const events = await teamEvents(h);
      expect(events.map((e) => e.attendees.map((a: { email: string }) => a.email))).toEqual([[guest(1).email, guest(2).email]]);
    }
    expectError(await book(type, utc(9 * H), 3), 409, 'slot_taken');
    expect((await request(svc.base, 'POST', `/public/bookings/${first.booking.id}/cancel`, undefined, asGuest(first.token))).status).toBe(200);
    for (const h of t.hosts) expect((await teamEvents(h))[0].attendees.map((a: { email: string }) => a.email)).toEqual([guest(2).email]);
    expect((await book(type, utc(9 * H), 3)).status).toBe(201);
  });

  it('cancels the booking for everyone when a host cancels their own event of it', async () => {
    const t = await team(2);
    const type = await teamType(t, t.hosts, { assignment: 'collective' });
    const { booking, token } = await booked(type, utc(9 * H));
    const [theirs] = await teamEvents(t.hosts[1]);
    expect((await t.hosts[1].call('DELETE', `/events/${theirs.id}`)).status).toBe(204);
    const seen = () => request(svc.base, 'GET', `/public/bookings/${booking.id}/reschedule`, undefined, asGuest(token));
    await until(async () => (await seen()).body.booking.status === 'cancelled', DELIVERY_WAIT_MS, 'the booking cancelled');
    expect((await seen()).body.booking.cancelledBy).toBe('host');
    await until(async () => (await teamEvents(t.hosts[0])).length === 0, DELIVERY_WAIT_MS, 'the first host\'s event cancelled');
  });
});

/** A type of the user's own, open around the clock. */
async function ownType(c: Client): Promise<Host> {
  const me = await c.call('GET', '/me');
  const res = await c.call('POST', '/meeting-types', { name: 'Own call', slug: 'own', durationMinutes: 30, hours: ALL_DAY_EVERY_DAY });
  expect(res.status).toBe(201);
  return { client: c, username: me.body.user.username, type: res.body.meetingType, page: `/public/${me.body.user.username}/own` };
}

describe('round robin', () => {
  const hostOf = (res: ApiResponse) => res.body.booking.host.username as string;

  it('offers a slot when any host is free and gives the booking to a free one', async () => {
    const t = await team(2);
    const type = await teamType(t, t.hosts, { assignment: 'round_robin', hours: [{ day: 1, startMinute: 9 * H, endMinute: 10 * H }] });
    expect((await busyAt(t.hosts[0], utc(9 * H), utc(10 * H))).status).toBe(201);
    expect(await slotStarts(type)).toHaveLength(3);
    const res = await book(type, utc(9 * H));
    expect(res.status).toBe(201);
    const listed = (await t.hosts[1].call('GET', '/bookings')).body.bookings;
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({ hostId: t.hosts[1].userId, hostIds: [t.hosts[1].userId], assignment: { method: 'round_robin', reason: 'fewest_bookings' } });
    expect((await t.hosts[0].call('GET', '/bookings')).body.bookings).toEqual([]);
    expect(await teamEvents(t.hosts[1])).toHaveLength(1);
    expect((await busyAt(t.hosts[1], utc(9 * H + 30), utc(10 * H))).status).toBe(201);
    expect(await slotStarts(type)).toEqual([]);
  });

  it('counts the limits per host: a day at one host\'s limit goes to the other, then none is left', async () => {
    const t = await team(2);
    const type = await teamType(t, t.hosts, { assignment: 'round_robin', limits: { perDay: 1 } });
    const a = await book(type, utc(9 * H), 1);
    const b = await book(type, utc(11 * H), 2);
    expect([a.status, b.status]).toEqual([201, 201]);
    expect(new Set([hostOf(a), hostOf(b)]).size).toBe(2);
    expect(await slotStarts(type)).toEqual([]);
    const res = await book(type, utc(13 * H), 3);
    expectError(res, 409, 'slot_unavailable');
    expect(res.body.error.details).toEqual({ reason: 'day_limit' });
  });

  it('of 20 guests for one slot with two free hosts, two win, one with each host', async () => {
    const t = await team(2);
    const type = await teamType(t, t.hosts, { assignment: 'round_robin' });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => book(type, utc(10 * H), i)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 201, ...Array(18).fill(409)]);
    const won = answers.filter((a) => a.status === 201);
    expect(new Set(won.map(hostOf)).size).toBe(2);
    for (const h of t.hosts) expect(await teamEvents(h)).toHaveLength(1);
  });

  it('spreads 300 bookings over three hosts within one of each other, each booking saying why', async () => {
    const t = await team(3);
    const type = await teamType(t, t.hosts, { assignment: 'round_robin', durationMinutes: 15 });
    const reasons = new Set<string>();
    for (let i = 0; i < 300; i++) {
      const res = await book(type, utc(i * 15), i);
      expect(res.status).toBe(201);
    }
    const counts = await Promise.all(t.hosts.map(async (h) => {
      const all: Array<Record<string, any>> = [];
      let token: string | null = null;
      do {
        const page = await h.call('GET', `/bookings?limit=100${token ? `&pageToken=${token}` : ''}`);
        all.push(...page.body.bookings);
        token = page.body.nextPageToken;
      } while (token);
      for (const b of all) {
        expect(b.hostId).toBe(h.userId);
        reasons.add(b.assignment.reason);
      }
      return all.length;
    }));
    expect(counts.reduce((a, b) => a + b)).toBe(300);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
    expect([...reasons].sort()).toEqual(['fewest_bookings', 'longest_since_last']);
  });
});

describe('round robin at once', () => {
  it('keeps 60 bookings sent at once (each its own slot) over three hosts within one of each other', async () => {
    const t = await team(3);
    const type = await teamType(t, t.hosts, { assignment: 'round_robin', durationMinutes: 15 });
    const answers = await Promise.all(Array.from({ length: 60 }, (_, i) => book(type, utc(i * 15, addDays(MONDAY, 1)), i)));
    expect(answers.every((a) => a.status === 201)).toBe(true);
    const counts = await Promise.all(t.hosts.map(async (h) => (await h.call('GET', '/bookings?limit=100')).body.bookings.length as number));
    expect(counts.reduce((a, b) => a + b)).toBe(60);
    expect(Math.max(...counts) - Math.min(...counts)).toBeLessThanOrEqual(1);
  });
});

describe('everyone around a booking', () => {
  it('lets the owner and the booking\'s hosts act on it (confirm, see where it could move, cancel), and nobody else (404)', async () => {
    const t = await team(3);
    const outsider = await signUp(svc.base);
    const notHosting = t.hosts[2];
    const type = await teamType(t, t.hosts.slice(0, 2), { assignment: 'collective', requiresConfirmation: true });
    const { booking } = await booked(type, utc(9 * H));
    expect(booking.status).toBe('pending');
    for (const c of [outsider, notHosting]) {
      for (const action of ['confirm', 'decline', 'cancel']) expectNotFound(await c.call('POST', `/bookings/${booking.id}/${action}`));
      expectNotFound(await c.call('POST', `/bookings/${booking.id}/reschedule`, { startsAt: utc(12 * H) }));
      expectNotFound(await c.call('GET', `/bookings/${booking.id}/reschedule`));
      expect((await c.call('GET', '/bookings')).body.bookings).toEqual([]);
    }
    const confirmed = await t.hosts[1].call('POST', `/bookings/${booking.id}/confirm`);
    expect(confirmed.body.booking.status).toBe('confirmed');
    expect((await t.hosts[0].call('GET', `/bookings/${booking.id}/reschedule?from=${MONDAY}&days=1`)).status).toBe(200);
    const cancelled = await t.owner.call('POST', `/bookings/${booking.id}/cancel`);
    expect(cancelled.body.booking).toMatchObject({ status: 'cancelled', cancelledBy: 'host' });
    for (const h of t.hosts.slice(0, 2)) expect(await teamEvents(h)).toEqual([]);
  });
});
