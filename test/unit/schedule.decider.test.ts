import type { Event } from '../../contracts/events';
import { scheduleDecider, type EventFields, type ScheduleCommand } from '../../write-api/schedule/schedule.decider';
import { given } from '../support/given';

const OWNER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const SPACE = '33333333-3333-4333-8333-333333333333';
const CAL = '44444444-4444-4444-8444-444444444444';
const CAL2 = '55555555-5555-4555-8555-555555555555';
const NOW = '2026-11-22T00:00:00.000Z';

const spaceCreated = {
  type: 'space.created' as const,
  data: { space: { id: SPACE, name: 'Home', kind: 'personal' as const, ownerId: OWNER, createdAt: NOW, updatedAt: NOW, deletedAt: null } },
};
const calendar = (id: string) => ({
  type: 'calendar.created' as const,
  data: { calendar: { id, spaceId: SPACE, name: 'Cal', color: '#112233', isDefault: id === CAL, createdAt: NOW, updatedAt: NOW, deletedAt: null } },
});

function fields(overrides: Partial<EventFields> = {}): EventFields {
  return {
    calendarId: CAL, title: 'Meeting', description: null, location: null, meetingUrl: null, kind: 'meeting',
    startsAt: '2026-12-01T09:00:00.000Z', endsAt: '2026-12-01T10:00:00.000Z', timeZone: 'Europe/Berlin',
    allDay: false, busy: true, recurrenceRule: null, taskId: null, goalId: null, resources: [], attendees: [], reminders: [],
    allowOverlap: false, ...overrides,
  };
}

function existing(id: string, overrides: Partial<EventFields> = {}, status: Event['status'] = 'confirmed') {
  const data: Event = {
    ...fields(overrides), id, spaceId: SPACE, exceptions: [], icalUid: null, icalRecurrenceId: null, status, createdBy: OWNER, createdAt: NOW, updatedAt: NOW,
    deletedAt: status === 'cancelled' ? NOW : null, version: 1,
  };
  return { type: 'event.created' as const, data };
}

const create = (o: Partial<EventFields> = {}, actorId = OWNER): ScheduleCommand => ({
  type: 'CreateEvent', actorId, eventId: 'e-new', fields: fields(o), now: NOW,
});

const history = [spaceCreated, calendar(CAL), calendar(CAL2)];

describe('schedule decider: creating events', () => {
  it('creates a confirmed event at version 1', () => {
    given(scheduleDecider, history).when(create()).then([
      { type: 'event.created', data: { id: 'e-new', spaceId: SPACE, status: 'confirmed', version: 1, createdBy: OWNER } as never },
    ]);
  });

  it('refuses someone who is not a member of the Space, as not found', () => {
    given(scheduleDecider, history).when(create({}, OTHER)).thenThrows('not_found');
  });

  it('refuses a calendar of another Space', () => {
    given(scheduleDecider, history).when(create({ calendarId: '66666666-6666-4666-8666-666666666666' })).thenThrows('not_found');
  });

  it('refuses an overlapping busy event in the same calendar', () => {
    const err = given(scheduleDecider, [...history, existing('e1')])
      .when(create({ startsAt: '2026-12-01T09:30:00.000Z', endsAt: '2026-12-01T11:00:00.000Z' }))
      .thenThrows('time_conflict');
    expect(err.details).toEqual({ conflicts: [{ id: 'e1', startsAt: '2026-12-01T09:00:00.000Z', endsAt: '2026-12-01T10:00:00.000Z' }] });
  });

  it('allows the overlap when asked, when not busy, in another calendar, or back to back', () => {
    const h = [...history, existing('e1')];
    given(scheduleDecider, h).when(create({ allowOverlap: true })).then([{ type: 'event.created' }]);
    given(scheduleDecider, h).when(create({ busy: false })).then([{ type: 'event.created' }]);
    given(scheduleDecider, h).when(create({ calendarId: CAL2 })).then([{ type: 'event.created' }]);
    given(scheduleDecider, h)
      .when(create({ startsAt: '2026-12-01T10:00:00.000Z', endsAt: '2026-12-01T11:00:00.000Z' }))
      .then([{ type: 'event.created' }]);
  });

  it('ignores cancelled events', () => {
    given(scheduleDecider, [...history, existing('e1', {}, 'cancelled')]).when(create()).then([{ type: 'event.created' }]);
  });

  it('refuses a shared resource in the Space whatever allowOverlap and calendar say', () => {
    given(scheduleDecider, [...history, existing('e1', { resources: ['room:blue'], busy: false })])
      .when(create({ calendarId: CAL2, allowOverlap: true, busy: false, resources: ['room:blue'] }))
      .thenThrows('resource_conflict');
  });

  it('checks a recurring series occurrence by occurrence', () => {
    // Weekly on Tuesdays from 1 Dec: the fourth occurrence (22 Dec) hits the single event.
    given(scheduleDecider, [...history, existing('e1', { startsAt: '2026-12-22T09:15:00.000Z', endsAt: '2026-12-22T09:45:00.000Z' })])
      .when(create({ recurrenceRule: 'FREQ=WEEKLY;BYDAY=TU' }))
      .thenThrows('time_conflict');
  });

  it('finds a single event landing on an existing series', () => {
    given(scheduleDecider, [...history, existing('e1', { recurrenceRule: 'FREQ=DAILY' })])
      .when(create({ startsAt: '2027-03-10T09:30:00.000Z', endsAt: '2027-03-10T09:45:00.000Z' }))
      .thenThrows('time_conflict');
  });

  it('refuses an invalid or unsupported recurrence rule', () => {
    given(scheduleDecider, history).when(create({ recurrenceRule: 'FREQ=SOMETIMES' })).thenThrows('invalid_request');
    given(scheduleDecider, history).when(create({ recurrenceRule: 'FREQ=MINUTELY' })).thenThrows('invalid_request');
  });
});

describe('schedule decider: changing events', () => {
  const h = [...history, existing('e1'), existing('e2', { startsAt: '2026-12-01T11:00:00.000Z', endsAt: '2026-12-01T12:00:00.000Z' })];

  it('updates the whole event and bumps the version', () => {
    given(scheduleDecider, h)
      .when({ type: 'UpdateEvent', actorId: OWNER, eventId: 'e1', changes: { title: 'Renamed' }, now: NOW })
      .then([{ type: 'event.updated', data: { id: 'e1', title: 'Renamed', version: 2, startsAt: '2026-12-01T09:00:00.000Z' } as never }]);
  });

  it('refuses a move onto another busy event', () => {
    given(scheduleDecider, h)
      .when({ type: 'UpdateEvent', actorId: OWNER, eventId: 'e1', changes: { endsAt: '2026-12-01T11:30:00.000Z' }, now: NOW })
      .thenThrows('time_conflict');
  });

  it('refuses a stale expected version', () => {
    given(scheduleDecider, h)
      .when({ type: 'UpdateEvent', actorId: OWNER, eventId: 'e1', changes: { title: 'x' }, expectedVersions: [7], now: NOW })
      .thenThrows('version_mismatch');
    given(scheduleDecider, h).when({ type: 'CancelEvent', actorId: OWNER, eventId: 'e1', expectedVersions: [2], now: NOW }).thenThrows('version_mismatch');
  });

  it('cancels with the whole event and a deletedAt; a cancelled event is gone for later commands', () => {
    const [cancelled] = given(scheduleDecider, h)
      .when({ type: 'CancelEvent', actorId: OWNER, eventId: 'e1', now: NOW })
      .then([{ type: 'event.cancelled', data: { id: 'e1', status: 'cancelled', deletedAt: NOW, title: 'Meeting' } as never }]);
    given(scheduleDecider, [...h, cancelled]).when({ type: 'CancelEvent', actorId: OWNER, eventId: 'e1', now: NOW }).thenThrows('not_found');
  });

  it('lets an attendee answer, and nobody else', () => {
    const invited = existing('e3', {
      startsAt: '2026-12-02T09:00:00.000Z', endsAt: '2026-12-02T10:00:00.000Z',
      attendees: [{ email: 'Bob@Example.com', name: null, userId: null, response: 'needs_action' }],
    });
    given(scheduleDecider, [...history, invited])
      .when({ type: 'AnswerInvitation', userId: OTHER, email: 'bob@example.com', eventId: 'e3', answer: 'yes', now: NOW })
      .then([{ type: 'event.updated', data: { attendees: [{ email: 'Bob@Example.com', name: null, userId: OTHER, response: 'yes' }] } as never }]);
    given(scheduleDecider, [...history, invited])
      .when({ type: 'AnswerInvitation', userId: OTHER, email: 'eve@example.com', eventId: 'e3', answer: 'yes', now: NOW })
      .thenThrows('not_found');
  });
});

describe('schedule decider: creating planner blocks at once', () => {
  const block = (eventId: string, startsAt: string, endsAt: string, o: Partial<EventFields> = {}) =>
    ({ eventId, fields: fields({ kind: 'task', startsAt, endsAt, ...o }) });
  const blocks = (actorId = OWNER, ...events: Array<ReturnType<typeof block>>): ScheduleCommand =>
    ({ type: 'CreateEvents', actorId, events, now: NOW });
  const nine = block('b1', '2026-12-01T09:00:00.000Z', '2026-12-01T10:00:00.000Z');
  const eleven = block('b2', '2026-12-01T11:00:00.000Z', '2026-12-01T12:00:00.000Z');

  it('creates every block, in order', () => {
    given(scheduleDecider, history).when(blocks(OWNER, nine, eleven)).then([
      { type: 'event.created', data: { id: 'b1', kind: 'task', status: 'confirmed', version: 1 } as never },
      { type: 'event.created', data: { id: 'b2', startsAt: '2026-12-01T11:00:00.000Z' } as never },
    ]);
  });

  it('refuses them all when any overlaps a busy event of any calendar of the Space, naming every overlap', () => {
    const h = [...history, existing('e1', { calendarId: CAL2, startsAt: '2026-12-01T11:30:00.000Z', endsAt: '2026-12-01T13:00:00.000Z' })];
    const err = given(scheduleDecider, h).when(blocks(OWNER, nine, eleven)).thenThrows('time_conflict');
    expect(err.details).toEqual({ conflicts: [{ id: 'e1', startsAt: '2026-12-01T11:30:00.000Z', endsAt: '2026-12-01T13:00:00.000Z' }] });
    given(scheduleDecider, [...history, existing('e2', { busy: false })]).when(blocks(OWNER, nine)).then([{ type: 'event.created' }]);
  });

  it('refuses someone who is not a member, an unknown calendar and a repeated id', () => {
    given(scheduleDecider, history).when(blocks(OTHER, nine)).thenThrows('not_found');
    given(scheduleDecider, history)
      .when(blocks(OWNER, block('b3', '2026-12-01T09:00:00.000Z', '2026-12-01T10:00:00.000Z', { calendarId: '66666666-6666-4666-8666-666666666666' })))
      .thenThrows('not_found');
    given(scheduleDecider, [...history, existing('b1', { startsAt: '2026-12-02T09:00:00.000Z', endsAt: '2026-12-02T10:00:00.000Z' })])
      .when(blocks(OWNER, nine)).thenThrows('duplicate_id');
  });
});
