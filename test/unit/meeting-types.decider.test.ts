/** Meeting types in their owner's collection: slugs unique per owner, hours that fit the duration, the limit. */
import { MAX_MEETING_TYPES, type MeetingType } from '../../contracts/bookings';
import { meetingTypesDecider, type MeetingTypeFields } from '../../write-api/bookings/meeting-types.decider';
import { given } from '../support/given';

const OWNER = '11111111-1111-4111-8111-111111111111';
const NOW = '2026-11-22T00:00:00.000Z';

const fields = (overrides: Partial<MeetingTypeFields> = {}): MeetingTypeFields => ({
  ownerId: OWNER, name: 'Intro call', slug: 'intro', durationMinutes: 30, description: null, location: null, enabled: true,
  bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minimumNoticeMinutes: 0, hours: [{ day: 1, startMinute: 540, endMinute: 1020 }],
  calendarId: null, durations: [30], dateOverrides: [], limits: { perDay: null, perWeek: null }, seats: 1, requiresConfirmation: false,
  hosts: [], assignment: null, ...overrides,
});
const created = (id: string, overrides: Partial<MeetingTypeFields> = {}) => ({
  type: 'meeting_type.created' as const,
  data: { id, ...fields(overrides), createdAt: NOW, updatedAt: NOW, deletedAt: null, version: 1 } as MeetingType,
});

describe('meeting types decider', () => {
  it('creates a type at version 1', () => {
    given(meetingTypesDecider, []).when({ type: 'Create', id: 't1', fields: fields(), now: NOW })
      .then([{ type: 'meeting_type.created', data: { id: 't1', slug: 'intro', version: 1 } as never }]);
  });

  it('refuses a slug the owner already uses, on create and on update (slug_taken)', () => {
    given(meetingTypesDecider, [created('t1')]).when({ type: 'Create', id: 't2', fields: fields(), now: NOW }).thenThrows('slug_taken');
    given(meetingTypesDecider, [created('t1'), created('t2', { slug: 'other' })]).when({ type: 'Update', id: 't2', changes: { slug: 'intro' }, now: NOW }).thenThrows('slug_taken');
    given(meetingTypesDecider, [created('t1')]).when({ type: 'Update', id: 't1', changes: { slug: 'intro', name: 'Same' }, now: NOW })
      .then([{ type: 'meeting_type.updated', data: { name: 'Same', version: 2 } as never }]);
  });

  it('frees the slug of a deleted type, and answers a repeated create with nothing', () => {
    const deleted = { type: 'meeting_type.deleted' as const, data: { ...created('t1').data, deletedAt: NOW, version: 2 } };
    given(meetingTypesDecider, [created('t1'), deleted]).when({ type: 'Create', id: 't2', fields: fields(), now: NOW }).then([{ type: 'meeting_type.created' }]);
    given(meetingTypesDecider, [created('t1')]).when({ type: 'Create', id: 't1', fields: fields(), now: NOW }).then([]);
  });

  it('takes a duration longer than any of its hours (the type then offers no slots)', () => {
    given(meetingTypesDecider, [created('t1')]).when({ type: 'Update', id: 't1', changes: { durationMinutes: 600 }, now: NOW }).then([{ type: 'meeting_type.updated' }]);
  });

  it(`keeps at most ${MAX_MEETING_TYPES} types per person`, () => {
    const many = Array.from({ length: MAX_MEETING_TYPES }, (_, i) => created(`t${i}`, { slug: `s${i}` }));
    given(meetingTypesDecider, many).when({ type: 'Create', id: 'tx', fields: fields({ slug: 'new' }), now: NOW }).thenThrows('meeting_type_limit_reached');
  });
});

describe('the fields a change keeps together', () => {
  const stored = (overrides: Partial<MeetingTypeFields> = {}) => created('t1', overrides);

  it('keeps the default length first: durations sent, durationMinutes sent alone (it replaces the default), both', () => {
    const withTwo = stored({ durationMinutes: 30, durations: [30, 60] });
    given(meetingTypesDecider, [withTwo]).when({ type: 'Update', id: 't1', changes: { durations: [45, 15] }, now: NOW })
      .then([{ type: 'meeting_type.updated', data: { durationMinutes: 45, durations: [45, 15] } as never }]);
    given(meetingTypesDecider, [withTwo]).when({ type: 'Update', id: 't1', changes: { durationMinutes: 20 }, now: NOW })
      .then([{ type: 'meeting_type.updated', data: { durationMinutes: 20, durations: [20, 60] } as never }]);
    given(meetingTypesDecider, [withTwo]).when({ type: 'Update', id: 't1', changes: { durationMinutes: 60 }, now: NOW })
      .then([{ type: 'meeting_type.updated', data: { durationMinutes: 60, durations: [60] } as never }]);
    given(meetingTypesDecider, [withTwo]).when({ type: 'Update', id: 't1', changes: { durationMinutes: 15, durations: [30, 15, 60] }, now: NOW })
      .then([{ type: 'meeting_type.updated', data: { durationMinutes: 15, durations: [15, 30, 60] } as never }]);
  });

  it('gives hosts an assignment (collective unless said), and drops it with the hosts', () => {
    const HOSTS = ['22222222-2222-4222-8222-222222222222', '33333333-3333-4333-8333-333333333333'];
    given(meetingTypesDecider, [stored()]).when({ type: 'Update', id: 't1', changes: { hosts: HOSTS }, now: NOW })
      .then([{ type: 'meeting_type.updated', data: { hosts: HOSTS, assignment: 'collective' } as never }]);
    const team = stored({ hosts: HOSTS, assignment: 'round_robin' });
    given(meetingTypesDecider, [team]).when({ type: 'Update', id: 't1', changes: { hosts: [HOSTS[0]] }, now: NOW })
      .then([{ type: 'meeting_type.updated', data: { hosts: [HOSTS[0]], assignment: 'round_robin' } as never }]);
    given(meetingTypesDecider, [team]).when({ type: 'Update', id: 't1', changes: { hosts: [] }, now: NOW })
      .then([{ type: 'meeting_type.updated', data: { hosts: [], assignment: null } as never }]);
    given(meetingTypesDecider, [stored()]).when({ type: 'Update', id: 't1', changes: { assignment: 'round_robin' }, now: NOW })
      .then([{ type: 'meeting_type.updated', data: { hosts: [], assignment: null } as never }]);
  });
});
