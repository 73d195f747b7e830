/**
 * The import in the Space schedule (write-api/calendars/import.rules.ts) and the feed address aggregate
 * (feed.decider.ts), given/when/then: every outcome of an item (new, unchanged, changed, cancelled by the file,
 * cancelled here, a UID of an event made here, a rule spelled otherwise), nothing for someone else's Space, and the
 * feed's issue, replacement and revocation.
 */
import type { Event } from '../../contracts/events';
import type { ImportItem } from '../../write-api/calendars/import.rules';
import { feedDecider } from '../../write-api/calendars/feed.decider';
import { scheduleDecider } from '../../write-api/schedule/schedule.decider';
import { given } from '../support/given';

const OWNER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const SPACE = '33333333-3333-4333-8333-333333333333';
const CAL = '44444444-4444-4444-8444-444444444444';
const NOW = '2026-11-22T00:00:00.000Z';
const LATER = '2026-11-23T00:00:00.000Z';
const IMPORTED = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const MADE_HERE = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';

const history = [
  { type: 'space.created' as const, data: { space: { id: SPACE, name: 'Home', kind: 'personal' as const, ownerId: OWNER, createdAt: NOW, updatedAt: NOW, deletedAt: null } } },
  { type: 'calendar.created' as const, data: { calendar: { id: CAL, spaceId: SPACE, name: 'Cal', color: '#112233', isDefault: true, createdAt: NOW, updatedAt: NOW, deletedAt: null } } },
];

const fileFields = (o: Partial<ImportItem['fields']> = {}): ImportItem['fields'] => ({
  title: 'Sync', description: null, location: null, meetingUrl: null, kind: 'meeting', startsAt: '2026-12-01T09:00:00.000Z',
  endsAt: '2026-12-01T10:00:00.000Z', timeZone: 'Europe/Berlin', allDay: false, busy: true, recurrenceRule: null, attendees: [],
  reminders: [], ...o,
});
const item = (o: Partial<ImportItem> = {}): ImportItem => ({
  eventId: IMPORTED, sameAs: null, icalUid: 'sync@example.org', icalRecurrenceId: null, fields: fileFields(), exceptions: [], cancelled: false, ...o,
});
const stored = (o: Partial<Event>): Event => ({
  id: IMPORTED, spaceId: SPACE, calendarId: CAL, ...fileFields(), taskId: null, goalId: null, resources: [], allowOverlap: true,
  exceptions: [], icalUid: 'sync@example.org', icalRecurrenceId: null, status: 'confirmed', createdBy: OWNER, createdAt: NOW,
  updatedAt: NOW, deletedAt: null, version: 1, ...o,
});
const importing = (items: ImportItem[], actorId = OWNER) => ({ type: 'ImportEvents' as const, actorId, calendarId: CAL, items, now: LATER });
const withEvent = (e: Event, type: 'event.created' | 'event.cancelled' = 'event.created') => [...history, { type, data: e }];

describe('import', () => {
  it('creates a new event with its UID, overlap allowed and no resources', () => {
    given(scheduleDecider, history).when(importing([item()])).then([{
      type: 'event.created',
      data: { id: IMPORTED, calendarId: CAL, icalUid: 'sync@example.org', allowOverlap: true, resources: [], version: 1, createdAt: LATER } as never,
    }]);
  });

  it('leaves an unchanged event alone, even with its rule spelled otherwise', () => {
    const rule = { recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO;COUNT=3' };
    given(scheduleDecider, withEvent(stored(rule))).when(importing([item({ fields: fileFields({ recurrenceRule: 'FREQ=WEEKLY;COUNT=3;BYDAY=MO' }) })])).then([]);
  });

  it('updates a changed one, keeping what the file does not carry', () => {
    given(scheduleDecider, withEvent(stored({ resources: ['room:blue'], taskId: null }))).when(importing([item({ fields: fileFields({ title: 'Sync (new)' }) })]))
      .then([{ type: 'event.updated', data: { title: 'Sync (new)', resources: ['room:blue'], version: 2, updatedAt: LATER } as never }]);
  });

  it('brings back one cancelled here when a CalDAV PUT writes it again (reviveCancelled), never for a cancelled item', () => {
    const cancelledHere = withEvent(stored({ status: 'cancelled', deletedAt: NOW, version: 2 }), 'event.cancelled');
    given(scheduleDecider, cancelledHere).when({ ...importing([item({ fields: fileFields({ title: 'Again' }) })]), reviveCancelled: true })
      .then([{ type: 'event.updated', data: { title: 'Again', status: 'confirmed', deletedAt: null, version: 3, updatedAt: LATER } as never }]);
    given(scheduleDecider, cancelledHere).when({ ...importing([item({ cancelled: true })]), reviveCancelled: true }).then([]);
  });

  it('cancels what the file cancels; ignores a cancelled one it does not have; does not bring back one cancelled here', () => {
    given(scheduleDecider, withEvent(stored({}))).when(importing([item({ cancelled: true })])).then([{ type: 'event.cancelled', data: { status: 'cancelled', deletedAt: LATER } as never }]);
    given(scheduleDecider, history).when(importing([item({ cancelled: true })])).then([]);
    given(scheduleDecider, withEvent(stored({ status: 'cancelled', deletedAt: NOW }), 'event.cancelled')).when(importing([item({ fields: fileFields({ title: 'x' }) })])).then([]);
  });

  it('the UID of an event made here, in its calendar, is that event (no copy, no UID given to it)', () => {
    const madeHere = stored({ id: MADE_HERE, icalUid: null, allowOverlap: false });
    given(scheduleDecider, withEvent(madeHere)).when(importing([item({ sameAs: MADE_HERE, icalUid: `${MADE_HERE}@calendar-service` })])).then([]);
    given(scheduleDecider, withEvent(madeHere)).when(importing([item({ sameAs: MADE_HERE, fields: fileFields({ title: 'Renamed' }) })]))
      .then([{ type: 'event.updated', data: { id: MADE_HERE, title: 'Renamed', icalUid: null, allowOverlap: false } as never }]);
  });

  it('refuses a Space of someone else, and a rule the limits refuse, writing nothing', () => {
    given(scheduleDecider, history).when(importing([item()], OTHER)).thenThrows('not_found');
    given(scheduleDecider, history).when(importing([item(), item({ eventId: MADE_HERE, fields: fileFields({ recurrenceRule: 'FREQ=SECONDLY' }) })])).thenThrows('invalid_request');
  });
});

describe('feed address', () => {
  const issue = (tokenHash: string) => ({ type: 'IssueFeed' as const, calendarId: CAL, spaceId: SPACE, tokenHash, now: NOW });
  const issued = (tokenHash: string, generation: number, previousTokenHash: string | null = null) => ({
    type: 'calendar.feed_issued' as const, data: { calendarId: CAL, spaceId: SPACE, tokenHash, previousTokenHash, generation, createdAt: NOW },
  });

  it('is issued, then replaced (naming the previous token), then revoked; revoking none is 404', () => {
    given(feedDecider, []).when(issue('h1')).then([issued('h1', 1)]);
    given(feedDecider, [issued('h1', 1)]).when(issue('h2')).then([issued('h2', 2, 'h1')]);
    const revoke = { type: 'RevokeFeed' as const, calendarId: CAL, spaceId: SPACE, now: LATER };
    given(feedDecider, [issued('h1', 1), issued('h2', 2, 'h1')]).when(revoke)
      .then([{ type: 'calendar.feed_revoked', data: { calendarId: CAL, spaceId: SPACE, tokenHash: 'h2', generation: 2, revokedAt: LATER } }]);
    given(feedDecider, []).when(revoke).thenThrows('not_found');
    const revoked = { type: 'calendar.feed_revoked' as const, data: { calendarId: CAL, spaceId: SPACE, tokenHash: 'h1', generation: 1, revokedAt: LATER } };
    given(feedDecider, [issued('h1', 1), revoked]).when(revoke).thenThrows('not_found');
    given(feedDecider, [issued('h1', 1), revoked]).when(issue('h3')).then([issued('h3', 2)]);
  });
});

