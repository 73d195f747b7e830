/**
 * Invitations over real HTTP: attendees who are users get the event in their inbox, can read it, RSVP with
 * {answer}, and the organiser sees the answer. Contract: addendum.md "Events (calendar items)", api-spec.md inbox rows.
 */
import { type ApiResponse, type Client, signUp, useTestService } from '../support/service';

let base: string;
useTestService((started) => (base = started.base));

// ---- helpers -------------------------------------------------------------------------------------------------

let day = 1;
/** A fresh one-hour slot per call, so events of different tests never conflict. */
function slot() {
  const d = day++;
  return {
    startsAt: new Date(Date.UTC(2031, 4, d, 14)).toISOString(),
    endsAt: new Date(Date.UTC(2031, 4, d, 15)).toISOString(),
  };
}

async function invite(organiser: Client, attendees: Array<{ email: string; name?: string }>, extra: Record<string, unknown> = {}) {
  const res = await organiser.call('POST', '/events', { title: 'Planning', ...slot(), attendees, ...extra });
  expect(res.status).toBe(201);
  return res.body.event as { id: string; attendees: Array<Record<string, unknown>>; [k: string]: unknown };
}

const inbox = async (c: Client) => {
  const res = await c.call('GET', '/inbox');
  expect(res.status).toBe(200);
  return res.body.items as Array<{ id: string; type: string; event: { id: string; [k: string]: unknown }; createdAt: string }>;
};

const inboxCount = async (c: Client) => {
  const res = await c.call('GET', '/inbox/count');
  expect(res.status).toBe(200);
  return res.body.count as number;
};

const attendee = (event: { attendees: Array<Record<string, unknown>> }, email: string) =>
  event.attendees.find((a) => String(a.email).toLowerCase() === email.toLowerCase());

function expectError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
}

// ---- tests ---------------------------------------------------------------------------------------------------

describe('invitations', () => {
  let a: Client;
  let b: Client;
  let c: Client;

  beforeEach(async () => {
    [a, b, c] = await Promise.all([signUp(base), signUp(base), signUp(base)]);
  });

  it('an invited user finds the invitation in the inbox, and the badge counts it', async () => {
    const event = await invite(a, [{ email: b.email, name: 'Bee' }]);
    expect(attendee(event, b.email)).toEqual({ email: b.email, name: 'Bee', userId: b.userId, response: 'needs_action' });

    const items = await inbox(b);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ type: 'invitation', event: { id: event.id, title: 'Planning' } });
    expect(typeof items[0].id).toBe('string');
    expect(Number.isNaN(Date.parse(items[0].createdAt))).toBe(false);
    expect(await inboxCount(b)).toBe(1);

    // The organiser and a bystander get nothing.
    expect(await inbox(a)).toEqual([]);
    expect(await inboxCount(a)).toBe(0);
    expect(await inbox(c)).toEqual([]);
    expect(await inboxCount(c)).toBe(0);
  });

  it('the invitee can read the event', async () => {
    const event = await invite(a, [{ email: b.email }]);
    const res = await b.call('GET', `/events/${event.id}`);
    expect(res.status).toBe(200);
    expect(res.body.event).toMatchObject({ id: event.id, title: 'Planning' });
    expect(res.headers.get('etag')).toMatch(/^(W\/)?"[^"]+"$/);
  });

  it('RSVP yes answers 200, empties the inbox, and the organiser sees the answer', async () => {
    const event = await invite(a, [{ email: b.email }, { email: 'outsider@nowhere.example', name: 'Out' }]);
    const res = await b.call('POST', `/events/${event.id}/rsvp`, { answer: 'yes' });
    expect(res.status).toBe(200);
    expect(attendee(res.body.event, b.email)).toMatchObject({ userId: b.userId, response: 'yes' });

    expect(await inbox(b)).toEqual([]);
    expect(await inboxCount(b)).toBe(0);

    const seen = await a.call('GET', `/events/${event.id}`);
    expect(seen.status).toBe(200);
    expect(attendee(seen.body.event, b.email)).toMatchObject({ userId: b.userId, response: 'yes' });
    expect(attendee(seen.body.event, 'outsider@nowhere.example')).toEqual({
      email: 'outsider@nowhere.example', name: 'Out', userId: null, response: 'needs_action',
    });
    expect(seen.body.event.attendees).toHaveLength(2);
  });

  it.each(['no', 'maybe'] as const)('RSVP %s is recorded too', async (answer) => {
    const event = await invite(a, [{ email: b.email }]);
    expect((await b.call('POST', `/events/${event.id}/rsvp`, { answer })).status).toBe(200);
    expect(await inboxCount(b)).toBe(0);
    expect(attendee((await a.call('GET', `/events/${event.id}`)).body.event, b.email)!.response).toBe(answer);
  });

  it('an invitation to an email in another letter case still reaches the user', async () => {
    const event = await invite(a, [{ email: b.email.toUpperCase() }]);
    expect(attendee(event, b.email)!.userId).toBe(b.userId);
    expect((await inbox(b)).map((i) => i.event.id)).toEqual([event.id]);
    expect((await b.call('POST', `/events/${event.id}/rsvp`, { answer: 'maybe' })).status).toBe(200);
    expect(await inboxCount(b)).toBe(0);
  });

  it('a user who is not invited gets 404 for the RSVP and for GET, and the event is unchanged', async () => {
    const event = await invite(a, [{ email: b.email }]);
    const before = await a.call('GET', `/events/${event.id}`);
    expectError(await c.call('POST', `/events/${event.id}/rsvp`, { answer: 'yes' }), 404, 'not_found');
    expectError(await c.call('GET', `/events/${event.id}`), 404, 'not_found');
    const after = await a.call('GET', `/events/${event.id}`);
    expect(after.body).toEqual(before.body);
    expect(after.headers.get('etag')).toBe(before.headers.get('etag'));
    expect(await inboxCount(b)).toBe(1);
  });

  it.each([
    ['an unknown answer', { answer: 'perhaps' }],
    ['no answer', {}],
    ['a boolean answer', { answer: true }],
  ])('RSVP with %s is 400 invalid_request and the invitation stays', async (_label, body) => {
    const event = await invite(a, [{ email: b.email }]);
    const res = await b.call('POST', `/events/${event.id}/rsvp`, body);
    expectError(res, 400, 'invalid_request');
    expect(Array.isArray(res.body.error.details?.issues)).toBe(true);
    expect(await inboxCount(b)).toBe(1);
  });

  it('a cancelled event leaves the inbox, and its RSVP is 404', async () => {
    const event = await invite(a, [{ email: b.email }]);
    expect(await inboxCount(b)).toBe(1);
    expect((await a.call('DELETE', `/events/${event.id}`)).status).toBe(204);
    expect(await inbox(b)).toEqual([]);
    expect(await inboxCount(b)).toBe(0);
    expectError(await b.call('POST', `/events/${event.id}/rsvp`, { answer: 'yes' }), 404, 'not_found');
    expectError(await b.call('GET', `/events/${event.id}`), 404, 'not_found');
  });

  it('an invitee cannot edit or cancel the event (404, never 403)', async () => {
    const event = await invite(a, [{ email: b.email }]);
    expectError(await b.call('PATCH', `/events/${event.id}`, { title: 'Hijacked' }), 404, 'not_found');
    expectError(await b.call('DELETE', `/events/${event.id}`), 404, 'not_found');
    expect((await a.call('GET', `/events/${event.id}`)).body.event.title).toBe('Planning');
  });

  it('several invitations are all listed and counted', async () => {
    const first = await invite(a, [{ email: b.email }]);
    const second = await invite(c, [{ email: b.email }]);
    const items = await inbox(b);
    expect(items.map((i) => i.event.id).sort()).toEqual([first.id, second.id].sort());
    expect(await inboxCount(b)).toBe(2);
    await b.call('POST', `/events/${first.id}/rsvp`, { answer: 'no' });
    expect((await inbox(b)).map((i) => i.event.id)).toEqual([second.id]);
    expect(await inboxCount(b)).toBe(1);
  });

  it('an invitation added by PATCH reaches the inbox', async () => {
    const event = await invite(a, []);
    expect(await inboxCount(b)).toBe(0);
    const res = await a.call('PATCH', `/events/${event.id}`, { attendees: [{ email: b.email }] });
    expect(res.status).toBe(200);
    expect((await inbox(b)).map((i) => i.event.id)).toEqual([event.id]);
  });
});
