/**
 * Everything downstream of a series sees its exceptions (issue 33): the availability day, free slots, free/busy,
 * public booking slots and bookings, the planner, goals and insights (a cancelled occurrence is no planned time),
 * inbox invitations and RSVP, and the log export. Each series is daily 10:00-11:00 UTC from Monday 3 March 2031
 * (bookings: from a Monday at least eight days ahead, within the booking horizon), five times; the occurrence of
 * Tuesday is cancelled, Wednesday's turned into a meeting, Thursday's moved to 14:00.
 */
import { ALL_DAY_EVERY_DAY, book, hostWithType, slotsOf } from '../support/bookings';
import { runCli } from '../support/cli';
import { signUp, useTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
let base: string;
useTestService((started) => ((svc = started), (base = started.base)));

const enc = encodeURIComponent;
const DAY = 86_400_000;
const weekFrom = (monday: number) => (day: number, hour: number, minute = 0) => new Date(monday + day * DAY + (hour * 60 + minute) * 60_000).toISOString();
const at = weekFrom(Date.UTC(2031, 2, 3));
const occurrence = (id: string, day: number, when = at) => `/events/${id}/occurrences/${enc(when(day, 10))}`;

/** The week's series, with its three exceptions. */
async function seriesWithExceptions(c: Client, extra: Record<string, unknown> = {}, when = at) {
  const res = await c.call('POST', '/events', {
    title: 'Deep work', kind: 'focus', startsAt: when(0, 10), endsAt: when(0, 11), timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY;COUNT=5', ...extra,
  });
  expect(res.status).toBe(201);
  const id = res.body.event.id as string;
  expect((await c.call('DELETE', occurrence(id, 1, when))).status).toBe(204);
  expect((await c.call('PATCH', occurrence(id, 2, when), { kind: 'meeting', title: 'Review' })).status).toBe(200);
  expect((await c.call('PATCH', occurrence(id, 3, when), { startsAt: when(3, 14), endsAt: when(3, 15, 30) })).status).toBe(200);
  return id;
}

const short = (iso: string) => iso.slice(0, 16);

describe('availability, slots and free/busy', () => {
  it('GET /availability lists each occurrence at its real time with its own fields; the cancelled one is gone', async () => {
    const c = await signUp(base, { timeZone: 'UTC' });
    const id = await seriesWithExceptions(c);
    const res = await c.call('GET', '/availability?from=2031-03-03&days=5');
    expect(res.status).toBe(200);
    const events = res.body.days.flatMap((d: { events: Array<Record<string, any>> }) => d.events);
    expect(events.map((e: Record<string, any>) => [short(e.startsAt), short(e.endsAt), e.title, e.kind, e.seriesId])).toEqual([
      ['2031-03-03T10:00', '2031-03-03T11:00', 'Deep work', 'focus', id],
      ['2031-03-05T10:00', '2031-03-05T11:00', 'Review', 'meeting', id],
      ['2031-03-06T14:00', '2031-03-06T15:30', 'Deep work', 'focus', id],
      ['2031-03-07T10:00', '2031-03-07T11:00', 'Deep work', 'focus', id],
    ]);
  });

  it('GET /free-busy and /available-slots: busy where the occurrences now are, free where one was cancelled or moved from', async () => {
    const c = await signUp(base, { timeZone: 'UTC' });
    await seriesWithExceptions(c);
    const busy = (await c.call('GET', `/free-busy?from=${enc(at(0, 0))}&to=${enc(at(5, 0))}`)).body.busy;
    expect(busy.map((b: { startsAt: string; endsAt: string }) => `${short(b.startsAt)}/${short(b.endsAt)}`)).toEqual([
      '2031-03-03T10:00/2031-03-03T11:00', '2031-03-05T10:00/2031-03-05T11:00', '2031-03-06T14:00/2031-03-06T15:30', '2031-03-07T10:00/2031-03-07T11:00',
    ]);
    const slots = (await c.call('GET', '/available-slots?from=2031-03-04&days=3&minimumMinutes=30')).body;
    const windows = JSON.stringify(slots);
    // Working hours 09:00-17:00: Tuesday is free all day, Thursday from 09:00 to 14:00.
    expect(windows).toContain(at(1, 9));
    expect(windows).toContain(at(1, 17));
    expect(windows).toContain(at(3, 14));
    expect(windows).not.toContain(at(1, 10));
  });

  it('public booking slots and bookings: the cancelled hour is bookable, the moved-to time is not', async () => {
    let monday = Date.parse(`${new Date().toISOString().slice(0, 10)}T00:00:00Z`) + 8 * DAY;
    while (new Date(monday).getUTCDay() !== 1) monday += DAY;
    const near = weekFrom(monday);
    const host = await hostWithType(base, { hours: ALL_DAY_EVERY_DAY }, { timeZone: 'UTC' });
    await seriesWithExceptions(host.client, {}, near);
    const starts = (await slotsOf(base, host, `?from=${near(1, 0).slice(0, 10)}&days=3&timeZone=UTC`)).map((s) => s.startsAt);
    expect(starts).toContain(near(1, 10));
    expect(starts).toContain(near(3, 10));
    expect(starts).not.toContain(near(2, 10));
    expect(starts).not.toContain(near(3, 14));
    expect(starts).not.toContain(near(3, 15));
    expect((await book(base, host, near(1, 10))).status).toBe(201);
    expect((await book(base, host, near(3, 14, 30))).body.error.code).toBe('slot_taken');
  });
});

describe('planner, goals and insights', () => {
  it('POST /planner/plan places a task in the hour a cancelled occurrence freed', async () => {
    const c = await signUp(base, { timeZone: 'UTC' });
    // Busy 09:00-17:00 every working day but for the cancelled Tuesday occurrence.
    const res = await c.call('POST', '/events', { title: 'Office', startsAt: at(0, 9), endsAt: at(0, 17), timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY;COUNT=5' });
    const id = res.body.event.id;
    const task = (await c.call('POST', '/tasks', { title: 'Report', estimateMinutes: 60, dueAt: at(4, 17) })).body.task;
    const plan = async () => (await c.call('POST', '/planner/plan', { kind: 'tasks', from: '2031-03-03', to: '2031-03-07' })).body;
    expect((await plan()).blocks).toEqual([]);
    expect((await c.call('DELETE', `/events/${id}/occurrences/${enc(at(1, 9))}`)).status).toBe(204);
    expect((await plan()).blocks.map((b: Record<string, any>) => [b.taskId, b.startsAt, b.endsAt])).toEqual([[task.id, at(1, 9), at(1, 10)]]);
  });

  it('GET /insights counts each occurrence where and as what it now is; the goal\'s planned time leaves out the cancelled one', async () => {
    const c = await signUp(base, { timeZone: 'UTC' });
    const goal = (await c.call('POST', '/goals', { name: 'Write the book', weeklyMinutes: 600 })).body.goal;
    await seriesWithExceptions(c, { goalId: goal.id });
    const res = await c.call('GET', '/insights?from=2031-03-03');
    expect(res.status).toBe(200);
    expect(res.body.minutesByKind.focus.thisWeek).toBe(60 + 90 + 60);
    expect(res.body.minutesByKind.meeting.thisWeek).toBe(60);
    expect(res.body.goals).toEqual([expect.objectContaining({ goalId: goal.id, plannedMinutes: expect.objectContaining({ thisWeek: 60 + 60 + 90 + 60 }) })]);
  });
});

describe('inbox and RSVP', () => {
  it('a guest of one occurrence finds the series with that occurrence in the inbox, is told, and answers it', async () => {
    const [a, b] = await Promise.all([signUp(base), signUp(base)]);
    const id = (await a.call('POST', '/events', { title: 'Weekly', startsAt: at(0, 10), endsAt: at(0, 11), timeZone: 'UTC', recurrenceRule: 'FREQ=WEEKLY;COUNT=4' })).body.event.id;
    expect((await b.call('GET', '/inbox')).body.items).toEqual([]);
    const changed = await a.call('PATCH', `/events/${id}/occurrences/${enc(at(7, 10))}`, { attendees: [{ email: b.email }], startsAt: at(7, 12), endsAt: at(7, 13) });
    expect(changed.status).toBe(200);
    const [item] = (await b.call('GET', '/inbox')).body.items;
    expect((await b.call('GET', `/events/${id}`)).status).toBe(200);
    expect(item).toMatchObject({ type: 'invitation', event: { id, exceptions: [expect.objectContaining({ occurrenceStartsAt: at(7, 10), startsAt: at(7, 12) })] } });
    const told = (await b.call('GET', '/notifications')).body.notifications;
    expect(told).toEqual([expect.objectContaining({ kind: 'invitation', source: { type: 'event', id } })]);
    expect(told[0].body).toContain('2031-03-10');

    const answered = await b.call('POST', `/events/${id}/rsvp`, { answer: 'yes' });
    expect(answered.status).toBe(200);
    expect((await b.call('GET', '/inbox')).body.items).toEqual([]);
    const [own] = (await a.call('GET', `/events/${id}`)).body.event.exceptions;
    expect(own.attendees).toEqual([expect.objectContaining({ userId: b.userId, response: 'yes' })]);
    expect((await a.call('GET', `/events/${id}`)).body.event.attendees).toEqual([]);
  });
});

describe('the log export', () => {
  it('events export writes each occurrence change as a line with its series and original start', async () => {
    const c = await signUp(base, { timeZone: 'UTC' });
    const id = await seriesWithExceptions(c);
    const res = await runCli(['events', 'export', '--type', 'event.occurrence.changed', '--type', 'event.occurrence.cancelled'], { DATA_DIR: svc.dataDir });
    expect(res.code).toBe(0);
    const lines = res.stdout.trim().split('\n').map((l) => JSON.parse(l)).filter((e) => e.data.seriesId === id);
    expect(lines.map((e) => [e.type, e.data.occurrenceStartsAt])).toEqual([
      ['event.occurrence.cancelled', at(1, 10)], ['event.occurrence.changed', at(2, 10)], ['event.occurrence.changed', at(3, 10)],
    ]);
    expect(lines[2].data.series.exceptions).toHaveLength(3);
  });
});
