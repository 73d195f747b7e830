/**
 * Subscribed calendars in the Space schedule (write-api/calendars/subscription.rules.ts), given/when/then:
 * subscribing, each fetch's refresh (new, unchanged, changed, gone from the source, back again), unsubscribing, and
 * the refusals: someone else's Space, a calendar made here, writes into a subscription; and the fetch record's
 * backoff (services/subscriptions/fetch-record.ts).
 */
import type { Calendar } from '../../contracts/spaces';
import { MAX_SUBSCRIPTIONS } from '../../contracts/subscriptions';
import type { Event } from '../../contracts/events';
import { recordFetch, retryDelayMs, RETRY_LONGEST_MS } from '../../services/subscriptions/fetch-record';
import { noValidators, type SubscriptionDoc } from '../../services/subscriptions/subscription-store';
import type { ImportItem } from '../../write-api/calendars/import.rules';
import { scheduleDecider } from '../../write-api/schedule/schedule.decider';
import { given } from '../support/given';

const OWNER = '11111111-1111-4111-8111-111111111111';
const OTHER = '22222222-2222-4222-8222-222222222222';
const SPACE = '33333333-3333-4333-8333-333333333333';
const OWN = '44444444-4444-4444-8444-444444444444';
const SUB = '55555555-5555-4555-8555-555555555555';
const E1 = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';
const E2 = 'bbbbbbbb-bbbb-4bbb-8bbb-bbbbbbbbbbbb';
const NOW = '2026-11-22T00:00:00.000Z';
const LATER = '2026-11-23T00:00:00.000Z';

const calendar = (id: string, o: Partial<Calendar> = {}): Calendar => ({
  id, spaceId: SPACE, name: 'Cal', color: '#112233', isDefault: id === OWN, createdAt: NOW, updatedAt: NOW, deletedAt: null, ...o,
});
const source = { url: 'https://elsewhere.example/cal.ics', lastFetchedAt: null, lastError: null };
const subscribed = { ...calendar(SUB), source };

const space = [
  { type: 'space.created' as const, data: { space: { id: SPACE, name: 'Home', kind: 'personal' as const, ownerId: OWNER, createdAt: NOW, updatedAt: NOW, deletedAt: null } } },
  { type: 'calendar.created' as const, data: { calendar: calendar(OWN) } },
];
const withSubscription = [...space, { type: 'calendar.created' as const, data: { calendar: subscribed } }];

const fields = (o: Partial<ImportItem['fields']> = {}): ImportItem['fields'] => ({
  title: 'Standup', description: null, location: null, meetingUrl: null, kind: 'meeting', startsAt: '2026-12-01T09:00:00.000Z',
  endsAt: '2026-12-01T10:00:00.000Z', timeZone: 'UTC', allDay: false, busy: true, recurrenceRule: null, attendees: [], reminders: [], ...o,
});
const item = (eventId: string, uid: string, o: Partial<ImportItem> = {}): ImportItem => ({
  eventId, sameAs: null, icalUid: uid, icalRecurrenceId: null, fields: fields(), exceptions: [], cancelled: false, ...o,
});
const stored = (id: string, uid: string, o: Partial<Event> = {}): Event => ({
  id, spaceId: SPACE, calendarId: SUB, ...fields(), taskId: null, goalId: null, resources: [], allowOverlap: true, exceptions: [],
  icalUid: uid, icalRecurrenceId: null, status: 'confirmed', createdBy: OWNER, createdAt: NOW, updatedAt: NOW, deletedAt: null, version: 1, ...o,
});
const refresh = (items: ImportItem[], calendarId = SUB) => ({ type: 'RefreshSubscription' as const, actorId: OWNER, calendarId, items, now: LATER });
const withEvents = (...events: Event[]) => [...withSubscription, ...events.map((data) => ({ type: 'event.created' as const, data }))];

describe('SubscribeCalendar', () => {
  it('creates the calendar with its source', () => {
    given(scheduleDecider, space).when({ type: 'SubscribeCalendar', actorId: OWNER, calendar: subscribed })
      .then([{ type: 'calendar.created', data: { calendar: subscribed } }]);
  });

  it('is nothing the second time (a retried request)', () => {
    given(scheduleDecider, withSubscription).when({ type: 'SubscribeCalendar', actorId: OWNER, calendar: subscribed }).then([]);
  });

  it('is 409 too_many_subscriptions past the Space\'s limit', () => {
    const many = Array.from({ length: MAX_SUBSCRIPTIONS }, (_, i) => ({
      type: 'calendar.created' as const, data: { calendar: { ...calendar(`c${i}`), source } },
    }));
    given(scheduleDecider, [...space, ...many]).when({ type: 'SubscribeCalendar', actorId: OWNER, calendar: subscribed }).thenThrows('too_many_subscriptions');
  });

  it('is 404 in someone else\'s Space', () => {
    given(scheduleDecider, space).when({ type: 'SubscribeCalendar', actorId: OTHER, calendar: subscribed }).thenThrows('not_found');
  });
});

describe('RefreshSubscription', () => {
  it('creates what is new, overlap allowed', () => {
    given(scheduleDecider, withSubscription).when(refresh([item(E1, 'one@x'), item(E2, 'two@x', { fields: fields({ title: 'Same time' }) })])).then([
      { type: 'event.created', data: { id: E1, calendarId: SUB, icalUid: 'one@x', allowOverlap: true, createdBy: OWNER } as never },
      { type: 'event.created', data: { id: E2, title: 'Same time' } as never },
    ]);
  });

  it('appends nothing when the source is what the calendar holds', () => {
    given(scheduleDecider, withEvents(stored(E1, 'one@x'))).when(refresh([item(E1, 'one@x')])).then([]);
  });

  it('updates what changed and cancels what the source no longer holds', () => {
    given(scheduleDecider, withEvents(stored(E1, 'one@x'), stored(E2, 'two@x'))).when(refresh([item(E1, 'one@x', { fields: fields({ title: 'Moved' }) })])).then([
      { type: 'event.updated', data: { id: E1, title: 'Moved', version: 2 } as never },
      { type: 'event.cancelled', data: { id: E2, status: 'cancelled', deletedAt: LATER, version: 2 } as never },
    ]);
  });

  it('cancels what the source marks STATUS:CANCELLED, and an empty source cancels everything', () => {
    given(scheduleDecider, withEvents(stored(E1, 'one@x'))).when(refresh([item(E1, 'one@x', { cancelled: true })]))
      .then([{ type: 'event.cancelled', data: { id: E1 } as never }]);
    given(scheduleDecider, withEvents(stored(E1, 'one@x'), stored(E2, 'two@x'))).when(refresh([]))
      .then([{ type: 'event.cancelled', data: { id: E1 } as never }, { type: 'event.cancelled', data: { id: E2 } as never }]);
  });

  it('brings back an event that returns to the source', () => {
    const history = [...withEvents(stored(E1, 'one@x')), { type: 'event.cancelled' as const, data: stored(E1, 'one@x', { status: 'cancelled', deletedAt: NOW, version: 2 }) }];
    given(scheduleDecider, history).when(refresh([item(E1, 'one@x')]))
      .then([{ type: 'event.updated', data: { id: E1, status: 'confirmed', deletedAt: null, version: 3 } as never }]);
  });

  it('leaves the other calendars alone', () => {
    const mine = { ...stored(E2, 'mine@x'), calendarId: OWN };
    given(scheduleDecider, withEvents(mine)).when(refresh([])).then([]);
  });

  it('refuses a calendar made here (409) and an unknown one (404)', () => {
    given(scheduleDecider, withSubscription).when(refresh([], OWN)).thenThrows('not_a_subscription');
    given(scheduleDecider, withSubscription).when(refresh([], E1)).thenThrows('not_found');
  });
});

describe('Unsubscribe', () => {
  const unsubscribe = (actorId = OWNER, calendarId = SUB) => ({ type: 'Unsubscribe' as const, actorId, calendarId, now: LATER });

  it('cancels its live events, then deletes the calendar', () => {
    given(scheduleDecider, withEvents(stored(E1, 'one@x'))).when(unsubscribe()).then([
      { type: 'event.cancelled', data: { id: E1 } as never },
      { type: 'calendar.deleted', data: { calendar: { id: SUB, deletedAt: LATER } } as never },
    ]);
  });

  it('is 404 afterwards, for someone else, and 409 for a calendar made here', () => {
    const gone = [...withSubscription, { type: 'calendar.deleted' as const, data: { calendar: { ...subscribed, deletedAt: LATER } } }];
    given(scheduleDecider, gone).when(unsubscribe()).thenThrows('not_found');
    given(scheduleDecider, withSubscription).when(unsubscribe(OTHER)).thenThrows('not_found');
    given(scheduleDecider, withSubscription).when(unsubscribe(OWNER, OWN)).thenThrows('not_a_subscription');
  });
});

describe('a subscription is read-only over the API', () => {
  const body = { calendarId: SUB, ...fields(), resources: [], taskId: null, goalId: null, allowOverlap: false };
  const history = withEvents(stored(E1, 'one@x'));

  it.each([
    ['CreateEvent', { type: 'CreateEvent' as const, actorId: OWNER, eventId: E2, fields: body, now: LATER }],
    ['CreateEvents', { type: 'CreateEvents' as const, actorId: OWNER, events: [{ eventId: E2, fields: body }], now: LATER }],
    ['UpdateEvent', { type: 'UpdateEvent' as const, actorId: OWNER, eventId: E1, changes: { title: 'X' }, now: LATER }],
    ['CancelEvent', { type: 'CancelEvent' as const, actorId: OWNER, eventId: E1, now: LATER }],
    ['ImportEvents', { type: 'ImportEvents' as const, actorId: OWNER, calendarId: SUB, items: [item(E2, 'two@x')], now: LATER }],
  ])('%s: 403 calendar_read_only', (_name, command) => {
    given(scheduleDecider, history).when(command).thenThrows('calendar_read_only');
  });

  it('moving an own event into it: 403 calendar_read_only', () => {
    const mine = { ...stored(E2, 'mine@x'), calendarId: OWN, icalUid: null };
    given(scheduleDecider, withEvents(mine)).when({ type: 'UpdateEvent', actorId: OWNER, eventId: E2, changes: { calendarId: SUB }, now: LATER })
      .thenThrows('calendar_read_only');
  });
});

describe('recordFetch', () => {
  const doc = (o: Partial<SubscriptionDoc> = {}): SubscriptionDoc => ({
    _id: SUB, _pos: 2, userId: OWNER, spaceId: SPACE, calendarId: SUB, url: source.url, sealedCredentials: null, validators: noValidators(),
    nextFetchMs: 0, leasedUntil: 99, dueAgain: false, failures: 0, lastFetchedAt: null, lastError: null, createdAt: NOW, updatedAt: NOW, ...o,
  });
  const at = Date.parse(LATER);
  const settings = { refreshMs: 900_000, retryFirstMs: 60_000 };

  it('a change keeps the new validators; due after the refresh interval', () => {
    const validators = { etag: '"v2"', lastModified: null, ctag: null };
    expect(recordFetch(doc({ failures: 3, lastError: 'HTTP 500' }), { kind: 'changed', validators }, at, settings)).toEqual({
      leasedUntil: null, failures: 0, lastError: null, lastFetchedAt: LATER, validators, nextFetchMs: at + 900_000,
    });
  });

  it('not modified: the old validators stay', () => {
    expect(recordFetch(doc(), { kind: 'not_modified' }, at, settings)).toEqual({
      leasedUntil: null, failures: 0, lastError: null, lastFetchedAt: LATER, nextFetchMs: at + 900_000,
    });
  });

  it('a failure backs off: 1 min, 4 min, 16 min, ... at most 6 h; lastFetchedAt stays the last success', () => {
    expect(recordFetch(doc({ lastFetchedAt: NOW }), { kind: 'failed', error: 'HTTP 500' }, at, settings)).toEqual({
      leasedUntil: null, failures: 1, lastError: 'HTTP 500', nextFetchMs: at + 60_000,
    });
    expect([1, 2, 3, 4, 5, 6, 20].map((n) => retryDelayMs(n))).toEqual([60_000, 240_000, 960_000, 3_840_000, 15_360_000, RETRY_LONGEST_MS, RETRY_LONGEST_MS]);
  });
});
