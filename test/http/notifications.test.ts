/**
 * Notifications over real HTTP: made from domain events (bookings, task assignments, invitations, requested ones),
 * one per (event, user) across replays, listed newest first with paging and `unread=1`, marked read all at once,
 * per user. Contract: api-spec.md "Devices and notifications"; decisions in docs/api-decisions.md.
 */
import { randomUUID } from 'node:crypto';
import { REGISTRY } from '../../projections/registry';
import { NOTIFICATIONS } from '../../projections/notifications.projection';
import { requestNotification } from '../../write-api/notifications/request-notification';
import { appendDomainEvent, bookingPayload, taskPayload } from '../support/domain-events';
import { until } from '../support/receiver';
import { type ApiResponse, type Client, signUp, type TestService, useTestService } from '../support/service';

let svc: TestService;
let base: string;
useTestService((started) => {
  svc = started;
  base = started.base;
});

type Listed = { notifications: Array<Record<string, any>>; unreadCount: number; nextPageToken: string | null };

async function list(c: Client, query = '', position?: number): Promise<Listed> {
  const res = await c.call('GET', `/notifications${query}`, undefined, position ? { 'X-Calendar-Min-Position': String(position) } : {});
  expect(res.status).toBe(200);
  return res.body;
}

function expectError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
}

function expectInvalid(res: ApiResponse, field: string): void {
  expectError(res, 400, 'invalid_request');
  expect(res.body.error.details.issues.some((i: { path: string }) => i.path.includes(field))).toBe(true);
}

const append = (type: string, data: unknown, userId: string | null = null) => appendDomainEvent(svc, type, data, userId);

const notifyDirectly = (userId: string, title: string, commandId = randomUUID()) =>
  requestNotification(svc.service.context, { userId, title, body: 'From a test', source: { type: 'automation', id: null } },
    { commandId, correlationId: commandId });

describe('notifications made from domain events', () => {
  it('a booking made, cancelled and moved notifies the host, newest first', async () => {
    const host = await signUp(base);
    const guestUser = await signUp(base);
    const booking = bookingPayload(host.userId);
    await append('booking.created', booking);
    await append('booking.cancelled', { ...booking, status: 'cancelled', cancelledBy: 'guest' });
    const moved = await append('booking.rescheduled', {
      data: { ...booking, startsAt: '2031-05-13T09:00:00.000Z', endsAt: '2031-05-13T09:30:00.000Z' },
      previous: { startsAt: booking.startsAt, endsAt: booking.endsAt },
    });
    const listed = await list(host, '', moved.position);
    expect(listed.notifications.map((n) => n.kind)).toEqual(['booking_rescheduled', 'booking_cancelled', 'booking_created']);
    for (const n of listed.notifications) {
      expect(n).toMatchObject({ read: false, source: { type: 'booking', id: booking.id }, eventId: null, occurrenceStartsAt: null });
      expect(Object.keys(n).sort()).toEqual(['body', 'createdAt', 'eventId', 'id', 'kind', 'occurrenceStartsAt', 'read', 'source', 'title']);
    }
    const [rescheduled, cancelled, created] = listed.notifications;
    expect(created).toMatchObject({ title: 'New booking: Ana Costa', body: '2031-05-12 at 14:00 (Europe/Lisbon) · ana@example.com' });
    expect(cancelled.body).toContain('cancelled by the guest');
    expect(rescheduled.body).toBe('Now 2031-05-13 at 10:00 (Europe/Lisbon), was 2031-05-12 at 14:00 (Europe/Lisbon)');
    expect(listed.unreadCount).toBe(3);
    expect((await list(guestUser, '', moved.position)).notifications).toEqual([]);
  });

  it('a task assigned notifies the assignee, not the one who assigned it', async () => {
    const owner = await signUp(base);
    const assignee = await signUp(base);
    const task = taskPayload(owner.userId, assignee.userId);
    const { position } = await append('task.assigned', task, owner.userId);
    const mine = await list(assignee, '', position);
    expect(mine.notifications).toHaveLength(1);
    expect(mine.notifications[0]).toMatchObject({
      kind: 'task_assigned', title: 'Assigned to you: Send the Q3 report', body: 'Due 2031-05-14 at 17:00 (UTC)',
      source: { type: 'task', id: task.id },
    });
    expect((await list(owner, '', position)).notifications).toEqual([]);
  });

  it('an invitation notifies each newly invited user once, never the creator', async () => {
    const creator = await signUp(base);
    const invitee = await signUp(base);
    const later = await signUp(base);
    const created = await creator.call('POST', '/events', {
      title: 'Planning', startsAt: '2031-06-02T09:00:00Z', endsAt: '2031-06-02T10:00:00Z', timeZone: 'Europe/Berlin',
      attendees: [{ email: invitee.email }, { email: creator.email }],
    });
    expect(created.status).toBe(201);
    const eventId = created.body.event.id;
    const position = () => Number(created.headers.get('x-calendar-position'));
    const first = await list(invitee, '', position());
    expect(first.notifications).toHaveLength(1);
    expect(first.notifications[0]).toMatchObject({
      kind: 'invitation', title: 'Invitation: Planning', body: '2031-06-02 at 11:00 (Europe/Berlin)', source: { type: 'event', id: eventId },
      eventId, occurrenceStartsAt: null,
    });

    // A change of title, an answer, then a second attendee: only the new attendee is told.
    expect((await creator.call('PATCH', `/events/${eventId}`, { title: 'Planning (moved room)' })).status).toBe(200);
    expect((await invitee.call('POST', `/events/${eventId}/rsvp`, { answer: 'yes' })).status).toBe(200);
    const added = await creator.call('PATCH', `/events/${eventId}`, { attendees: [{ email: invitee.email }, { email: later.email }] });
    expect(added.status).toBe(200);
    const at = Number(added.headers.get('x-calendar-position'));
    expect((await list(invitee, '', at)).notifications).toHaveLength(1);
    expect((await list(later, '', at)).notifications.map((n) => n.title)).toEqual(['Invitation: Planning (moved room)']);
    expect((await list(creator, '', at)).notifications).toEqual([]);
  });

  it('a requested notification (automations) reaches its user once per command id', async () => {
    const c = await signUp(base);
    const commandId = randomUUID();
    const first = await notifyDirectly(c.userId, 'Invoice paid', commandId);
    const again = await notifyDirectly(c.userId, 'Invoice paid', commandId);
    expect(again.notificationId).toBe(first.notificationId);
    const listed = await list(c, '', first.position!);
    expect(listed.notifications).toEqual([expect.objectContaining({
      id: first.notificationId, kind: 'message', title: 'Invoice paid', body: 'From a test', source: { type: 'automation', id: null },
    })]);
  });

  it('refuses a requested notification without a title', async () => {
    await expect(notifyDirectly(randomUUID(), '  ')).rejects.toMatchObject({ status: 400, code: 'invalid_request' });
  });

  it('one domain event makes one notification per user, also when the projection is rebuilt from the log', async () => {
    const c = await signUp(base);
    const booking = bookingPayload(c.userId);
    await append('booking.created', booking);
    await notifyDirectly(c.userId, 'Second');
    const marked = await c.call('PATCH', '/notifications');
    expect(marked.body).toEqual({ markedRead: 2 });
    const fresh = await notifyDirectly(c.userId, 'Third');
    const before = await list(c, '', fresh.position!);
    expect(before.notifications.map((n) => [n.title, n.read])).toEqual([['Third', false], ['Second', true], ['New booking: Ana Costa', true]]);

    const registry = svc.service.context.store.collection(REGISTRY);
    const active = (await registry.get(NOTIFICATIONS))!.active;
    await svc.service.runner!.rebuild(NOTIFICATIONS);
    await until(async () => (await registry.get(NOTIFICATIONS))!.active !== active, 20_000, 'the rebuilt projection serving');
    expect(await list(c)).toEqual(before);
  });
});

describe('GET /notifications', () => {
  it('pages newest first without gaps or repeats', async () => {
    const c = await signUp(base);
    let last = 0;
    for (let i = 1; i <= 5; i++) last = (await notifyDirectly(c.userId, `Note ${i}`)).position!;
    const seen: string[] = [];
    let token: string | null = null;
    let pages = 0;
    do {
      const page: Listed = await list(c, `?limit=2${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`, last);
      expect(page.notifications.length).toBeLessThanOrEqual(2);
      expect(page.unreadCount).toBe(5);
      seen.push(...page.notifications.map((n) => n.title));
      token = page.nextPageToken;
      pages++;
    } while (token && pages < 10);
    expect(seen).toEqual(['Note 5', 'Note 4', 'Note 3', 'Note 2', 'Note 1']);
    expect(pages).toBe(3);
  });

  it('unread=1 lists only unread ones', async () => {
    const c = await signUp(base);
    await notifyDirectly(c.userId, 'Old');
    expect((await c.call('PATCH', '/notifications')).status).toBe(200);
    const { position } = await notifyDirectly(c.userId, 'New');
    expect((await list(c, '?unread=1', position!)).notifications.map((n) => n.title)).toEqual(['New']);
    expect((await list(c, '?unread=0')).notifications.map((n) => n.title)).toEqual(['New', 'Old']);
    expect((await list(c)).notifications.map((n) => n.read)).toEqual([false, true]);
  });

  it.each([
    ['unread other than 1/0/true/false', '?unread=yes', 'unread'],
    ['limit 0', '?limit=0', 'limit'],
    ['limit over 500', '?limit=501', 'limit'],
    ['a page token it never issued', '?pageToken=bm9wZQ', 'pageToken'],
  ])('refuses %s with 400', async (_label, query, field) => {
    const c = await signUp(base);
    expectInvalid(await c.call('GET', `/notifications${query}`), field);
  });
});

describe('PATCH /notifications', () => {
  it('marks every notification read for the caller only; later ones arrive unread', async () => {
    const a = await signUp(base);
    const b = await signUp(base);
    await notifyDirectly(a.userId, 'A1');
    await notifyDirectly(a.userId, 'A2');
    const { position } = await notifyDirectly(b.userId, 'B1');
    const res = await a.call('PATCH', '/notifications', undefined, { 'X-Calendar-Min-Position': String(position) });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ markedRead: 2 });
    expect((await list(a, '?unread=1')).notifications).toEqual([]);
    expect((await list(a)).unreadCount).toBe(0);
    expect((await list(b, '?unread=1')).notifications.map((n) => n.title)).toEqual(['B1']);

    expect((await a.call('PATCH', '/notifications')).body).toEqual({ markedRead: 0 });
    const later = await notifyDirectly(a.userId, 'A3');
    const listed = await list(a, '', later.position!);
    expect(listed.notifications.map((n) => [n.title, n.read])).toEqual([['A3', false], ['A2', true], ['A1', true]]);
    expect(listed.unreadCount).toBe(1);
  });

  it('checks scopes: notifications:read cannot mark read; without it nothing is listed', async () => {
    const c = await signUp(base);
    await notifyDirectly(c.userId, 'Scoped');
    const key = (await c.call('POST', '/api-keys', { name: 'Reader', scopes: ['notifications:read'] })).body.key as string;
    const withKey = (method: string, path: string) => fetch(`${base}${path}`, { method, headers: { authorization: `Bearer ${key}` } });
    expect((await withKey('GET', '/notifications')).status).toBe(200);
    const patch = await withKey('PATCH', '/notifications');
    expect(patch.status).toBe(403);
    expect(((await patch.json()) as any).error).toMatchObject({ code: 'insufficient_scope', details: { required: 'notifications:write' } });
    expect((await fetch(`${base}/notifications`)).status).toBe(401);
  });
});
