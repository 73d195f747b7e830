/**
 * When reminders fall due (services/reminders/due.ts): `minutesBefore` before each occurrence's real start, on the
 * one expansion (DST on the event's wall clock, cancelled occurrences without any, moved ones before their new time,
 * an occurrence's own reminders over the series'), within a window; the next one beyond it for sparse series.
 */
import type { Reminder } from '../../contracts/reminders';
import { longestReminderMs, nextReminder, type RemindedEvent, reminderIdOf, remindersDue } from '../../services/reminders/due';

const ID = '0d6f4f0e-5b1c-4e7a-9a43-6f1d2c3b4a51';
const MIN = 60_000;
const DAY = 86_400_000;
const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const remind = (minutesBefore: number, method: Reminder['method'] = 'notification'): Reminder => ({ minutesBefore, method });

function event(fields: Partial<RemindedEvent> = {}): RemindedEvent {
  return {
    startsAt: '2026-03-05T14:00:00.000Z', endsAt: '2026-03-05T15:00:00.000Z', timeZone: 'America/New_York',
    recurrenceRule: null, reminders: [remind(10)], exceptions: [], ...fields,
  };
}

const everything = { after: Number.NEGATIVE_INFINITY, dueFrom: Number.NEGATIVE_INFINITY, dueTo: at('2027-01-01T00:00:00Z') };
const dues = (ev: RemindedEvent, window = everything) =>
  remindersDue(ID, ev, window).map((r) => [iso(r.dueMs), r.occurrenceStartsAt, r.minutesBefore, r.method]);

describe('a single event', () => {
  it('is reminded minutesBefore before its start, each distinct reminder once, in due order', () => {
    const ev = event({ reminders: [remind(10), remind(60, 'email'), remind(10), remind(0, 'push')] });
    expect(dues(ev)).toEqual([
      ['2026-03-05T13:00:00.000Z', '2026-03-05T14:00:00.000Z', 60, 'email'],
      ['2026-03-05T13:50:00.000Z', '2026-03-05T14:00:00.000Z', 10, 'notification'],
      ['2026-03-05T14:00:00.000Z', '2026-03-05T14:00:00.000Z', 0, 'push'],
    ]);
    expect(longestReminderMs(ev)).toBe(60 * MIN);
  });

  it('has none without reminders, and none once it has begun', () => {
    expect(dues(event({ reminders: [] }))).toEqual([]);
    expect(longestReminderMs(event({ reminders: [] }))).toBeNull();
    expect(dues(event(), { ...everything, after: at('2026-03-05T14:00:00Z') })).toEqual([]);
    // Not begun a millisecond before: its reminder is there even though it was due before.
    expect(dues(event(), { ...everything, after: at('2026-03-05T13:59:59.999Z') })).toHaveLength(1);
  });

  it('keeps to the due window [dueFrom, dueTo)', () => {
    const ev = event({ reminders: [remind(10), remind(60)] });
    expect(dues(ev, { ...everything, dueFrom: at('2026-03-05T13:00:00.001Z') }).map((d) => d[2])).toEqual([10]);
    expect(dues(ev, { ...everything, dueTo: at('2026-03-05T13:50:00Z') }).map((d) => d[2])).toEqual([60]);
  });

  it('is reminded 4 weeks ahead when asked to be: occurrences up to the window plus the longest reminder are read', () => {
    const ev = event({ startsAt: '2026-04-02T14:00:00.000Z', endsAt: '2026-04-02T15:00:00.000Z', reminders: [remind(40_320)] });
    expect(dues(ev, { after: at('2026-03-05T00:00:00Z'), dueFrom: at('2026-03-05T00:00:00Z'), dueTo: at('2026-03-06T00:00:00Z') }))
      .toEqual([['2026-03-05T14:00:00.000Z', '2026-04-02T14:00:00.000Z', 40_320, 'notification']]);
  });
});

describe('a series', () => {
  const daily = (fields: Partial<RemindedEvent> = {}) =>
    event({ startsAt: '2026-03-06T14:00:00.000Z', endsAt: '2026-03-06T14:30:00.000Z', recurrenceRule: 'FREQ=DAILY;COUNT=4', reminders: [remind(30)], ...fields });

  it('is reminded before 09:00 New York time across the spring change: the UTC instants move by an hour', () => {
    expect(dues(daily()).map((d) => d[0])).toEqual([
      '2026-03-06T13:30:00.000Z', '2026-03-07T13:30:00.000Z', '2026-03-08T12:30:00.000Z', '2026-03-09T12:30:00.000Z',
    ]);
  });

  it('counts minutesBefore in elapsed time across a change: 10 hours before 09:00 EDT is 22:00 EST the day before', () => {
    const [, , third] = remindersDue(ID, daily({ reminders: [remind(600)] }), everything);
    expect(iso(third.startMs)).toBe('2026-03-08T13:00:00.000Z');
    expect(iso(third.dueMs)).toBe('2026-03-08T03:00:00.000Z');
  });

  it('reminds of no cancelled occurrence, of a moved one before its new time, with an occurrence\'s own reminders', () => {
    const ev = daily({
      exceptions: [
        { occurrenceStartsAt: '2026-03-07T14:00:00.000Z', cancelled: true },
        { occurrenceStartsAt: '2026-03-08T13:00:00.000Z', startsAt: '2026-03-08T20:00:00.000Z', endsAt: '2026-03-08T20:30:00.000Z' },
        { occurrenceStartsAt: '2026-03-09T13:00:00.000Z', reminders: [remind(5, 'push')] },
      ],
    });
    expect(dues(ev)).toEqual([
      ['2026-03-06T13:30:00.000Z', '2026-03-06T14:00:00.000Z', 30, 'notification'],
      ['2026-03-08T19:30:00.000Z', '2026-03-08T13:00:00.000Z', 30, 'notification'],
      ['2026-03-09T12:55:00.000Z', '2026-03-09T13:00:00.000Z', 5, 'push'],
    ]);
  });

  it('an occurrence whose own reminders are none is reminded of nothing; the longest reminder counts its occurrences too', () => {
    const ev = daily({ reminders: [], exceptions: [
      { occurrenceStartsAt: '2026-03-07T14:00:00.000Z', reminders: [remind(120)] },
      { occurrenceStartsAt: '2026-03-08T13:00:00.000Z', reminders: [] },
    ] });
    expect(dues(ev).map((d) => d[1])).toEqual(['2026-03-07T14:00:00.000Z']);
    expect(longestReminderMs(ev)).toBe(120 * MIN);
  });

  it('reads an endless hourly series only over its window: a day of it, 24 reminders', () => {
    const hourly = event({ startsAt: '2026-03-05T00:00:00.000Z', endsAt: '2026-03-05T00:30:00.000Z', recurrenceRule: 'FREQ=HOURLY' });
    const from = at('2031-06-01T00:00:00Z');
    const got = remindersDue(ID, hourly, { after: from, dueFrom: from, dueTo: from + DAY });
    expect(got).toHaveLength(24);
    expect(iso(got[0].dueMs)).toBe('2031-06-01T00:50:00.000Z');
  });

  it('has its next reminder beyond any window: a yearly series a year on, an ended one none', () => {
    const yearly = event({ startsAt: '2026-03-05T14:00:00.000Z', endsAt: '2026-03-05T15:00:00.000Z', recurrenceRule: 'FREQ=YEARLY' });
    const next = nextReminder(ID, yearly, at('2026-03-05T14:00:00Z'));
    expect([iso(next!.dueMs), next!.occurrenceStartsAt]).toEqual(['2027-03-05T13:50:00.000Z', '2027-03-05T14:00:00.000Z']);
    expect(nextReminder(ID, daily(), at('2026-03-10T00:00:00Z'))).toBeNull();
    // The first due, though of a later occurrence: 4 weeks before 09:00 EDT on April 2 comes before 09:00 EST on March 5.
    const weekly = event({ recurrenceRule: 'FREQ=WEEKLY', reminders: [remind(0)], exceptions: [
      { occurrenceStartsAt: '2026-04-02T13:00:00.000Z', reminders: [remind(40_320)] },
    ] });
    const first = nextReminder(ID, weekly, at('2026-03-05T13:00:00Z'))!;
    expect([iso(first.dueMs), first.occurrenceStartsAt]).toEqual(['2026-03-05T13:00:00.000Z', '2026-04-02T13:00:00.000Z']);
  });
});

describe('identity', () => {
  it('is the event, the occurrence, the start it reminds of and the reminder: moving makes a new one, nothing else does', () => {
    const r = remind(10);
    const id = reminderIdOf(ID, at('2026-03-06T14:00:00Z'), at('2026-03-06T14:00:00Z'), r);
    expect(reminderIdOf(ID, at('2026-03-06T14:00:00Z'), at('2026-03-06T14:00:00Z'), { ...r })).toBe(id);
    expect(reminderIdOf(ID, at('2026-03-06T14:00:00Z'), at('2026-03-06T15:00:00Z'), r)).not.toBe(id);
    expect(reminderIdOf(ID, at('2026-03-06T14:00:00Z'), at('2026-03-06T14:00:00Z'), remind(10, 'email'))).not.toBe(id);
    const [single] = remindersDue(ID, event({ title: 'A' } as Partial<RemindedEvent>), everything);
    const [renamed] = remindersDue(ID, event({ title: 'B' } as Partial<RemindedEvent>), everything);
    expect(renamed.id).toBe(single.id);
  });
});
