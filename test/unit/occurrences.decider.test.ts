/**
 * @jest-environment-options {"timeZone": "Asia/Kolkata"}
 *
 * One occurrence of a series in the Space schedule (addendum, "One occurrence of a series"): given/when/then for every
 * exception transition, refused ones included, across the autumn DST change of Europe/Berlin and America/New_York,
 * with the process in a third zone (the decider must never read the process's own).
 */
import type { Event, EventFields } from '../../contracts/events';
import { occurrences } from '../../services/time/recurrence';
import { MAX_EXCEPTIONS } from '../../contracts/events';
import { scheduleDecider, type ScheduleCommand } from '../../write-api/schedule/schedule.decider';
import { given } from '../support/given';

const OWNER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const SPACE = '33333333-3333-4333-8333-333333333333';
const CAL = '44444444-4444-4444-8444-444444444444';
const NOW = '2026-10-01T00:00:00.000Z';
const DAY = 86_400_000;

const spaceCreated = {
  type: 'space.created' as const,
  data: { space: { id: SPACE, name: 'Home', kind: 'personal' as const, ownerId: OWNER, createdAt: NOW, updatedAt: NOW, deletedAt: null } },
};
const calendarCreated = {
  type: 'calendar.created' as const,
  data: { calendar: { id: CAL, spaceId: SPACE, name: 'Cal', color: '#112233', isDefault: true, createdAt: NOW, updatedAt: NOW, deletedAt: null } },
};

function event(id: string, o: Partial<Event> = {}): Event {
  return {
    id, spaceId: SPACE, calendarId: CAL, title: 'Standup', description: null, location: null, meetingUrl: null, kind: 'meeting',
    startsAt: '2026-10-22T07:00:00.000Z', endsAt: '2026-10-22T07:30:00.000Z', timeZone: 'Europe/Berlin', allDay: false, busy: true,
    recurrenceRule: null, taskId: null, goalId: null, resources: [], attendees: [], reminders: [], allowOverlap: false, exceptions: [],
    icalUid: null, icalRecurrenceId: null,
    status: 'confirmed', createdBy: OWNER, createdAt: NOW, updatedAt: NOW, deletedAt: null, version: 1, ...o,
  };
}
const created = (e: Event) => ({ type: 'event.created' as const, data: e });

/** Daily 09:00-09:30 in Berlin from Thursday 22 October 2026, ten times: 07:00Z until the 25th, then 08:00Z. */
const berlin = event('s1', { recurrenceRule: 'FREQ=DAILY;COUNT=10' });
/** Daily 09:00-10:00 in New York from Thursday 29 October 2026: 13:00Z until 1 November, then 14:00Z. */
const newYork = event('s2', {
  startsAt: '2026-10-29T13:00:00.000Z', endsAt: '2026-10-29T14:00:00.000Z', timeZone: 'America/New_York', recurrenceRule: 'FREQ=DAILY',
});
const history = [spaceCreated, calendarCreated, created(berlin), created(newYork)];

type Addressed = { eventId?: string; expectedVersions?: number[]; actorId?: string };
const change = (at: string, changes: Partial<EventFields>, o: Addressed = {}): ScheduleCommand => ({
  type: 'ChangeOccurrence', actorId: OWNER, eventId: 's1', occurrenceStartsAt: at, changes, now: NOW, ...o,
});
const cancel = (at: string, o: Addressed = {}): ScheduleCommand => ({
  type: 'CancelOccurrence', actorId: OWNER, eventId: 's1', occurrenceStartsAt: at, now: NOW, ...o,
});
const split = (at: string, changes: Partial<EventFields> = {}, o: Addressed = {}): ScheduleCommand => ({
  type: 'SplitSeries', actorId: OWNER, eventId: 's1', newEventId: 's1-b', occurrenceStartsAt: at, changes, now: NOW, ...o,
});
const single = (id: string, startsAt: string, endsAt: string, o: Partial<EventFields> = {}): ScheduleCommand => ({
  type: 'CreateEvent', actorId: OWNER, eventId: id, now: NOW,
  fields: { ...event(id, { startsAt, endsAt, timeZone: 'UTC', title: id }), ...o },
});

const iso = (ms: number) => new Date(ms).toISOString();
const starts = (e: Event, from = '2026-10-01T00:00:00Z', to = '2026-11-10T00:00:00Z') =>
  occurrences(e, Date.parse(from), Date.parse(to)).map((o) => iso(o.start));
const seriesAfter = (events: Array<{ type: string; data: unknown }>) =>
  (events[0].data as { series: Event }).series;

describe('the process runs in a third zone', () => {
  it('is neither Berlin nor New York', () => {
    expect(new Date(Date.UTC(2026, 9, 26)).getTimezoneOffset()).toBe(-330);
  });
});

describe('cancelling one occurrence', () => {
  it('cancels the first occurrence after the Berlin change at 08:00Z; the series no longer has it', () => {
    const [e] = given(scheduleDecider, history).when(cancel('2026-10-26T08:00:00.000Z')).then([
      {
        type: 'event.occurrence.cancelled',
        data: {
          seriesId: 's1', occurrenceStartsAt: '2026-10-26T08:00:00.000Z',
          occurrence: {
            id: 's1', seriesId: 's1', occurrenceStartsAt: '2026-10-26T08:00:00.000Z', startsAt: '2026-10-26T08:00:00.000Z',
            endsAt: '2026-10-26T08:30:00.000Z', status: 'cancelled', deletedAt: NOW, version: 2,
          },
          series: { id: 's1', status: 'confirmed', version: 2, exceptions: [{ occurrenceStartsAt: '2026-10-26T08:00:00.000Z', cancelled: true }] },
        } as never,
      },
    ]);
    expect(starts(seriesAfter([e]))).toEqual([
      '2026-10-22T07:00:00.000Z', '2026-10-23T07:00:00.000Z', '2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z',
      '2026-10-27T08:00:00.000Z', '2026-10-28T08:00:00.000Z', '2026-10-29T08:00:00.000Z', '2026-10-30T08:00:00.000Z',
      '2026-10-31T08:00:00.000Z',
    ]);
    expect((e.data as { occurrence: object }).occurrence).not.toHaveProperty('exceptions');
  });

  it('cancels in New York across its change (13:00Z before 1 November, 14:00Z from it)', () => {
    const [before] = given(scheduleDecider, history).when(cancel('2026-10-31T13:00:00.000Z', { eventId: 's2' })).then([{ type: 'event.occurrence.cancelled' }]);
    const [after] = given(scheduleDecider, [...history, before]).when(cancel('2026-11-02T14:00:00.000Z', { eventId: 's2' })).then([{ type: 'event.occurrence.cancelled' }]);
    expect(starts(seriesAfter([after]), '2026-10-29T00:00:00Z', '2026-11-04T00:00:00Z')).toEqual([
      '2026-10-29T13:00:00.000Z', '2026-10-30T13:00:00.000Z', '2026-11-01T14:00:00.000Z', '2026-11-03T14:00:00.000Z',
    ]);
  });

  it('refuses a start the rule does not produce: the old offset after the change, between starts, past COUNT', () => {
    for (const at of ['2026-10-26T07:00:00.000Z', '2026-10-26T08:00:01.000Z', '2026-11-01T08:00:00.000Z', '2026-10-21T07:00:00.000Z']) {
      given(scheduleDecider, history).when(cancel(at)).thenThrows('not_found');
    }
    given(scheduleDecider, history).when(cancel('2026-11-02T13:00:00.000Z', { eventId: 's2' })).thenThrows('not_found');
  });

  it('refuses an occurrence already cancelled, and a single event, a cancelled series, someone else, a stale version', () => {
    const [e] = given(scheduleDecider, history).when(cancel('2026-10-26T08:00:00.000Z')).then([{ type: 'event.occurrence.cancelled' }]);
    given(scheduleDecider, [...history, e]).when(cancel('2026-10-26T08:00:00.000Z')).thenThrows('not_found');
    given(scheduleDecider, [...history, e]).when(change('2026-10-26T08:00:00.000Z', { title: 'Back?' })).thenThrows('not_found');
    const h = [...history, created(event('one'))];
    given(scheduleDecider, h).when(cancel('2026-10-22T07:00:00.000Z', { eventId: 'one' })).thenThrows('not_found');
    const gone = { type: 'event.cancelled' as const, data: { ...berlin, status: 'cancelled' as const, deletedAt: NOW, version: 2 } };
    given(scheduleDecider, [...history, gone]).when(cancel('2026-10-23T07:00:00.000Z')).thenThrows('not_found');
    given(scheduleDecider, history).when(cancel('2026-10-23T07:00:00.000Z', { actorId: OTHER })).thenThrows('not_found');
    given(scheduleDecider, history).when(cancel('2026-10-23T07:00:00.000Z', { expectedVersions: [2] })).thenThrows('version_mismatch');
    given(scheduleDecider, history).when(cancel('2026-10-23T07:00:00.000Z', { expectedVersions: [1] })).then([{ type: 'event.occurrence.cancelled' }]);
  });

  it('frees its slot: a single event there conflicts before and not after', () => {
    const over = single('x', '2026-10-27T08:10:00.000Z', '2026-10-27T08:20:00.000Z');
    given(scheduleDecider, history).when(over).thenThrows('time_conflict');
    const [e] = given(scheduleDecider, history).when(cancel('2026-10-27T08:00:00.000Z')).then([{ type: 'event.occurrence.cancelled' }]);
    given(scheduleDecider, [...history, e]).when(over).then([{ type: 'event.created' }]);
  });
});

describe('changing one occurrence', () => {
  it('moves an occurrence before the change past it; it is listed once, at its new time, in order', () => {
    const [e] = given(scheduleDecider, history)
      .when(change('2026-10-24T07:00:00.000Z', { startsAt: '2026-10-25T12:00:00.000Z', endsAt: '2026-10-25T13:00:00.000Z' }))
      .then([{
        type: 'event.occurrence.changed',
        data: {
          occurrence: { seriesId: 's1', occurrenceStartsAt: '2026-10-24T07:00:00.000Z', startsAt: '2026-10-25T12:00:00.000Z', endsAt: '2026-10-25T13:00:00.000Z', version: 2 },
          series: { exceptions: [{ occurrenceStartsAt: '2026-10-24T07:00:00.000Z', startsAt: '2026-10-25T12:00:00.000Z', endsAt: '2026-10-25T13:00:00.000Z' }] },
        } as never,
      }]);
    const list = occurrences(seriesAfter([e]), Date.parse('2026-10-23T00:00:00Z'), Date.parse('2026-10-27T00:00:00Z'));
    expect(list.map((o) => [iso(o.start), iso(o.end), iso(o.original)])).toEqual([
      ['2026-10-23T07:00:00.000Z', '2026-10-23T07:30:00.000Z', '2026-10-23T07:00:00.000Z'],
      ['2026-10-25T08:00:00.000Z', '2026-10-25T08:30:00.000Z', '2026-10-25T08:00:00.000Z'],
      ['2026-10-25T12:00:00.000Z', '2026-10-25T13:00:00.000Z', '2026-10-24T07:00:00.000Z'],
      ['2026-10-26T08:00:00.000Z', '2026-10-26T08:30:00.000Z', '2026-10-26T08:00:00.000Z'],
    ]);
  });

  it('keeps only the fields that differ from the series; set back, the exception goes', () => {
    const at = '2026-10-27T08:00:00.000Z';
    const attendees = [{ email: 'bo@example.com', name: null, userId: null, response: 'needs_action' as const }];
    const [e] = given(scheduleDecider, history)
      .when(change(at, { title: 'Demo day', busy: false, kind: 'focus', attendees, reminders: [{ minutesBefore: 5, method: 'push' }], location: null }))
      .then([{ type: 'event.occurrence.changed', data: { occurrence: { title: 'Demo day', busy: false, startsAt: at, location: null } } as never }]);
    expect(seriesAfter([e]).exceptions).toEqual([
      { occurrenceStartsAt: at, title: 'Demo day', kind: 'focus', busy: false, attendees, reminders: [{ minutesBefore: 5, method: 'push' }] },
    ]);
    const [back] = given(scheduleDecider, [...history, e])
      .when(change(at, { title: 'Standup', busy: true, kind: 'meeting', attendees: [], reminders: [] }))
      .then([{ type: 'event.occurrence.changed', data: { occurrence: { title: 'Standup', version: 3 } } as never }]);
    expect(seriesAfter([back]).exceptions).toEqual([]);
  });

  it('changes a moved occurrence again by its original start; its end alone makes it moved', () => {
    const at = '2026-10-28T08:00:00.000Z';
    const [moved] = given(scheduleDecider, history).when(change(at, { endsAt: '2026-10-28T09:00:00.000Z' })).then([{ type: 'event.occurrence.changed' }]);
    expect(seriesAfter([moved]).exceptions).toEqual([{ occurrenceStartsAt: at, startsAt: at, endsAt: '2026-10-28T09:00:00.000Z' }]);
    const [again] = given(scheduleDecider, [...history, moved]).when(change(at, { title: 'Longer' })).then([
      { type: 'event.occurrence.changed', data: { occurrence: { title: 'Longer', endsAt: '2026-10-28T09:00:00.000Z' } } as never },
    ]);
    expect(seriesAfter([again]).exceptions).toEqual([{ occurrenceStartsAt: at, title: 'Longer', startsAt: at, endsAt: '2026-10-28T09:00:00.000Z' }]);
  });

  it('checks the occurrence as a single event: a busy one in the way is a conflict, its own series never', () => {
    const h = [...history, created(event('busy', { startsAt: '2026-10-30T10:00:00.000Z', endsAt: '2026-10-30T11:00:00.000Z' }))];
    const onto = { startsAt: '2026-10-30T10:30:00.000Z', endsAt: '2026-10-30T11:30:00.000Z' };
    const err = given(scheduleDecider, h).when(change('2026-10-29T08:00:00.000Z', onto)).thenThrows('time_conflict');
    expect(err.details).toEqual({ conflicts: [{ id: 'busy', startsAt: '2026-10-30T10:00:00.000Z', endsAt: '2026-10-30T11:00:00.000Z' }] });
    given(scheduleDecider, h).when(change('2026-10-29T08:00:00.000Z', { ...onto, busy: false })).then([{ type: 'event.occurrence.changed' }]);
    // Onto the next occurrence of its own series.
    given(scheduleDecider, h)
      .when(change('2026-10-29T08:00:00.000Z', { startsAt: '2026-10-30T08:00:00.000Z', endsAt: '2026-10-30T08:30:00.000Z' }))
      .then([{ type: 'event.occurrence.changed' }]);
  });

  it('a moved occurrence holds its new slot and frees its old one; a non-busy one holds nothing', () => {
    const [moved] = given(scheduleDecider, history)
      .when(change('2026-10-29T08:00:00.000Z', { startsAt: '2026-10-29T15:00:00.000Z', endsAt: '2026-10-29T15:30:00.000Z' }))
      .then([{ type: 'event.occurrence.changed' }]);
    const h = [...history, moved];
    given(scheduleDecider, h).when(single('new', '2026-10-29T15:15:00.000Z', '2026-10-29T15:45:00.000Z')).thenThrows('time_conflict');
    given(scheduleDecider, h).when(single('old', '2026-10-29T08:00:00.000Z', '2026-10-29T08:30:00.000Z')).then([{ type: 'event.created' }]);
    const [idle] = given(scheduleDecider, history).when(change('2026-10-29T08:00:00.000Z', { busy: false })).then([{ type: 'event.occurrence.changed' }]);
    given(scheduleDecider, [...history, idle]).when(single('on-idle', '2026-10-29T08:00:00.000Z', '2026-10-29T08:30:00.000Z')).then([{ type: 'event.created' }]);
  });

  it('refuses an end before the start and an occurrence longer than an event may be, as 400', () => {
    given(scheduleDecider, history).when(change('2026-10-29T08:00:00.000Z', { endsAt: '2026-10-29T07:00:00.000Z' })).thenThrows('invalid_request');
    given(scheduleDecider, history).when(change('2026-10-29T08:00:00.000Z', { endsAt: '2027-12-01T07:00:00.000Z' })).thenThrows('invalid_request');
  });

  it(`refuses an exception past ${MAX_EXCEPTIONS}, but changes one it already holds`, () => {
    const day = (i: number) => iso(Date.parse('2026-01-01T09:00:00.000Z') + i * DAY);
    const full = event('full', {
      startsAt: day(0), endsAt: iso(Date.parse(day(0)) + 1_800_000), timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY',
      exceptions: Array.from({ length: MAX_EXCEPTIONS }, (_, i) => ({ occurrenceStartsAt: day(i), cancelled: true as const })),
    });
    const h = [spaceCreated, calendarCreated, created(full)];
    const err = given(scheduleDecider, h).when(cancel(day(MAX_EXCEPTIONS + 3), { eventId: 'full' })).thenThrows('too_many_exceptions');
    expect(err.status).toBe(409);
    given(scheduleDecider, h).when(change(day(MAX_EXCEPTIONS + 3), { title: 'x' }, { eventId: 'full' })).thenThrows('too_many_exceptions');
    const withMoved = { ...full, exceptions: [...full.exceptions.slice(1), { occurrenceStartsAt: day(0), title: 'Own' }] };
    given(scheduleDecider, [spaceCreated, calendarCreated, created(withMoved)])
      .when(change(day(0), { title: 'Own again' }, { eventId: 'full' }))
      .then([{ type: 'event.occurrence.changed' }]);
  });
});

describe('editing the whole series keeps the exceptions its rule still produces', () => {
  const moved = { occurrenceStartsAt: '2026-10-24T07:00:00.000Z', startsAt: '2026-10-24T10:00:00.000Z', endsAt: '2026-10-24T10:30:00.000Z' };
  const gone = { occurrenceStartsAt: '2026-10-30T08:00:00.000Z', cancelled: true as const };
  const withExceptions = [spaceCreated, calendarCreated, created({ ...berlin, exceptions: [moved, gone] })];
  const update = (changes: Partial<EventFields>): ScheduleCommand => ({ type: 'UpdateEvent', actorId: OWNER, eventId: 's1', changes, now: NOW });

  it('a new title keeps them all', () => {
    given(scheduleDecider, withExceptions).when(update({ title: 'Daily' })).then([{ type: 'event.updated', data: { exceptions: [moved, gone] } as never }]);
  });

  it('a shorter COUNT drops those past its end; a new time of day drops every one', () => {
    given(scheduleDecider, withExceptions).when(update({ recurrenceRule: 'FREQ=DAILY;COUNT=5' })).then([{ type: 'event.updated', data: { exceptions: [moved] } as never }]);
    given(scheduleDecider, withExceptions)
      .when(update({ startsAt: '2026-10-22T08:00:00.000Z', endsAt: '2026-10-22T08:30:00.000Z' }))
      .then([{ type: 'event.updated', data: { exceptions: [] } as never }]);
    given(scheduleDecider, withExceptions).when(update({ recurrenceRule: null })).then([{ type: 'event.updated', data: { exceptions: [] } as never }]);
  });

  it('checks the series with its exceptions: a moved occurrence conflicts where it now is', () => {
    const h = [...withExceptions, created(event('busy', { startsAt: '2026-10-24T10:15:00.000Z', endsAt: '2026-10-24T10:45:00.000Z', allowOverlap: true }))];
    // The series' conflicts are checked from now on: move "now" before the moved occurrence.
    given(scheduleDecider, h).when({ ...update({ title: 'x' }), now: '2026-10-20T00:00:00.000Z' } as ScheduleCommand).thenThrows('time_conflict');
    given(scheduleDecider, h)
      .when({ ...update({ title: 'x', recurrenceRule: 'FREQ=DAILY;COUNT=2' }), now: '2026-10-20T00:00:00.000Z' } as ScheduleCommand)
      .then([{ type: 'event.updated', data: { exceptions: [] } as never }]);
  });
});

describe('splitting a series ("this and following")', () => {
  const before = { occurrenceStartsAt: '2026-10-24T07:00:00.000Z', title: 'Saturday' };
  const after = { occurrenceStartsAt: '2026-10-29T08:00:00.000Z', startsAt: '2026-10-29T09:00:00.000Z', endsAt: '2026-10-29T09:30:00.000Z' };
  const h = [spaceCreated, calendarCreated, created({ ...berlin, exceptions: [before, after] })];

  it('ends the old series with UNTIL just before the occurrence (UTC) and starts the new one there with the COUNT left', () => {
    const [old, fresh] = given(scheduleDecider, h).when(split('2026-10-27T08:00:00.000Z', { title: 'Standup v2' })).then([
      { type: 'event.updated', data: { id: 's1', recurrenceRule: 'FREQ=DAILY;UNTIL=20261027T075959Z', exceptions: [before], version: 2 } as never },
      {
        type: 'event.created',
        data: {
          id: 's1-b', title: 'Standup v2', startsAt: '2026-10-27T08:00:00.000Z', endsAt: '2026-10-27T08:30:00.000Z',
          recurrenceRule: 'FREQ=DAILY;COUNT=5', timeZone: 'Europe/Berlin', exceptions: [after], version: 1, status: 'confirmed',
        } as never,
      },
    ]);
    const original = starts({ ...berlin, exceptions: [before, after] });
    expect([...starts(old.data as Event), ...starts(fresh.data as Event)]).toEqual(original);
  });

  it('an UNTIL series keeps its UNTIL in the new part; a series moved to another time drops its later exceptions', () => {
    const until = [spaceCreated, calendarCreated, created({ ...newYork, recurrenceRule: 'FREQ=DAILY;UNTIL=20261110T235959Z', exceptions: [
      { occurrenceStartsAt: '2026-11-04T14:00:00.000Z', cancelled: true },
    ] })];
    given(scheduleDecider, until).when(split('2026-11-02T14:00:00.000Z', {}, { eventId: 's2' })).then([
      { type: 'event.updated', data: { recurrenceRule: 'FREQ=DAILY;UNTIL=20261102T135959Z', exceptions: [] } as never },
      { type: 'event.created', data: { recurrenceRule: 'FREQ=DAILY;UNTIL=20261110T235959Z', startsAt: '2026-11-02T14:00:00.000Z', exceptions: [{ occurrenceStartsAt: '2026-11-04T14:00:00.000Z', cancelled: true }] } as never },
    ]);
    given(scheduleDecider, until)
      .when(split('2026-11-02T14:00:00.000Z', { startsAt: '2026-11-02T15:00:00.000Z', endsAt: '2026-11-02T16:00:00.000Z' }, { eventId: 's2' }))
      .then([{ type: 'event.updated' }, { type: 'event.created', data: { startsAt: '2026-11-02T15:00:00.000Z', exceptions: [] } as never }]);
  });

  it('refuses the first occurrence (400), a start the rule does not produce (404), a stale version (412)', () => {
    given(scheduleDecider, h).when(split('2026-10-22T07:00:00.000Z')).thenThrows('invalid_request');
    given(scheduleDecider, h).when(split('2026-10-27T07:00:00.000Z')).thenThrows('not_found');
    given(scheduleDecider, h).when(split('2026-10-27T08:00:00.000Z', {}, { expectedVersions: [5] })).thenThrows('version_mismatch');
    given(scheduleDecider, h).when(split('2026-10-27T08:00:00.000Z', {}, { actorId: OTHER })).thenThrows('not_found');
  });

  it('checks the new series against others but not against the part it came from', () => {
    const withRoom = [spaceCreated, calendarCreated, created({ ...berlin, resources: ['room:blue'] }),
      created(event('other', { startsAt: '2026-10-30T08:00:00.000Z', endsAt: '2026-10-30T08:30:00.000Z', busy: false, resources: ['room:red'] }))];
    given(scheduleDecider, withRoom).when({ ...split('2026-10-27T08:00:00.000Z'), now: '2026-10-20T00:00:00.000Z' } as ScheduleCommand)
      .then([{ type: 'event.updated' }, { type: 'event.created' }]);
    given(scheduleDecider, withRoom)
      .when({ ...split('2026-10-27T08:00:00.000Z', { resources: ['room:red'] }), now: '2026-10-20T00:00:00.000Z' } as ScheduleCommand)
      .thenThrows('resource_conflict');
  });
});

describe('answering an invitation to a series with exceptions', () => {
  const bo = { email: 'bo@example.com', name: null, userId: null, response: 'needs_action' as const };
  const al = { email: 'al@example.com', name: null, userId: null, response: 'needs_action' as const };
  const answer = (email: string): ScheduleCommand => ({ type: 'AnswerInvitation', userId: OTHER, email, eventId: 's1', answer: 'yes', now: NOW });

  it('answers for the series and every occurrence that lists the attendee; an occurrence-only guest may answer too', () => {
    const h = [spaceCreated, calendarCreated, created({ ...berlin, attendees: [al], exceptions: [
      { occurrenceStartsAt: '2026-10-23T07:00:00.000Z', attendees: [al, bo] },
      { occurrenceStartsAt: '2026-10-24T07:00:00.000Z', title: 'Saturday', attendees: [] },
    ] })];
    const yes = (a: typeof bo) => ({ ...a, userId: OTHER, response: 'yes' });
    given(scheduleDecider, h).when(answer('bo@example.com')).then([{ type: 'event.updated', data: {
      attendees: [al],
      exceptions: [{ occurrenceStartsAt: '2026-10-23T07:00:00.000Z', attendees: [al, yes(bo)] }, { occurrenceStartsAt: '2026-10-24T07:00:00.000Z', title: 'Saturday', attendees: [] }],
    } as never }]);
    // An answer that leaves an occurrence's guests as the series' makes them the series' again.
    const onlyAl = [spaceCreated, calendarCreated, created({ ...berlin, attendees: [al], exceptions: [{ occurrenceStartsAt: '2026-10-23T07:00:00.000Z', attendees: [al] }] })];
    given(scheduleDecider, onlyAl).when(answer('al@example.com')).then([{ type: 'event.updated', data: { attendees: [yes(al)], exceptions: [] } as never }]);
    given(scheduleDecider, h).when(answer('eve@example.com')).thenThrows('not_found');
  });
});
