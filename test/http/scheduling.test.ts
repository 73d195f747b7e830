/**
 * Scheduling with other people over HTTP (addendum): POST /free-busy and POST /meeting-suggestions. Ada (Berlin)
 * shares a calendar with Carol as freeBusyReader, Bob (New York) his default calendar as reader; Cy shares nothing.
 * Working hours are each person's own (Mon-Fri 09:00-17:00 by default) in their own zone: on Monday 8 September 2031
 * Berlin works 07:00-15:00Z, New York 13:00-21:00Z, Carol (UTC) 09:00-17:00Z, so all three meet 13:00-15:00Z.
 */
import { randomUUID } from 'node:crypto';
import { expectError, expectInvalid } from '../support/api-expect';
import { request, signUp, useTestService, type Client } from '../support/service';

let base: string;
useTestService((s) => (base = s.base));

const MONDAY = { from: '2031-09-08T00:00:00Z', to: '2031-09-09T00:00:00Z' };
const TUESDAY = { from: '2031-09-09T00:00:00Z', to: '2031-09-10T00:00:00Z' };
const SATURDAY = { from: '2031-09-13T00:00:00Z', to: '2031-09-14T00:00:00Z' };
const z = (day: number, hh: string) => `2031-09-${String(day).padStart(2, '0')}T${hh}:00.000Z`;

let ada: Client;
let bob: Client;
let carol: Client;
let cy: Client;
let adaShared: string;

async function event(c: Client, title: string, startsAt: string, endsAt: string, calendarId?: string) {
  const res = await c.call('POST', '/events', { title, startsAt, endsAt, location: 'Secret place', ...(calendarId ? { calendarId } : {}) });
  expect(res.status).toBe(201);
}

beforeAll(async () => {
  [ada, bob, carol, cy] = await Promise.all([
    signUp(base, { timeZone: 'Europe/Berlin' }), signUp(base, { timeZone: 'America/New_York' }), signUp(base, { timeZone: 'UTC' }),
    signUp(base, { timeZone: 'UTC' }),
  ]);
  adaShared = (await ada.call('POST', '/calendars', { name: 'Ada at work' })).body.calendar.id;
  const bobCalendar = (await bob.call('GET', '/me')).body.user.defaultCalendarId;
  expect((await ada.call('POST', `/calendars/${adaShared}/members`, { email: carol.email, role: 'freeBusyReader' })).status).toBe(201);
  expect((await bob.call('POST', `/calendars/${bobCalendar}/members`, { email: carol.email, role: 'reader' })).status).toBe(201);
  await event(ada, 'Ada busy', z(8, '13:00'), z(8, '14:00'), adaShared);
  await event(ada, 'Ada private', z(8, '08:00'), z(8, '09:00')); // her default calendar: not shared with anyone
  await event(bob, 'Bob busy', z(9, '13:00'), z(9, '15:00'));
  await event(carol, 'Carol busy', z(8, '16:00'), z(8, '16:30'));
  await event(cy, 'Cy busy', z(8, '10:00'), z(8, '11:00'));
});

const freeBusy = (c: Client, people: string[], range = MONDAY) => c.call('POST', '/free-busy', { ...range, people });
const suggest = (c: Client, attendees: string[], extra: Record<string, unknown> = {}) =>
  c.call('POST', '/meeting-suggestions', { ...MONDAY, attendees, durationMinutes: 30, ...extra });

describe('POST /free-busy', () => {
  it('each person\'s busy time across what they share with the caller; the caller\'s own as GET /free-busy has it', async () => {
    const res = await freeBusy(carol, [ada.email, bob.userId, carol.userId]);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      from: '2031-09-08T00:00:00.000Z', to: '2031-09-09T00:00:00.000Z',
      people: [
        { id: ada.userId, email: ada.email, busy: [{ startsAt: z(8, '13:00'), endsAt: z(8, '14:00') }] },
        { id: bob.userId, email: bob.email, busy: [] },
        { id: carol.userId, email: carol.email, busy: [{ startsAt: z(8, '16:00'), endsAt: z(8, '16:30') }] },
      ],
    });
    const own = await carol.call('GET', `/free-busy?from=${MONDAY.from}&to=${MONDAY.to}`);
    expect(own.body.busy).toEqual(res.body.people[2].busy);
    expect(JSON.stringify(res.body)).not.toMatch(/Ada busy|Ada private|Secret place/);
  });

  it('not_shared for a stranger and for nobody, by email or id alike: never their data, never a hint', async () => {
    const ghostId = randomUUID();
    const res = await freeBusy(carol, [cy.email, 'nobody-at-all@example.com', cy.userId, ghostId]);
    expect(res.status).toBe(200);
    expect(res.body.people).toEqual([
      { id: null, email: cy.email, busy: [], error: 'not_shared' },
      { id: null, email: 'nobody-at-all@example.com', busy: [], error: 'not_shared' },
      { id: cy.userId, email: null, busy: [], error: 'not_shared' },
      { id: ghostId, email: null, busy: [], error: 'not_shared' },
    ]);
    // Sharing is one way: Cy learns nothing of Ada, Ada nothing of Carol.
    expect((await freeBusy(cy, [ada.email])).body.people).toEqual([{ id: null, email: ada.email, busy: [], error: 'not_shared' }]);
    expect((await freeBusy(ada, [carol.userId])).body.people).toEqual([{ id: carol.userId, email: null, busy: [], error: 'not_shared' }]);
  });

  it('repeats count once; an API key needs availability:read', async () => {
    expect((await freeBusy(carol, [ada.email, ada.email.toUpperCase(), ada.email])).body.people).toHaveLength(1);
    const key = async (scopes: string[]) => (await carol.call('POST', '/api-keys', { name: 'k', scopes })).body.key as string;
    const withKey = async (scopes: string[]) =>
      request(base, 'POST', '/free-busy', { ...MONDAY, people: [ada.email] }, { authorization: `Bearer ${await key(scopes)}` });
    expect((await withKey(['availability:read'])).body.people[0].busy).toHaveLength(1);
    expectError(await withKey(['events:read']), 403, 'insufficient_scope');
  });

  it('an Idempotency-Key repeated answers the first answer again, for free/busy and suggestions alike', async () => {
    const headers = { 'idempotency-key': randomUUID() };
    const first = await carol.call('POST', '/free-busy', { ...MONDAY, people: [ada.email, bob.email] }, headers);
    expect(first.status).toBe(200);
    const again = await carol.call('POST', '/free-busy', { ...MONDAY, people: [ada.email, bob.email] }, headers);
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    const body = { attendees: [ada.email, bob.email], durationMinutes: 30, ...MONDAY };
    const suggestions = { 'idempotency-key': randomUUID() };
    const asked = await carol.call('POST', '/meeting-suggestions', body, suggestions);
    expect(asked.body.suggestions.length).toBeGreaterThan(0);
    expect((await carol.call('POST', '/meeting-suggestions', body, suggestions)).body).toEqual(asked.body);
  });

  it('400 beyond the bounds: over 50 people, over 62 days, to not after from, a malformed person', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `p${i}@example.com`);
    expectInvalid(await freeBusy(carol, many), 'body.people');
    expectInvalid(await freeBusy(carol, []), 'body.people');
    expectInvalid(await carol.call('POST', '/free-busy', { from: '2031-09-01T00:00:00Z', to: '2031-11-03T00:00:00Z', people: [ada.email] }), 'body.to');
    expectInvalid(await carol.call('POST', '/free-busy', { from: MONDAY.to, to: MONDAY.from, people: [ada.email] }), 'body.to');
    expectInvalid(await freeBusy(carol, ['not-a-person']), 'body.people.0');
  });
});

describe('POST /meeting-suggestions', () => {
  it('inside everyone\'s working hours, each in their zone, outside busy time: best first', async () => {
    const res = await suggest(carol, [ada.email, bob.userId, carol.email]);
    expect(res.status).toBe(200);
    expect(res.body.emptySuggestionsReason).toBeUndefined();
    expect(res.body.suggestions.map((s: { startsAt: string }) => s.startsAt)).toEqual([z(8, '14:00'), z(8, '14:15'), z(8, '14:30')]);
    expect(res.body.suggestions[0]).toEqual({
      startsAt: z(8, '14:00'), endsAt: z(8, '14:30'), confidence: 100,
      attendees: [
        { id: ada.userId, email: ada.email, free: true }, { id: bob.userId, email: bob.email, free: true },
        { id: carol.userId, email: carol.email, free: true },
      ],
    });
  });

  it('minimumAttendeePercentage: all-free times first, then the others by time, each attendee\'s `free` said', async () => {
    const res = await suggest(carol, [ada.email, bob.userId, carol.email], { minimumAttendeePercentage: 60 });
    const listed = res.body.suggestions as Array<{ startsAt: string; confidence: number; attendees: Array<{ free: boolean }> }>;
    expect(listed.slice(0, 4).map((s) => [s.startsAt, s.confidence])).toEqual([
      [z(8, '14:00'), 100], [z(8, '14:15'), 100], [z(8, '14:30'), 100], [z(8, '09:00'), 66.67],
    ]);
    expect(listed[3].attendees.map((a) => a.free)).toEqual([true, false, true]);
    const atOne = listed.find((s) => s.startsAt === z(8, '13:00'))!;
    expect(atOne.attendees.map((a) => a.free)).toEqual([false, true, true]); // Ada is busy
    expect(listed.length).toBeLessThanOrEqual(50);
    expect(listed.every((s) => s.confidence >= 60)).toBe(true);
  });

  it('says why there is nothing', async () => {
    const reason = async (attendees: string[], extra: Record<string, unknown> = {}) => {
      const res = await suggest(carol, attendees, extra);
      expect(res.status).toBe(200);
      expect(res.body.suggestions).toEqual([]);
      return res.body.emptySuggestionsReason;
    };
    expect(await reason([ada.email, bob.userId], SATURDAY)).toBe('outside_working_hours');
    expect(await reason([bob.userId, ada.email], TUESDAY)).toBe('attendees_unavailable');
    expect(await reason([ada.email, cy.email])).toBe('attendees_not_shared');
    expect(await reason([ada.email], { from: z(8, '10:00'), to: z(8, '10:30'), durationMinutes: 60 })).toBe('range_too_short');
  });

  it('someone who shares nothing is never free (not_shared), and counts against the percentage', async () => {
    const res = await suggest(carol, [carol.email, 'nobody-at-all@example.com'], { minimumAttendeePercentage: 50 });
    expect(res.body.suggestions[0]).toMatchObject({
      startsAt: z(8, '09:00'), confidence: 50,
      attendees: [{ id: carol.userId, free: true }, { id: null, email: 'nobody-at-all@example.com', free: false, error: 'not_shared' }],
    });
  });

  it('a role taken away: the next request no longer sees that person\'s time', async () => {
    const [owner, caller] = await Promise.all([signUp(base), signUp(base)]);
    const calendarId = (await owner.call('GET', '/me')).body.user.defaultCalendarId;
    await owner.call('POST', `/calendars/${calendarId}/members`, { email: caller.email, role: 'freeBusyReader' });
    expect((await suggest(caller, [owner.email])).body.suggestions.length).toBeGreaterThan(0);
    expect((await owner.call('DELETE', `/calendars/${calendarId}/members/${caller.userId}`)).status).toBe(204);
    const after = await suggest(caller, [owner.email]);
    expect(after.body).toEqual({ suggestions: [], emptySuggestionsReason: 'attendees_not_shared' });
  });

  it('400 beyond the documented bounds, bad durations and percentages', async () => {
    const many = Array.from({ length: 51 }, (_, i) => `p${i}@example.com`);
    expectInvalid(await suggest(carol, many), 'body.attendees');
    expectInvalid(await suggest(carol, [ada.email], { from: '2031-09-01T00:00:00Z', to: '2031-11-03T00:00:00Z' }), 'body.to');
    expectInvalid(await suggest(carol, [ada.email], { durationMinutes: 0 }), 'body.durationMinutes');
    expectInvalid(await suggest(carol, [ada.email], { durationMinutes: 1441 }), 'body.durationMinutes');
    expectInvalid(await suggest(carol, [ada.email], { durationMinutes: 30.5 }), 'body.durationMinutes');
    expectInvalid(await suggest(carol, [ada.email], { minimumAttendeePercentage: 101 }), 'body.minimumAttendeePercentage');
    expectInvalid(await suggest(carol, [ada.email], { unknownField: true }));
  });
});
