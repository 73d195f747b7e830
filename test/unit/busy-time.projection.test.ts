/**
 * The busy-time projection applied event by event on the embedded read store: an event sits in the day document of
 * the day it starts on while it is a single event of at most a day, moves with it, leaves it when it becomes a series,
 * grows longer than a day or is cancelled; a replay after a crash (the same events again, from any point) changes
 * nothing twice.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { busyTimeProjection, dayDocId, utcDay, type DayDoc } from '../../projections/busy-time.projection';
import type { ProjectionDocs } from '../../projections/projection';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';

const CALENDAR = '22222222-2222-4222-8222-222222222222';
const OTHER_CALENDAR = '44444444-4444-4444-8444-444444444444';
const A = '33333333-3333-4333-8333-333333333333';
const B = '55555555-5555-4555-8555-555555555555';

let store: ReadStore;
let docs: ProjectionDocs;
let run = 0;

beforeEach(async () => {
  store = await openEmbeddedReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'busy-time-')), 'read.sqlite'));
  const prefix = `r${run++}`;
  docs = (logical) => store.collection(`${prefix}_${logical}`);
});
afterEach(() => store.close());

let position = 0;
function recorded(type: string, data: unknown): RecordedEvent {
  position += 1;
  return {
    id: `e${position}`, type, data, streamId: 's', revision: position, position,
    metadata: { userId: 'u', correlationId: 'c', causationId: 'c', occurredAt: '2025-03-01T00:00:00.000Z', schemaVersion: 1 },
  };
}

const event = (type: string, id: string, startsAt: string, endsAt: string, extra: Record<string, unknown> = {}) =>
  recorded(type, {
    id, calendarId: CALENDAR, title: `Event ${id.slice(0, 4)}`, kind: 'meeting', busy: true, allDay: false, timeZone: 'Europe/Berlin',
    startsAt, endsAt, recurrenceRule: null, taskId: null, goalId: null, status: 'confirmed', ...extra,
  });

const history = () => [
  event('event.created', A, '2025-03-04T09:00:00.000Z', '2025-03-04T10:00:00.000Z'),
  event('event.created', B, '2025-03-04T08:00:00.000Z', '2025-03-04T08:30:00.000Z', { busy: false }),
  event('event.updated', A, '2025-03-05T23:30:00.000Z', '2025-03-06T00:30:00.000Z', { kind: 'focus' }),
  event('event.updated', B, '2025-03-04T08:00:00.000Z', '2025-03-04T08:30:00.000Z', { calendarId: OTHER_CALENDAR, busy: false }),
];

async function applyAll(events: RecordedEvent[], into = docs) {
  for (const e of events) await busyTimeProjection.apply(e, into);
}

/** Event ids by day document, with each entry's span and kind. */
async function days(...at: Array<[string, string]>) {
  const out: Record<string, string[]> = {};
  for (const [calendarId, date] of at) {
    const doc = await docs<DayDoc>('days').get(dayDocId(calendarId, utcDay(Date.parse(date))));
    out[`${calendarId.slice(0, 4)} ${date}`] = (doc?.entries ?? []).map((x) => `${x.id.slice(0, 4)} ${new Date(x.start).toISOString()} ${x.end - x.start} ${x.kind} ${x.busy}`);
  }
  return out;
}

const FINAL = {
  '2222 2025-03-04': [],
  '2222 2025-03-05': ['3333 2025-03-05T23:30:00.000Z 3600000 focus true'],
  '4444 2025-03-04': ['5555 2025-03-04T08:00:00.000Z 1800000 meeting false'],
};
const finalDays = () => days([CALENDAR, '2025-03-04'], [CALENDAR, '2025-03-05'], [OTHER_CALENDAR, '2025-03-04']);

describe('busy-time projection', () => {
  it('keeps each single event in the day it starts on, in start order, and moves it with the event', async () => {
    const events = history();
    await applyAll(events.slice(0, 2));
    expect(await days([CALENDAR, '2025-03-04'])).toEqual({
      '2222 2025-03-04': ['5555 2025-03-04T08:00:00.000Z 1800000 meeting false', '3333 2025-03-04T09:00:00.000Z 3600000 meeting true'],
    });
    await applyAll(events.slice(2));
    expect(await finalDays()).toEqual(FINAL);
  });

  it.each([0, 1, 2, 3])('a replay from event %i on changes nothing twice', async (from) => {
    const events = history();
    await applyAll(events);
    await applyAll(events.slice(from));
    expect(await finalDays()).toEqual(FINAL);
  });

  it('a crash between the day documents and the placement: the replay finishes the job once', async () => {
    const events = history();
    await applyAll(events.slice(0, 2));
    const crashing: ProjectionDocs = (logical) => {
      const collection = docs(logical);
      if (logical !== 'placements') return collection;
      return Object.assign(Object.create(collection), { putIfNewer: () => Promise.reject(new Error('crash')) });
    };
    await expect(busyTimeProjection.apply(events[2], crashing)).rejects.toThrow('crash');
    await applyAll(events.slice(2));
    expect(await finalDays()).toEqual(FINAL);
  });

  it.each([
    ['becomes a series', { recurrenceRule: 'FREQ=DAILY' }, '2025-03-04T09:00:00.000Z', '2025-03-04T10:00:00.000Z'],
    ['lasts longer than a day', {}, '2025-03-04T09:00:00.000Z', '2025-03-05T09:00:00.001Z'],
    ['is cancelled', { status: 'cancelled' }, '2025-03-04T09:00:00.000Z', '2025-03-04T10:00:00.000Z'],
  ])('an event leaves its day when it %s', async (_what, extra, startsAt, endsAt) => {
    await applyAll([event('event.created', A, '2025-03-04T09:00:00.000Z', '2025-03-04T10:00:00.000Z'), event('event.updated', A, startsAt, endsAt, extra)]);
    expect(await days([CALENDAR, '2025-03-04'])).toEqual({ '2222 2025-03-04': [] });
  });

  it('keeps an event of exactly one day, all-day ones included', async () => {
    await applyAll([event('event.created', A, '2025-03-04T00:00:00.000Z', '2025-03-05T00:00:00.000Z', { allDay: true, kind: 'holiday' })]);
    expect(await days([CALENDAR, '2025-03-04'])).toEqual({ '2222 2025-03-04': ['3333 2025-03-04T00:00:00.000Z 86400000 holiday true'] });
  });

  it('ignores events it cannot use instead of failing', async () => {
    const junk = [recorded('event.created', { id: A }), recorded('event.updated', null), recorded('event.cancelled', 'nonsense'),
      event('event.created', B, 'not a time', '2025-03-04T10:00:00.000Z')];
    await expect(applyAll(junk)).resolves.toBeUndefined();
    await applyAll(history());
    expect(await finalDays()).toEqual(FINAL);
  });
});
