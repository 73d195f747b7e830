/**
 * Reminders end to end (addendum, "Reminders"): an event's reminder falls due and its owner gets one notification
 * (`kind: reminder`, the event id and `occurrenceStartsAt`) in GET /notifications, `push` also pushes it to the
 * owner's devices (Web Push to a subscription on 127.0.0.1), `email` also mails the owner (the outbox). Cancelled
 * events and occurrences remind no one; a moved event or occurrence is reminded before its new time; another user
 * is told nothing, nor is a reader of a shared calendar. Events start seconds from now with 0-minute reminders (due as they begin); the order of due
 * instants stands for time: once a later reminder arrived, an earlier one that was to come would have come.
 */
import pino from 'pino';
import { REMINDERS } from '../../projections/reminders.projection';
import { ReminderClaims } from '../../services/reminders/claims';
import { ReminderWorker } from '../../services/reminders/reminder-worker';
import { reminderStream } from '../../services/reminders/reminder-event';
import { readMail } from '../support/received-mail';
import { startReceiver, until, type Receiver } from '../support/receiver';
import { fromNow, remindedEvent, reminderNotifications, remindersOf } from '../support/reminders';
import { type Client, request, signUp, startTestService, type TestService } from '../support/service';
import { webSubscription } from '../support/web-push-client';

/** Kafka needs seconds for a consumer group to join (push and mail ride the bus); the rest is quick. */
const WAIT_MS = 45_000;
const ADMIN_TOKEN = 'admin-token-for-reminder-tests';
const NOTIFY = [{ minutesBefore: 0, method: 'notification' }];
jest.setTimeout(120_000);

let svc: TestService;
let receiver: Receiver;
let base: string;

beforeAll(async () => {
  receiver = await startReceiver();
  svc = await startTestService({ REMINDER_POLL_MS: '50', PUSH_MODE: 'deliver', PUSH_ALLOW_PRIVATE_ENDPOINTS: 'true', ADMIN_TOKEN });
  base = svc.base;
});
afterAll(async () => {
  await svc.stop();
  await receiver.close();
});

const arrived = (c: Client, eventId: string, count = 1) =>
  until(async () => (await remindersOf(c.call, eventId)).length >= count, WAIT_MS, `the reminder of ${eventId}`);

/** The reminder documents of an event in the projection, by state. */
async function dueStates(eventId: string): Promise<string[]> {
  const docs = (await svc.service.context.readModels.docs(REMINDERS))('due');
  return (await docs.find({ eventId })).map((d) => d.state as string).sort();
}

/** Every reminder.fired / reminder.missed the log holds for an event. */
async function recorded(eventId: string) {
  const log = await svc.service.context.events.readAll(0, 1_000_000);
  return log.filter((e) => e.type.startsWith('reminder.') && (e.data as { eventId: string }).eventId === eventId);
}

describe('a reminder falls due', () => {
  it('notifies the owner once, as the event begins: kind reminder, the event id and occurrenceStartsAt', async () => {
    const c = await signUp(base);
    const event = await remindedEvent(c.call, 2500, NOTIFY, { title: 'Design review', location: 'Room 4', timeZone: 'Europe/Lisbon' });
    await arrived(c, event.id);
    await until(async () => (await dueStates(event.id)).join() === 'fired', WAIT_MS, 'the reminder settled');

    const [n] = await remindersOf(c.call, event.id);
    expect(n).toMatchObject({
      kind: 'reminder', eventId: event.id, occurrenceStartsAt: event.startsAt, read: false,
      title: 'Reminder: Design review', source: { type: 'event', id: event.id },
    });
    expect(n.body).toMatch(/^Starts \d{4}-\d\d-\d\d at \d\d:\d\d \(Europe\/Lisbon\), now · Room 4$/);
    const log = await recorded(event.id);
    expect(log.map((e) => [e.type, e.streamId])).toEqual([['reminder.fired', reminderStream((log[0].data as { reminderId: string }).reminderId)]]);
    // Settled: nothing waits to fire again. A later write (read through its position) still shows one.
    const later = await c.call('PATCH', '/me', { name: 'Still reminded once' });
    const again = await c.call('GET', '/notifications', undefined, { 'X-Calendar-Min-Position': later.headers.get('x-calendar-position')! });
    expect(again.body.notifications.filter((x: { eventId: string }) => x.eventId === event.id)).toHaveLength(1);
  });

  it('tells the owner only: another user sees neither the notification nor a push', async () => {
    const owner = await signUp(base);
    const other = await signUp(base);
    const otherPath = '/other-device';
    await other.call('POST', '/devices', { platform: 'web', name: 'Other', pushToken: webSubscription(receiver.url(otherPath)).token });
    const mine = await remindedEvent(owner.call, 2500, [{ minutesBefore: 0, method: 'push' }]);
    const theirs = await remindedEvent(other.call, 4000, NOTIFY);
    await arrived(owner, mine.id);
    await arrived(other, theirs.id);
    expect((await reminderNotifications(other.call)).map((n) => n.eventId)).toEqual([theirs.id]);
    expect((await reminderNotifications(owner.call)).map((n) => n.eventId)).toEqual([mine.id]);
    expect(receiver.received(otherPath)).toEqual([]);
  });

  it('in a shared calendar: a reader is not reminded of the owner\'s events; a writer\'s event reminds the writer who made it', async () => {
    const owner = await signUp(base);
    const reader = await signUp(base);
    const writer = await signUp(base);
    const mine = await remindedEvent(owner.call, 3000, NOTIFY, { title: 'Owner\'s' });
    for (const [member, role] of [[reader, 'reader'], [writer, 'writer']] as const) {
      expect((await owner.call('POST', `/calendars/${mine.calendarId}/members`, { email: member.email, role })).status).toBe(201);
    }
    const written = await remindedEvent(writer.call, 4500, NOTIFY, { title: 'Writer\'s', calendarId: mine.calendarId });
    expect(written.createdBy).toBe(writer.userId);
    await arrived(owner, mine.id);
    await arrived(writer, written.id);
    expect((await reminderNotifications(owner.call)).map((n) => n.eventId)).toEqual([mine.id]);
    expect((await reminderNotifications(writer.call)).map((n) => n.eventId)).toEqual([written.id]);
    expect(await reminderNotifications(reader.call)).toEqual([]);
  });

  it('uses the owner\'s default reminders for an event created without any', async () => {
    const c = await signUp(base);
    expect((await c.call('PATCH', '/me', { preferences: { defaultReminders: NOTIFY } })).status).toBe(200);
    const event = await remindedEvent(c.call, 2500, NOTIFY, { reminders: undefined });
    expect(event.reminders).toEqual(NOTIFY);
    await arrived(c, event.id);
    expect(await remindersOf(c.call, event.id)).toHaveLength(1);
  });
});

describe('changes before a reminder falls due', () => {
  it('reminds no one of a cancelled event, and of a moved one only before its new time', async () => {
    const c = await signUp(base);
    const cancelled = await remindedEvent(c.call, 3000, NOTIFY, { title: 'Cancelled' });
    const moved = await remindedEvent(c.call, 3000, NOTIFY, { title: 'Moved' });
    expect((await c.call('DELETE', `/events/${cancelled.id}`)).status).toBe(204);
    const startsAt = fromNow(9000);
    const patched = await c.call('PATCH', `/events/${moved.id}`, { startsAt, endsAt: fromNow(9000 + 3_600_000) });
    expect(patched.status).toBe(200);
    const control = await remindedEvent(c.call, 6000, NOTIFY, { title: 'Control' });

    await arrived(c, control.id);
    expect(await remindersOf(c.call, cancelled.id)).toEqual([]);
    expect(await remindersOf(c.call, moved.id)).toEqual([]);
    await arrived(c, moved.id);
    const [n] = await remindersOf(c.call, moved.id);
    expect(n.occurrenceStartsAt).toBe(patched.body.event.startsAt);
    expect(await dueStates(cancelled.id)).toEqual([]);
  });

  it('reminds of a series as the one expansion has it: not a cancelled occurrence, a moved one at its new time', async () => {
    const c = await signUp(base);
    const series = await remindedEvent(c.call, 3000, NOTIFY, { title: 'Stand-up', recurrenceRule: 'FREQ=HOURLY;COUNT=3', endsAt: fromNow(3000 + 600_000) });
    const first = series.startsAt as string;
    const second = new Date(Date.parse(first) + 3_600_000).toISOString();
    const occurrence = (at: string) => `/events/${series.id}/occurrences/${encodeURIComponent(at)}`;
    expect((await c.call('DELETE', occurrence(first))).status).toBe(204);
    const movedTo = fromNow(6000);
    const moved = await c.call('PATCH', occurrence(second), {
      startsAt: movedTo, endsAt: fromNow(6000 + 600_000), title: 'Stand-up, moved', reminders: [{ minutesBefore: 0, method: 'notification' }],
    });
    expect(moved.status).toBe(200);

    await arrived(c, series.id);
    const reminded = await remindersOf(c.call, series.id);
    expect(reminded.map((n) => [n.occurrenceStartsAt, n.title])).toEqual([[second, 'Reminder: Stand-up, moved']]);
    // The third occurrence, an hour and more away, waits; the cancelled first has nothing waiting.
    expect(await dueStates(series.id)).toEqual(['fired', 'pending']);
  });
});

describe('methods', () => {
  it('push: also pushed to the owner\'s devices (Web Push, encrypted); a notification reminder is not pushed', async () => {
    const c = await signUp(base);
    const path = '/reminder-device';
    receiver.on(path, () => 201);
    const subscription = webSubscription(receiver.url(path));
    expect((await c.call('POST', '/devices', { platform: 'web', name: 'Browser', pushToken: subscription.token })).status).toBe(201);
    const quiet = await remindedEvent(c.call, 3000, NOTIFY, { title: 'Not pushed' });
    const pushed = await remindedEvent(c.call, 5000, [{ minutesBefore: 0, method: 'push' }], { title: 'Pushed' });

    await until(() => receiver.received(path).length > 0, WAIT_MS, 'the push');
    await arrived(c, quiet.id);
    const [n] = await remindersOf(c.call, pushed.id);
    const [push] = receiver.received(path);
    expect(subscription.decrypt(push.raw)).toEqual({
      title: 'Reminder: Pushed', body: n.body, data: { notificationId: n.id, kind: 'reminder', source: { type: 'event', id: pushed.id } },
    });
    expect(receiver.received(path)).toHaveLength(1);
  });

  it('email: also mailed to the owner; a notification reminder is not mailed', async () => {
    const c = await signUp(base, { name: 'Ines Duarte' });
    const quiet = await remindedEvent(c.call, 3000, NOTIFY, { title: 'Not mailed' });
    const mailed = await remindedEvent(c.call, 5000, [{ minutesBefore: 0, method: 'email' }], { title: 'Mailed', location: 'Room 7' });
    const outbox = async () => {
      const res = await request(svc.service.url!, 'GET', '/admin/mail', undefined, { authorization: `Bearer ${ADMIN_TOKEN}` });
      return (res.body.mail as Array<Record<string, any>>).filter((m) => m.to === c.email);
    };
    await until(async () => (await outbox()).length > 0, WAIT_MS, 'the mail');
    await arrived(c, quiet.id);
    await arrived(c, mailed.id);
    const mail = await outbox();
    expect(mail.map((m) => [m.eventType, m.state, m.bookingId, m.method])).toEqual([['reminder.fired', 'outbox', null, null]]);
    const read = await readMail(Buffer.from(mail[0].raw, 'base64'));
    expect(read.mail.subject).toMatch(/^Reminder: Mailed, \d{4}-\d\d-\d\d at \d\d:\d\d \(.+\)$/);
    expect(read.mail.to).toMatchObject({ value: [{ address: c.email, name: 'Ines Duarte' }] });
    expect(read.mail.text).toContain('Mailed starts');
    expect(read.mail.text).toContain('Where: Room 7');
    expect(read.calendars).toEqual([]);
  });
});

describe('reminders that fell due while no worker ran', () => {
  it('fire when one runs again unless their event has begun; those are recorded as missed and tell no one', async () => {
    const c = await signUp(base);
    await svc.service.reminders!.stop();
    const begun = await remindedEvent(c.call, 2000, NOTIFY, { title: 'Begun meanwhile' });
    // Due 2 minutes from now, starting 5 minutes from now.
    const ahead = await remindedEvent(c.call, 300_000, [{ minutesBefore: 3, method: 'notification' }], { title: 'Still ahead' });
    const ctx = svc.service.context;
    // A worker whose clock stands 150 s ahead: the service "comes back" after both reminders fell due.
    const worker = new ReminderWorker(
      { events: ctx.events, readModels: ctx.readModels, watermarks: ctx.watermarks, claims: new ReminderClaims(ctx.store), store: ctx.store },
      { pollMs: 50, leaseMs: 5000, catchUpWaitMs: 5000, now: () => Date.now() + 150_000 },
      pino({ level: 'silent' }),
    );
    worker.start();
    try {
      await arrived(c, ahead.id);
      await until(async () => (await dueStates(begun.id)).join() === 'missed', WAIT_MS, 'the begun one recorded');
    } finally {
      await worker.stop();
    }
    expect((await recorded(begun.id)).map((e) => e.type)).toEqual(['reminder.missed']);
    expect(await remindersOf(c.call, begun.id)).toEqual([]);
    expect(await remindersOf(c.call, ahead.id)).toHaveLength(1);
  });
});
