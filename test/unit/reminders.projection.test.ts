/**
 * The reminders projection applied event by event on the embedded read store, with the log's times as "now": what
 * waits after a change (due within the horizon, of occurrences not begun, none whose time had passed when it was
 * set), what a change removes, how a fired reminder settles and moves a series' horizon on (and reaches into a gap
 * left while no worker ran), the next reminder of a sparse series, and replays that change nothing.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Event } from '../../contracts/events';
import type { ReminderDue } from '../../contracts/reminders';
import type { ProjectionDocs } from '../../projections/projection';
import type { DueDoc, SeriesDoc } from '../../projections/reminder-docs';
import { REMINDER_HORIZON_MS, remindersProjection } from '../../projections/reminders.projection';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';
import { ON_TIME_MS, reminderEvent } from '../../services/reminders/reminder-event';

const OWNER = '11111111-1111-4111-8111-111111111111';
const EVENT = '22222222-2222-4222-8222-222222222222';
const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const T0 = Date.parse('2026-03-02T12:00:00.000Z');
const iso = (ms: number) => new Date(ms).toISOString();

let store: ReadStore;
let docs: ProjectionDocs;
let run = 0;
let position = 0;

beforeEach(async () => {
  store = await openEmbeddedReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'reminders-projection-')), 'read.sqlite'), { requireIndexes: true });
  const prefix = `r${run++}`;
  docs = (logical) => store.collection(`${prefix}_${logical}`);
  for (const [logical, c] of Object.entries(remindersProjection.collections)) for (const fields of c.indexes) await docs(logical).ensureIndex(fields);
});
afterEach(() => store.close());

function recorded(type: string, data: unknown, occurredAt: number): RecordedEvent {
  position += 1;
  return {
    id: `e${position}`, type, data, streamId: 's', revision: position, position,
    metadata: { userId: OWNER, correlationId: 'c', causationId: 'c', occurredAt: iso(occurredAt), schemaVersion: 3 },
  };
}

function calendarEvent(fields: Partial<Event> = {}): Event {
  return {
    id: EVENT, spaceId: OWNER, calendarId: OWNER, title: 'Planning', description: null, location: null, meetingUrl: null,
    kind: 'meeting', startsAt: iso(T0 + 3 * HOUR), endsAt: iso(T0 + 4 * HOUR), timeZone: 'Europe/Lisbon', allDay: false,
    busy: true, recurrenceRule: null, taskId: null, goalId: null, resources: [], attendees: [],
    reminders: [{ minutesBefore: 10, method: 'notification' }], allowOverlap: false, exceptions: [], icalUid: null, icalRecurrenceId: null, status: 'confirmed',
    createdBy: OWNER, createdAt: iso(T0), updatedAt: iso(T0), deletedAt: null, version: 1, ...fields,
  };
}

const apply = async (type: string, data: unknown, at: number) => {
  const e = recorded(type, data, at);
  await remindersProjection.apply(e, docs);
  return e;
};
const dueDocs = async () => (await docs<DueDoc>('due').find({ eventId: EVENT })).sort((a, b) => a.dueMs - b.dueMs);
const waiting = async () => (await dueDocs()).filter((d) => d.state === 'pending').map((d) => iso(d.dueMs));
const series = () => docs<SeriesDoc>('series').get(EVENT);

/** What the worker would record for a document at `now`, applied at that time. */
async function fire(doc: DueDoc, now: number) {
  const e = reminderEvent(doc, (await series())!, now);
  await apply(e.type, e.data, now);
  return e;
}

describe('a change of the event', () => {
  it('makes one waiting document per reminder due within the horizon, and nothing for an event without reminders', async () => {
    await apply('event.created', calendarEvent({ reminders: [{ minutesBefore: 10, method: 'notification' }, { minutesBefore: 60, method: 'email' }] }), T0);
    expect(await waiting()).toEqual([iso(T0 + 2 * HOUR), iso(T0 + 3 * HOUR - 600_000)]);
    const [doc] = await dueDocs();
    expect(doc).toMatchObject({ ownerId: OWNER, occurrenceStartsAt: iso(T0 + 3 * HOUR), method: 'email', minutesBefore: 60, state: 'pending' });
    expect((await series())?.coveredUntilMs).toBe(T0 + REMINDER_HORIZON_MS);

    await apply('event.created', calendarEvent({ id: OWNER, reminders: [] }), T0);
    expect(await docs('series').get(OWNER)).toBeNull();
  });

  it('makes none for a reminder whose time had passed when it was set, and none of an event that has begun', async () => {
    await apply('event.created', calendarEvent({ startsAt: iso(T0 + 5 * 60_000), endsAt: iso(T0 + HOUR) }), T0);
    expect(await dueDocs()).toEqual([]);
    await apply('event.updated', calendarEvent({ startsAt: iso(T0 - HOUR), endsAt: iso(T0 + HOUR), reminders: [{ minutesBefore: 0, method: 'push' }] }), T0);
    expect(await dueDocs()).toEqual([]);
  });

  it('keeps its documents when nothing of their time changes, and keeps one waiting that is overdue for a worker behind', async () => {
    await apply('event.created', calendarEvent(), T0);
    const [before] = await dueDocs();
    // Applied after the reminder's time (a worker behind or down), before the event begins: it still waits.
    await apply('event.updated', calendarEvent({ title: 'Planning, renamed', version: 2 }), T0 + 3 * HOUR - 60_000);
    const [after] = await dueDocs();
    expect([after._id, after._pos, after.state]).toEqual([before._id, before._pos, 'pending']);
    expect((await series())?.title).toBe('Planning, renamed');
  });

  it('moves a moved event\'s reminders, and removes every document of a cancelled one', async () => {
    await apply('event.created', calendarEvent(), T0);
    await apply('event.updated', calendarEvent({ startsAt: iso(T0 + 6 * HOUR), endsAt: iso(T0 + 7 * HOUR), version: 2 }), T0 + HOUR);
    expect(await waiting()).toEqual([iso(T0 + 6 * HOUR - 600_000)]);
    await apply('event.cancelled', calendarEvent({ status: 'cancelled', version: 3 }), T0 + 2 * HOUR);
    expect(await dueDocs()).toEqual([]);
    expect(await series()).toBeNull();
  });

  it('recomputes a series from event.occurrence.* as the one expansion has it', async () => {
    const daily = calendarEvent({ recurrenceRule: 'FREQ=DAILY', startsAt: iso(T0 + 3 * HOUR), endsAt: iso(T0 + 4 * HOUR) });
    await apply('event.created', daily, T0);
    expect(await waiting()).toEqual([iso(T0 + 3 * HOUR - 600_000), iso(T0 + DAY + 3 * HOUR - 600_000)]);
    const cancelled = { ...daily, exceptions: [{ occurrenceStartsAt: iso(T0 + 3 * HOUR), cancelled: true as const }], version: 2 };
    await apply('event.occurrence.cancelled', { seriesId: EVENT, occurrenceStartsAt: iso(T0 + 3 * HOUR), occurrence: {}, series: cancelled }, T0 + HOUR);
    expect(await waiting()).toEqual([iso(T0 + DAY + 3 * HOUR - 600_000)]);
  });

  it('ignores data it cannot use', async () => {
    for (const type of remindersProjection.handles) {
      await expect(remindersProjection.apply(recorded(type, null, T0), docs)).resolves.toBeUndefined();
      await expect(remindersProjection.apply(recorded(type, { id: EVENT, reminders: 'soon' }, T0), docs)).resolves.toBeUndefined();
    }
    await expect(apply('event.created', calendarEvent({ timeZone: 'Mars/Olympus', recurrenceRule: 'FREQ=DAILY' }), T0)).resolves.toBeDefined();
  });
});

describe('a reminder recorded as due', () => {
  it('settles its document, which a later change leaves settled; one late past its start is recorded as missed', async () => {
    await apply('event.created', calendarEvent({ reminders: [{ minutesBefore: 10, method: 'notification' }, { minutesBefore: 60, method: 'push' }] }), T0);
    const [early, late] = await dueDocs();
    expect((await fire(early, early.dueMs + 20)).type).toBe('reminder.fired');
    await apply('event.updated', calendarEvent({ title: 'Renamed', reminders: [{ minutesBefore: 10, method: 'notification' }, { minutesBefore: 60, method: 'push' }], version: 2 }), early.dueMs + HOUR / 2);
    expect((await dueDocs()).map((d) => d.state)).toEqual(['fired', 'pending']);
    const missed = await fire(late, late.dueMs + 600_000 + ON_TIME_MS + 1);
    expect([missed.type, (missed.data as ReminderDue).title]).toEqual(['reminder.missed', 'Renamed']);
    expect((await dueDocs()).map((d) => d.state)).toEqual(['fired', 'missed']);
  });

  it('a 0-minute reminder a little late still fires: it is due as the event begins', async () => {
    await apply('event.created', calendarEvent({ reminders: [{ minutesBefore: 0, method: 'notification' }] }), T0);
    const [doc] = await dueDocs();
    expect(reminderEvent(doc, (await series())!, doc.dueMs + ON_TIME_MS).type).toBe('reminder.fired');
    expect(reminderEvent(doc, (await series())!, doc.dueMs + ON_TIME_MS + 1).type).toBe('reminder.missed');
  });

  it('moves a daily series\' horizon on as its reminders fire, the documents of begun occurrences going', async () => {
    await apply('event.created', calendarEvent({ recurrenceRule: 'FREQ=DAILY' }), T0);
    const [first, second] = await dueDocs();
    await fire(first, first.dueMs);
    expect(await waiting()).toEqual([iso(second.dueMs)]); // the horizon still reaches a day ahead
    await fire(second, second.dueMs);
    expect(await waiting()).toEqual([iso(second.dueMs + DAY)]);
    expect((await series())!.coveredUntilMs).toBe(second.dueMs + REMINDER_HORIZON_MS);
    const [third] = (await dueDocs()).filter((d) => d.state === 'pending');
    // Fired two days late: missed; the settled documents of occurrences begun a day ago go, itself among them.
    const late = third.dueMs + 2 * DAY;
    await fire(third, late);
    const left = await dueDocs();
    expect(left.map((d) => [d.state, d.startMs > late])).toEqual([['pending', true], ['pending', true]]);
    expect(left[0].dueMs).toBeLessThanOrEqual(late); // its occurrence has not begun: due at once
  });

  it('reaches into a gap left while no worker ran: reminders due meanwhile of occurrences not begun wait', async () => {
    // A reminder a day before each daily occurrence; the worker fires the first only 3 days late.
    await apply('event.created', calendarEvent({ recurrenceRule: 'FREQ=DAILY', startsAt: iso(T0 + 30 * HOUR), endsAt: iso(T0 + 31 * HOUR), reminders: [{ minutesBefore: 1440, method: 'notification' }] }), T0);
    const covered = (await series())!.coveredUntilMs;
    const [first] = await dueDocs();
    const back = T0 + 3 * DAY + 2 * HOUR;
    await fire(first, back);
    const pending = (await dueDocs()).filter((d) => d.state === 'pending').map((d) => [iso(d.startMs), iso(d.dueMs)]);
    expect(pending).toEqual([
      [iso(T0 + 54 * HOUR), iso(T0 + 30 * HOUR)], // computed before, begun meanwhile: the worker records it as missed
      [iso(T0 + 78 * HOUR), iso(T0 + 54 * HOUR)], // due in the gap, after the old horizon; not begun: due at once
      [iso(T0 + 102 * HOUR), iso(T0 + 78 * HOUR)],
      [iso(T0 + 126 * HOUR), iso(T0 + 102 * HOUR)],
    ]);
    expect(covered).toBe(T0 + 48 * HOUR);
  });

  it('keeps the next reminder of a yearly series beyond the horizon, and the one after once it fires', async () => {
    await apply('event.created', calendarEvent({ recurrenceRule: 'FREQ=YEARLY', startsAt: iso(T0 + 10 * DAY), endsAt: iso(T0 + 10 * DAY + HOUR) }), T0);
    expect(await waiting()).toEqual([iso(T0 + 10 * DAY - 600_000)]);
    const [doc] = await dueDocs();
    await fire(doc, doc.dueMs);
    expect(await waiting()).toEqual(['2027-03-12T11:50:00.000Z']);
  });

  it('computes a horizon afresh when the rule changes: a yearly series made hourly waits for 2 days of it, not a year', async () => {
    await apply('event.created', calendarEvent({ recurrenceRule: 'FREQ=YEARLY', startsAt: iso(T0 + 10 * DAY), endsAt: iso(T0 + 10 * DAY + HOUR) }), T0);
    expect((await series())!.coveredUntilMs).toBe(T0 + 10 * DAY - 600_000 + 1);
    await apply('event.updated', calendarEvent({ recurrenceRule: 'FREQ=HOURLY', startsAt: iso(T0 + HOUR), endsAt: iso(T0 + 2 * HOUR), version: 2 }), T0);
    expect(await waiting()).toHaveLength(48);
  });

  it('changes nothing when applied again (a replay after a crash)', async () => {
    const created = recorded('event.created', calendarEvent({ recurrenceRule: 'FREQ=DAILY' }), T0);
    await remindersProjection.apply(created, docs);
    const [first] = await dueDocs();
    const fired = reminderEvent(first, (await series())!, first.dueMs);
    const firedAt = recorded(fired.type, fired.data, first.dueMs + DAY);
    await remindersProjection.apply(firedAt, docs);
    const before = JSON.stringify([await dueDocs(), await series()]);
    await remindersProjection.apply(created, docs);
    await remindersProjection.apply(firedAt, docs);
    expect(JSON.stringify([await dueDocs(), await series()])).toBe(before);
  });
});
