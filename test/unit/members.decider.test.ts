/**
 * The schedule decider's sharing rules (write-api/schedule/members.rules.ts): who may share a calendar, add an
 * organization member, and what each role may then do with the events, every refusal included.
 */
import type { CalendarMemberRecord } from '../../contracts/calendar-members';
import type { Event } from '../../contracts/events';
import type { SpaceMemberRecord } from '../../contracts/organizations';
import { scheduleDecider, type EventFields, type ScheduleCommand } from '../../write-api/schedule/schedule.decider';
import { given } from '../support/given';

const OWNER = '11111111-1111-4111-8111-111111111111';
const MEMBER = '22222222-2222-4222-8222-222222222222';
const STRANGER = '33333333-3333-4333-8333-333333333333';
const SPACE = '44444444-4444-4444-8444-444444444444';
const CAL = '55555555-5555-4555-8555-555555555555';
const OTHER_CAL = '66666666-6666-4666-8666-666666666666';
const NOW = '2031-02-03T10:00:00.000Z';
const LATER = '2031-02-04T10:00:00.000Z';

const person = (userId: string) => ({ userId, email: `${userId.slice(0, 4)}@example.com`, name: 'Someone' });

const space = (kind: 'personal' | 'shared') => ({
  type: 'space.created' as const,
  data: { space: { id: SPACE, name: 'Home', kind, ownerId: OWNER, createdAt: NOW, updatedAt: NOW, deletedAt: null } },
});
const calendar = (id: string) => ({
  type: 'calendar.created' as const,
  data: { calendar: { id, spaceId: SPACE, name: 'Cal', color: '#112233', isDefault: id === CAL, createdAt: NOW, updatedAt: NOW, deletedAt: null } },
});
const record = (userId: string, role: CalendarMemberRecord['role'], calendarId = CAL): CalendarMemberRecord => ({
  calendarId, spaceId: SPACE, calendarOwnerId: OWNER, ...person(userId), role, addedBy: OWNER, createdAt: NOW, updatedAt: NOW,
});
const shared = (userId: string, role: CalendarMemberRecord['role'], calendarId = CAL) =>
  ({ type: 'calendar.member.added' as const, data: record(userId, role, calendarId) });
const unshared = (userId: string) => ({ type: 'calendar.member.removed' as const, data: record(userId, 'reader') });
const joined = (userId: string, role: SpaceMemberRecord['role']) => ({
  type: 'space.member.added' as const,
  data: { spaceId: SPACE, ...person(userId), role, addedBy: OWNER, createdAt: NOW },
});

function fields(overrides: Partial<EventFields> = {}): EventFields {
  return {
    calendarId: CAL, title: 'Planning', description: null, location: 'Room 1', meetingUrl: null, kind: 'meeting',
    startsAt: '2031-03-01T09:00:00.000Z', endsAt: '2031-03-01T10:00:00.000Z', timeZone: 'Europe/Berlin', allDay: false,
    busy: true, recurrenceRule: null, taskId: null, goalId: null, resources: [], attendees: [], reminders: [], allowOverlap: false,
    ...overrides,
  };
}
const event = (id: string, calendarId = CAL) => {
  const data: Event = {
    ...fields({ calendarId }), id, spaceId: SPACE, exceptions: [], icalUid: null, icalRecurrenceId: null, status: 'confirmed', createdBy: OWNER, createdAt: NOW,
    updatedAt: NOW, deletedAt: null, version: 1,
  };
  return { type: 'event.created' as const, data };
};

const base = [space('personal'), calendar(CAL), calendar(OTHER_CAL), event('e1'), event('e2', OTHER_CAL)];
const share = (actorId: string, role: CalendarMemberRecord['role'], p: ReturnType<typeof person> | null = person(MEMBER)): ScheduleCommand => ({
  type: 'ShareCalendar', actorId, calendarId: CAL, person: p, role, now: LATER,
});
const unshare = (actorId: string, userId = MEMBER): ScheduleCommand => ({ type: 'UnshareCalendar', actorId, calendarId: CAL, userId, now: LATER });
const createIn = (actorId: string, calendarId = CAL): ScheduleCommand => ({
  type: 'CreateEvent', actorId, eventId: 'e-new', fields: fields({ calendarId, startsAt: '2031-03-02T09:00:00.000Z', endsAt: '2031-03-02T10:00:00.000Z' }), now: LATER,
});
const update = (actorId: string, eventId = 'e1', changes: Partial<EventFields> = { title: 'Renamed' }): ScheduleCommand => ({
  type: 'UpdateEvent', actorId, eventId, changes, now: LATER,
});
const cancel = (actorId: string, eventId = 'e1'): ScheduleCommand => ({ type: 'CancelEvent', actorId, eventId, now: LATER });

describe('sharing a calendar', () => {
  it('the owner gives a role: the member as recorded, sealed under the member (top-level userId)', () => {
    const [added] = given(scheduleDecider, base).when(share(OWNER, 'reader')).then([
      { type: 'calendar.member.added', data: { calendarId: CAL, spaceId: SPACE, calendarOwnerId: OWNER, userId: MEMBER, role: 'reader', createdAt: LATER } as never },
    ]);
    expect(added.data).not.toHaveProperty('ownerId');
  });

  it('a new role keeps when they were first added; the same role again changes nothing', () => {
    given(scheduleDecider, [...base, shared(MEMBER, 'reader')]).when(share(OWNER, 'writer')).then([
      { type: 'calendar.member.added', data: { role: 'writer', createdAt: NOW, updatedAt: LATER } as never },
    ]);
    given(scheduleDecider, [...base, shared(MEMBER, 'reader')]).when(share(OWNER, 'reader')).then([]);
  });

  it('refuses: a stranger (404), a member (403), nobody by that email (404), the owner themself (409)', () => {
    given(scheduleDecider, base).when(share(STRANGER, 'reader')).thenThrows('not_found');
    given(scheduleDecider, [...base, shared(MEMBER, 'writer')]).when({ ...share(MEMBER, 'reader'), person: person(STRANGER) } as ScheduleCommand).thenThrows('forbidden');
    given(scheduleDecider, [...base, shared(MEMBER, 'freeBusyReader')]).when({ ...share(MEMBER, 'reader'), person: person(STRANGER) } as ScheduleCommand).thenThrows('forbidden');
    given(scheduleDecider, base).when(share(OWNER, 'reader', null)).thenThrows('not_found');
    given(scheduleDecider, base).when(share(OWNER, 'reader', person(OWNER))).thenThrows('already_owner');
    given(scheduleDecider, []).when(share(OWNER, 'reader')).thenThrows('not_found');
  });

  it('a calendar holds at most 100 members; changing one of them still works', () => {
    const hundred = Array.from({ length: 100 }, (_, i) => shared(`77777777-7777-4777-8777-${String(i).padStart(12, '0')}`, 'reader'));
    given(scheduleDecider, [...base, ...hundred]).when(share(OWNER, 'reader')).thenThrows('too_many_members');
    const first = hundred[0].data.userId;
    given(scheduleDecider, [...base, ...hundred]).when(share(OWNER, 'writer', person(first))).then([{ type: 'calendar.member.added' }]);
  });

  it('the owner takes a role away, a member may leave; others may not, and nobody is removed twice', () => {
    const h = [...base, shared(MEMBER, 'reader'), shared(STRANGER, 'writer')];
    given(scheduleDecider, h).when(unshare(OWNER)).then([{ type: 'calendar.member.removed', data: { userId: MEMBER, role: 'reader', updatedAt: LATER } as never }]);
    given(scheduleDecider, h).when(unshare(MEMBER)).then([{ type: 'calendar.member.removed' }]);
    given(scheduleDecider, h).when(unshare(STRANGER, MEMBER)).thenThrows('forbidden');
    given(scheduleDecider, [...h, unshared(MEMBER)]).when(unshare(OWNER)).thenThrows('not_found');
    given(scheduleDecider, base).when(unshare(STRANGER)).thenThrows('not_found');
  });
});

describe('what each role may do with the events', () => {
  const as = (role: CalendarMemberRecord['role']) => [...base, shared(MEMBER, role)];

  it('a writer creates, changes and cancels on that calendar (the event in the owner\'s Space)', () => {
    given(scheduleDecider, as('writer')).when(createIn(MEMBER)).then([{ type: 'event.created', data: { spaceId: SPACE, calendarId: CAL, createdBy: MEMBER } as never }]);
    given(scheduleDecider, as('writer')).when(update(MEMBER)).then([{ type: 'event.updated', data: { title: 'Renamed' } as never }]);
    given(scheduleDecider, as('writer')).when(cancel(MEMBER)).then([{ type: 'event.cancelled' }]);
  });

  it('a writer of one calendar only: not the Space\'s other calendars, nor moving an event there', () => {
    given(scheduleDecider, as('writer')).when(createIn(MEMBER, OTHER_CAL)).thenThrows('not_found');
    given(scheduleDecider, as('writer')).when(update(MEMBER, 'e2')).thenThrows('not_found');
    given(scheduleDecider, as('writer')).when(cancel(MEMBER, 'e2')).thenThrows('not_found');
    given(scheduleDecider, as('writer')).when(update(MEMBER, 'e1', { calendarId: OTHER_CAL })).thenThrows('not_found');
    given(scheduleDecider, as('writer')).when({ type: 'CreateCalendar', actorId: MEMBER, calendar: calendar('c-new').data.calendar }).thenThrows('not_found');
  });

  it('a reader sees but may not change (403); a freeBusyReader and a stranger do not see (404)', () => {
    for (const command of [createIn(MEMBER), update(MEMBER), cancel(MEMBER)]) given(scheduleDecider, as('reader')).when(command).thenThrows('forbidden');
    for (const command of [createIn(MEMBER), update(MEMBER), cancel(MEMBER)]) given(scheduleDecider, as('freeBusyReader')).when(command).thenThrows('not_found');
    for (const command of [createIn(STRANGER), update(STRANGER), cancel(STRANGER)]) given(scheduleDecider, as('writer')).when(command).thenThrows('not_found');
  });

  it('a role taken away ends at once', () => {
    given(scheduleDecider, [...as('writer'), unshared(MEMBER)]).when(update(MEMBER)).thenThrows('not_found');
  });
});

describe('organizations: members and admins of a shared Space', () => {
  const org = [space('shared'), calendar(CAL)];
  const add = (actorId: string, userId: string, role: SpaceMemberRecord['role'] = 'member'): ScheduleCommand => ({
    type: 'AddSpaceMember', actorId, person: person(userId), role, now: LATER,
  });

  it('the owner and admins add members; a member may not (403), a stranger gets 404', () => {
    given(scheduleDecider, org).when(add(OWNER, MEMBER)).then([{ type: 'space.member.added', data: { spaceId: SPACE, userId: MEMBER, role: 'member', addedBy: OWNER } as never }]);
    given(scheduleDecider, [...org, joined(MEMBER, 'admin')]).when(add(MEMBER, STRANGER)).then([{ type: 'space.member.added', data: { addedBy: MEMBER } as never }]);
    given(scheduleDecider, [...org, joined(MEMBER, 'member')]).when(add(MEMBER, STRANGER)).thenThrows('forbidden');
    given(scheduleDecider, org).when(add(STRANGER, MEMBER)).thenThrows('not_found');
  });

  it('refuses a personal Space, nobody by that email, the owner; the same role again changes nothing', () => {
    given(scheduleDecider, [space('personal'), calendar(CAL)]).when(add(OWNER, MEMBER)).thenThrows('not_found');
    given(scheduleDecider, org).when({ ...add(OWNER, MEMBER), person: null } as ScheduleCommand).thenThrows('not_found');
    given(scheduleDecider, org).when(add(OWNER, OWNER)).thenThrows('already_owner');
    given(scheduleDecider, [...org, joined(MEMBER, 'member')]).when(add(OWNER, MEMBER)).then([]);
    given(scheduleDecider, [...org, joined(MEMBER, 'member')]).when(add(OWNER, MEMBER, 'admin')).then([{ type: 'space.member.added', data: { role: 'admin', createdAt: NOW } as never }]);
  });

  it('members write on its calendars; admins also add calendars', () => {
    given(scheduleDecider, [...org, joined(MEMBER, 'member')]).when(createIn(MEMBER)).then([{ type: 'event.created' }]);
    given(scheduleDecider, [...org, joined(MEMBER, 'member')]).when({ type: 'CreateCalendar', actorId: MEMBER, calendar: calendar('c-new').data.calendar }).thenThrows('not_found');
    given(scheduleDecider, [...org, joined(MEMBER, 'admin')]).when({ type: 'CreateCalendar', actorId: MEMBER, calendar: calendar('c-new').data.calendar }).then([{ type: 'calendar.created' }]);
  });
});
