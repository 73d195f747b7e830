/**
 * The insights projection applied event by event on the embedded read store: shares move with an event, and a
 * replay after a crash (the same events again, from any point) adds nothing twice.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { insightsProjection, weekDocId } from '../../projections/insights.projection';
import type { ProjectionDocs } from '../../projections/projection';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';

const USER = '11111111-1111-4111-8111-111111111111';
const SPACE = '22222222-2222-4222-8222-222222222222';
const EVENT = '33333333-3333-4333-8333-333333333333';

let store: ReadStore;
let docs: ProjectionDocs;
let run = 0;

beforeEach(async () => {
  store = await openEmbeddedReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'insights-')), 'read.sqlite'));
  const prefix = `r${run++}`;
  docs = (logical) => store.collection(`${prefix}_${logical}`);
});
afterEach(() => store.close());

let position = 0;
function recorded(type: string, data: unknown): RecordedEvent {
  position += 1;
  return {
    id: `e${position}`, type, data, streamId: 's', revision: position, position,
    metadata: { userId: USER, correlationId: 'c', causationId: 'c', occurredAt: '2025-03-01T00:00:00.000Z', schemaVersion: 1 },
  };
}

const calendarEvent = (type: string, startsAt: string, endsAt: string, kind = 'meeting', status = 'confirmed') =>
  recorded(type, {
    id: EVENT, spaceId: SPACE, status, kind, allDay: false, startsAt, endsAt, timeZone: 'Europe/Berlin', recurrenceRule: null,
  });

const history = () => [
  recorded('user.registered', { user: { id: USER, timeZone: 'Europe/Berlin' }, passwordHash: 'x' }),
  recorded('space.created', { space: { id: SPACE, ownerId: USER } }),
  calendarEvent('event.created', '2025-03-04T09:00:00.000Z', '2025-03-04T10:00:00.000Z'),
  calendarEvent('event.updated', '2025-02-25T09:00:00.000Z', '2025-02-25T09:30:00.000Z', 'focus'),
  calendarEvent('event.updated', '2025-03-02T22:30:00.000Z', '2025-03-02T23:30:00.000Z'),
];

async function applyAll(events: RecordedEvent[]) {
  for (const e of events) await insightsProjection.apply(e, docs);
}

async function minutes(monday: string) {
  return ((await docs('weeks').get(weekDocId(USER, monday)))?.minutesByKind ?? {}) as Record<string, number>;
}

describe('insights projection', () => {
  it('moves an event\'s minutes between weeks and kinds as it changes', async () => {
    const events = history();
    await applyAll(events.slice(0, 3));
    expect(await minutes('2025-03-03')).toEqual({ meeting: 60 });
    await applyAll(events.slice(3, 4));
    expect(await minutes('2025-03-03')).toEqual({ meeting: 0 });
    expect(await minutes('2025-02-24')).toEqual({ focus: 30 });
    await applyAll(events.slice(4));
    expect(await minutes('2025-02-24')).toEqual({ focus: 0, meeting: 30 });
    expect(await minutes('2025-03-03')).toEqual({ meeting: 30 });
  });

  it.each([0, 2, 3, 4])('a replay from event %i on adds nothing twice', async (from) => {
    const events = history();
    await applyAll(events);
    await applyAll(events.slice(from));
    expect(await minutes('2025-02-24')).toEqual({ focus: 0, meeting: 30 });
    expect(await minutes('2025-03-03')).toEqual({ meeting: 30 });
  });

  it('a crash between the week documents and the event\'s own document: the replay finishes the job once', async () => {
    const events = history();
    await applyAll(events.slice(0, 4));
    const crashing: ProjectionDocs = (logical) => {
      const collection = docs(logical);
      if (logical !== 'events') return collection;
      return Object.assign(Object.create(collection), { putIfNewer: () => Promise.reject(new Error('crash')) });
    };
    await expect(insightsProjection.apply(events[4], crashing)).rejects.toThrow('crash');
    await applyAll(events.slice(4));
    expect(await minutes('2025-02-24')).toEqual({ focus: 0, meeting: 30 });
    expect(await minutes('2025-03-03')).toEqual({ meeting: 30 });
  });

  it('a cancelled event leaves its weeks', async () => {
    await applyAll([...history(), calendarEvent('event.cancelled', '2025-03-02T22:30:00.000Z', '2025-03-02T23:30:00.000Z', 'meeting', 'cancelled')]);
    expect(await minutes('2025-02-24')).toEqual({ focus: 0, meeting: 0 });
    expect(await minutes('2025-03-03')).toEqual({ meeting: 0 });
  });

  it('ignores events it cannot use instead of failing', async () => {
    const junk = [
      recorded('event.created', { id: EVENT }),
      recorded('event.updated', null),
      recorded('focus.stopped', 'nonsense'),
      recorded('routine.created', { id: 1 }),
      recorded('routine.period.skipped', { date: 'x' }),
      recorded('user.profile_updated', {}),
      recorded('space.created', { space: null }),
    ];
    await expect(applyAll(junk)).resolves.toBeUndefined();
    await applyAll(history());
    expect(await minutes('2025-03-03')).toEqual({ meeting: 30 });
  });
});
