/**
 * GET /insights over real HTTP: a week in the person's zone against the week before: minutes by kind (single,
 * moved, cancelled, all-day and recurring events, an event across the week boundary), meetings vs focus, focus
 * sessions, goal progress and routine completion. Focus and routine domain events of other slices are appended
 * to the log directly, in the shapes those slices record.
 */
import { randomUUID } from 'node:crypto';
import { EVENT_KINDS } from '../../contracts/events';
import { expectInvalid } from '../support/api-expect';
import { appendDomainEvent, midWeekZone, usePlanningService } from '../support/planning';
import { type Client, signUp } from '../support/service';

const api = usePlanningService();

const WEEK = '2025-03-03';
const PREVIOUS = '2025-02-24';

async function event(c: Client, body: Record<string, unknown>) {
  const res = await c.call('POST', '/events', { title: 'Item', allowOverlap: true, ...body });
  expect(res.status).toBe(201);
  return res.body.event as Record<string, any>;
}

async function insights(c: Client, from: string, minPosition?: number) {
  const headers = minPosition === undefined ? undefined : { 'X-Calendar-Min-Position': String(minPosition) };
  const res = await c.call('GET', `/insights?from=${from}`, undefined, headers);
  expect(res.status).toBe(200);
  return res.body;
}

const cmp = (thisWeek: number, previousWeek: number) => ({ thisWeek, previousWeek, change: thisWeek - previousWeek });

function stoppedSession(userId: string, startedAt: string, minutes: number, pausedSeconds: number, goalId: string | null = null) {
  const stoppedAt = new Date(Date.parse(startedAt) + minutes * 60_000).toISOString();
  return {
    id: randomUUID(), userId, taskId: null, eventId: null, goalId, label: null, plannedMinutes: null, status: 'stopped',
    startedAt, pausedAt: null, stoppedAt, pausedSeconds, updatedAt: stoppedAt, version: 2,
  };
}

function routine(ownerId: string) {
  const period = (name: string, startMinute: number) => ({
    id: randomUUID(), name, startMinute, endMinute: startMinute + 30, items: [], windowStartMinute: null, windowEndMinute: null,
    priority: 'normal', canMove: true,
  });
  return {
    id: randomUUID(), name: 'Mornings', type: 'personal', color: null, isActive: true, days: [1, 2, 3, 4, 5],
    periods: [period('Stretch', 420), period('Journal', 450)], ownerId, createdAt: '2025-01-01T08:00:00.000Z', updatedAt: '2025-01-01T08:00:00.000Z',
  };
}

describe('GET /insights', () => {
  let a: Client;
  let b: Client;
  let body: Record<string, any>;
  let goalId: string;

  beforeAll(async () => {
    [a, b] = await Promise.all([signUp(api.base, { timeZone: 'Europe/Berlin' }), signUp(api.base, { timeZone: 'Europe/Berlin' })]);
    // Europe/Berlin is UTC+1 in these weeks.
    await event(a, { kind: 'meeting', startsAt: '2025-03-04T09:00:00Z', endsAt: '2025-03-04T10:00:00Z' });
    await event(a, { kind: 'focus', startsAt: '2025-03-05T13:00:00Z', endsAt: '2025-03-05T14:30:00Z' });
    await event(a, { kind: 'meeting', startsAt: '2025-02-27T08:00:00Z', endsAt: '2025-02-27T08:30:00Z' });
    // Sunday 23:30 to Monday 00:30 in Berlin (all of it Sunday in UTC): half in each week.
    await event(a, { kind: 'meeting', startsAt: '2025-03-02T22:30:00Z', endsAt: '2025-03-02T23:30:00Z' });
    await event(a, { kind: 'holiday', allDay: true, startsAt: '2025-03-07T00:00:00Z', endsAt: '2025-03-08T00:00:00Z' });
    const cancelled = await event(a, { kind: 'meeting', startsAt: '2025-03-06T15:00:00Z', endsAt: '2025-03-06T17:00:00Z' });
    expect((await a.call('DELETE', `/events/${cancelled.id}`)).status).toBe(204);
    const moved = await event(a, { kind: 'travel', startsAt: '2025-02-25T07:00:00Z', endsAt: '2025-02-25T08:00:00Z' });
    expect((await a.call('PATCH', `/events/${moved.id}`, {
      kind: 'personal', startsAt: '2025-03-04T07:00:00Z', endsAt: '2025-03-04T08:00:00Z',
    })).status).toBe(200);
    // 15 minutes at noon, ten days from Wednesday: five in each week.
    await event(a, {
      kind: 'break', startsAt: '2025-02-26T11:00:00Z', endsAt: '2025-02-26T11:15:00Z', timeZone: 'Europe/Berlin',
      recurrenceRule: 'FREQ=DAILY;COUNT=10',
    });
    goalId = (await a.call('POST', '/goals', { name: 'Write the book', weeklyMinutes: 120 })).body.goal.id;
    await event(a, { kind: 'focus', goalId, startsAt: '2025-03-06T08:00:00Z', endsAt: '2025-03-06T09:00:00Z' });
    await event(a, { kind: 'focus', goalId, startsAt: '2025-02-28T08:00:00Z', endsAt: '2025-02-28T08:45:00Z' });
    // B's calendar: never in A's figures.
    await event(b, { kind: 'meeting', startsAt: '2025-03-04T09:00:00Z', endsAt: '2025-03-04T12:00:00Z' });

    await appendDomainEvent(api.svc, 'focus.stopped', stoppedSession(a.userId, '2025-03-04T08:00:00.000Z', 60, 600, goalId), a.userId);
    await appendDomainEvent(api.svc, 'focus.stopped', stoppedSession(a.userId, '2025-02-26T10:00:00.000Z', 30, 0), a.userId);
    // Sunday 23:30 in Berlin: still this week there.
    await appendDomainEvent(api.svc, 'focus.stopped', stoppedSession(a.userId, '2025-03-09T22:30:00.000Z', 20, 0), a.userId);
    await appendDomainEvent(api.svc, 'focus.stopped', stoppedSession(b.userId, '2025-03-04T08:00:00.000Z', 90, 0), b.userId);

    const r = routine(a.userId);
    await appendDomainEvent(api.svc, 'routine.created', r, a.userId);
    const [stretch, journal] = r.periods;
    const mark = (type: string, period: typeof stretch, date: string) =>
      appendDomainEvent(api.svc, `routine.period.${type}`, { period, date, routine: r }, a.userId);
    await mark('completed', stretch, '2025-03-03');
    await mark('completed', stretch, '2025-03-03'); // marked twice: one period on one day
    await mark('completed', stretch, '2025-03-04');
    await mark('completed', stretch, '2025-03-05');
    await mark('completed', journal, '2025-03-03');
    await mark('skipped', journal, '2025-03-03'); // changed its mind: no longer done
    await mark('skipped', journal, '2025-03-04');
    await mark('completed', stretch, '2025-02-24');
    // Data the projection cannot use is ignored, and what follows still counts.
    await appendDomainEvent(api.svc, 'routine.period.completed', { period: 'garbage' }, a.userId);
    await appendDomainEvent(api.svc, 'focus.stopped', { nothing: true }, a.userId);
    const last = await mark('completed', stretch, '2025-03-06');

    body = await insights(a, WEEK, last);
  });

  it('names the week and the week before, in the caller\'s zone', () => {
    expect(body.week).toEqual({ from: WEEK, to: '2025-03-09', timeZone: 'Europe/Berlin' });
    expect(body.previousWeek).toEqual({ from: PREVIOUS, to: '2025-03-02' });
  });

  it('counts minutes by kind: timed events, split at the week boundary, each occurrence of a series', () => {
    expect(Object.keys(body.minutesByKind).sort()).toEqual([...EVENT_KINDS].sort());
    expect(body.minutesByKind.meeting).toEqual(cmp(60 + 30, 30 + 30));
    expect(body.minutesByKind.focus).toEqual(cmp(90 + 60, 45));
    expect(body.minutesByKind.personal).toEqual(cmp(60, 0));
    expect(body.minutesByKind.travel).toEqual(cmp(0, 0));
    expect(body.minutesByKind.break).toEqual(cmp(75, 75));
    expect(body.minutesByKind.holiday).toEqual(cmp(0, 0));
  });

  it('sets meetings against focus', () => {
    expect(body.meetingsVsFocus).toEqual({ meetingMinutes: cmp(90, 60), focusMinutes: cmp(150, 45) });
  });

  it('counts stopped focus sessions and their minutes without paused time', () => {
    expect(body.focusSessions).toEqual({ count: cmp(2, 1), minutes: cmp(50 + 20, 30) });
  });

  it('shows each goal\'s planned and done minutes as GET /goals counts them', () => {
    expect(body.goals).toEqual([{
      goalId, name: 'Write the book', weeklyMinutes: 120, plannedMinutes: cmp(60, 45), doneMinutes: cmp(60 + 50, 45),
    }]);
  });

  it('sets routine periods marked done against the periods scheduled', () => {
    expect(body.routines).toEqual({
      completedPeriods: cmp(4, 1),
      scheduledPeriods: cmp(10, 10),
      completion: { thisWeek: 0.4, previousWeek: 0.1, change: 0.3 },
    });
  });

  it('shows another person none of it', async () => {
    const theirs = await insights(b, WEEK);
    expect(theirs.minutesByKind.meeting).toEqual(cmp(180, 0));
    expect(theirs.focusSessions).toEqual({ count: cmp(1, 0), minutes: cmp(90, 0) });
    expect(theirs.goals).toEqual([]);
    expect(theirs.routines.scheduledPeriods).toEqual(cmp(0, 0));
    expect(theirs.routines.completion).toEqual({ thisWeek: null, previousWeek: null, change: null });
  });

  it('is all zeros for an empty week', async () => {
    const empty = await insights(a, '2024-06-03');
    for (const kind of EVENT_KINDS) expect(empty.minutesByKind[kind]).toEqual(cmp(0, 0));
    expect(empty.focusSessions).toEqual({ count: cmp(0, 0), minutes: cmp(0, 0) });
    expect(empty.routines.completedPeriods).toEqual(cmp(0, 0));
  });

  it('follows later changes: a cancelled meeting leaves the week', async () => {
    const meeting = await event(a, { kind: 'meeting', startsAt: '2025-03-07T09:00:00Z', endsAt: '2025-03-07T09:45:00Z' });
    expect((await insights(a, WEEK)).minutesByKind.meeting).toEqual(cmp(90 + 45, 60));
    await a.call('DELETE', `/events/${meeting.id}`);
    expect((await insights(a, WEEK)).minutesByKind.meeting).toEqual(cmp(90, 60));
  });

  it.each(['2025-03-04', '2025-3-3', '2025-02-30', 'monday', ''])('400 for from=%s', async (from) => {
    expectInvalid(await a.call('GET', `/insights?from=${from}`), 'query.from');
  });

  it('400 without from', async () => {
    expectInvalid(await a.call('GET', '/insights'), 'query.from');
  });
});

describe('GET /insights this week', () => {
  it('counts a focus session just stopped', async () => {
    const c = await signUp(api.base, { timeZone: midWeekZone() });
    const session = (await c.call('POST', '/focus', {})).body.session;
    expect((await c.call('PATCH', `/focus/${session.id}`, { action: 'stop' })).status).toBe(200);
    const monday = (await c.call('GET', '/goals')).body.weekStart as string;
    expect((await insights(c, monday)).focusSessions.count).toEqual(cmp(1, 0));
  });
});

describe('GET /insights with the routines slice', () => {
  it('counts a period marked done through the API, and no longer once its status is cleared', async () => {
    const c = await signUp(api.base, { timeZone: 'UTC' });
    const created = await c.call('POST', '/routines', {
      name: 'Evenings', type: 'personal', days: [1, 2, 3, 4, 5, 6, 7], periods: [{ name: 'Read', startMinute: 1200, endMinute: 1230 }],
    });
    expect(created.status).toBe(201);
    const periodId = created.body.routine.periods[0].id as string;
    const now = new Date();
    const monday = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 14 - ((now.getUTCDay() + 6) % 7)));
    const week = monday.toISOString().slice(0, 10);
    const day = `/routines/periods/${periodId}/days/${week}`;
    const done = await c.call('PUT', day, { status: 'done' });
    expect(done.status).toBe(200);
    expect((await insights(c, week, Number(done.headers.get('x-calendar-position')))).routines.completedPeriods.thisWeek).toBe(1);
    const cleared = await c.call('PUT', day, { status: null });
    expect(cleared.status).toBe(200);
    expect((await insights(c, week, Number(cleared.headers.get('x-calendar-position')))).routines.completedPeriods.thisWeek).toBe(0);
  });
});
