/**
 * The availability engine, table-driven: free windows and the reasons of blocked stretches for owners in
 * Europe/Berlin, America/New_York (the process zone of the suite) and Australia/Sydney, across DST changes, with
 * all-day events, busy:false, recurring series, buffers, notice, routine periods and working hours.
 * Windows are written as UTC `YYYY-MM-DDTHH:MM/YYYY-MM-DDTHH:MM`, worked out by hand from each zone's rules.
 */
import { DEFAULT_BUDGET, expandEvents } from '../../services/availability/busy';
import { availabilityOf } from '../../services/availability/engine';
import { localDays } from '../../services/time/local-time';
import { freeWindows, timeline } from '../../services/availability/timeline';
import type { CalendarEvent, RoutineBlock, Rules, WeeklyHours } from '../../services/availability/types';
import { DEFAULT_WORKING_HOURS, everyDay } from '../../services/availability/weekly-hours';
import { ApiError } from '../../services/errors';

const BERLIN = 'Europe/Berlin';
const NEW_YORK = 'America/New_York';
const SYDNEY = 'Australia/Sydney';

const short = (ms: number) => new Date(ms).toISOString().slice(0, 16);
const show = (i: { start: number; end: number }) => `${short(i.start)}/${short(i.end)}`;

let ids = 0;
function event(startsAt: string, endsAt: string, extra: Partial<CalendarEvent> = {}): CalendarEvent {
  return { id: `event-${++ids}`, kind: 'meeting', allDay: false, busy: true, recurrenceRule: null, timeZone: 'UTC', startsAt, endsAt, ...extra };
}

function routine(periodId: string, start: string, end: string, extra: Partial<RoutineBlock> = {}): RoutineBlock {
  return {
    routineId: 'routine-1', periodId, name: periodId, start: Date.parse(start), end: Date.parse(end),
    canMove: false, windowStart: null, windowEnd: null, status: null, ...extra,
  };
}

interface Case {
  zone: string;
  from: string;
  days?: number;
  events?: CalendarEvent[];
  routines?: RoutineBlock[];
  hours?: WeeklyHours | null;
  rules?: Partial<Rules>;
}

function run(c: Case) {
  const days = localDays(c.from, c.days ?? 1, c.zone);
  const range = { start: days[0].start, end: days[days.length - 1].end };
  const rules: Rules = {
    workingHours: c.hours === undefined ? DEFAULT_WORKING_HOURS : c.hours,
    bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minimumNoticeMinutes: 0, now: 0, ...c.rules,
  };
  const all = c.events ?? [];
  const input = { range, timeZone: c.zone, routines: c.routines ?? [], rules };
  const result = availabilityOf({ ...input, events: { placed: [], events: all } });
  // The same events with the single ones placed, as the busy-time read model hands them over: the same answer.
  const placed = all.filter((e) => !e.recurrenceRule).map((e) => ({ ...e, start: Date.parse(e.startsAt), end: Date.parse(e.endsAt) }));
  const asPlaced = availabilityOf({ ...input, events: { placed, events: all.filter((e) => e.recurrenceRule) } });
  expect(asPlaced.blocked.map(show).sort()).toEqual(result.blocked.map(show).sort());
  expect(asPlaced.occurrences.map((o) => [o.event.id, show(o)])).toEqual(result.occurrences.map((o) => [o.event.id, show(o)]));
  return { range, result, free: freeWindows(range, result.blocked).map(show), stretches: timeline(range, result.blocked) };
}

const series = (startsAt: string, endsAt: string, timeZone: string, recurrenceRule: string, extra: Partial<CalendarEvent> = {}) =>
  event(startsAt, endsAt, { timeZone, recurrenceRule, ...extra });

describe('free windows', () => {
  const cases: Array<[string, Case, string[]]> = [
    ['Berlin: an empty Monday in winter is 09-17 CET', { zone: BERLIN, from: '2026-03-02' }, ['2026-03-02T08:00/2026-03-02T16:00']],
    ['Berlin: Friday before and Monday after the March change', { zone: BERLIN, from: '2026-03-27', days: 4 },
      ['2026-03-27T08:00/2026-03-27T16:00', '2026-03-30T07:00/2026-03-30T15:00']],
    ['Berlin: Friday before and Monday after the October change', { zone: BERLIN, from: '2026-10-23', days: 4 },
      ['2026-10-23T07:00/2026-10-23T15:00', '2026-10-26T08:00/2026-10-26T16:00']],
    ['Berlin: Sunday 01:00-04:00 on the night of the change is two real hours', { zone: BERLIN, from: '2026-03-29', hours: [{ day: 7, startMinute: 60, endMinute: 240 }] },
      ['2026-03-29T00:00/2026-03-29T02:00']],
    ['Berlin: no working hours frees the whole 23-hour day', { zone: BERLIN, from: '2026-03-29', hours: null }, ['2026-03-28T23:00/2026-03-29T22:00']],
    ['Berlin: split hours, Monday 08-12 and 13-18', { zone: BERLIN, from: '2026-03-02', hours: [{ day: 1, startMinute: 480, endMinute: 720 }, { day: 1, startMinute: 780, endMinute: 1080 }] },
      ['2026-03-02T07:00/2026-03-02T11:00', '2026-03-02T12:00/2026-03-02T17:00']],
    ['Berlin: an empty list of hours leaves nothing free', { zone: BERLIN, from: '2026-03-02', hours: [] }, []],
    ['New York (the process zone): Friday EST and Monday EDT around the March change', { zone: NEW_YORK, from: '2026-03-06', days: 4 },
      ['2026-03-06T14:00/2026-03-06T22:00', '2026-03-09T13:00/2026-03-09T21:00']],
    ['New York: Friday EDT and Monday EST around the November change', { zone: NEW_YORK, from: '2026-10-30', days: 4 },
      ['2026-10-30T13:00/2026-10-30T21:00', '2026-11-02T14:00/2026-11-02T22:00']],
    ['New York: Sunday 00:00-03:00 on the night clocks go back is four real hours', { zone: NEW_YORK, from: '2026-11-01', hours: [{ day: 7, startMinute: 0, endMinute: 180 }] },
      ['2026-11-01T04:00/2026-11-01T08:00']],
    ['Sydney: Friday AEDT and Monday AEST around the April change', { zone: SYDNEY, from: '2026-04-03', days: 4 },
      ['2026-04-02T22:00/2026-04-03T06:00', '2026-04-05T23:00/2026-04-06T07:00']],
    ['Sydney: Friday AEST and Monday AEDT around the October change', { zone: SYDNEY, from: '2026-10-02', days: 4 },
      ['2026-10-01T23:00/2026-10-02T07:00', '2026-10-04T22:00/2026-10-05T06:00']],

    ['a daily 09:00 Berlin series keeps its wall clock across the change', {
      zone: BERLIN, from: '2026-03-28', days: 3, hours: everyDay(540, 720),
      events: [series('2026-03-26T08:00:00Z', '2026-03-26T09:00:00Z', BERLIN, 'FREQ=DAILY')],
    }, ['2026-03-28T09:00/2026-03-28T11:00', '2026-03-29T08:00/2026-03-29T10:00', '2026-03-30T08:00/2026-03-30T10:00']],
    ['a weekly New York series moves an hour for a Berlin owner when only New York has changed', {
      zone: BERLIN, from: '2026-03-09',
      events: [series('2026-03-02T14:00:00Z', '2026-03-02T15:00:00Z', NEW_YORK, 'FREQ=WEEKLY;BYDAY=MO')],
    }, ['2026-03-09T08:00/2026-03-09T13:00', '2026-03-09T14:00/2026-03-09T16:00']],
    ['a series that ended (COUNT) blocks nothing later', {
      zone: BERLIN, from: '2026-03-09',
      events: [series('2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z', BERLIN, 'FREQ=DAILY;COUNT=3')],
    }, ['2026-03-09T08:00/2026-03-09T16:00']],

    ['an all-day event in Los Angeles blocks the whole 3 March of a Berlin owner', {
      zone: BERLIN, from: '2026-03-02', days: 3,
      events: [event('2026-03-03T08:00:00Z', '2026-03-04T08:00:00Z', { allDay: true, timeZone: 'America/Los_Angeles' })],
    }, ['2026-03-02T08:00/2026-03-02T16:00', '2026-03-04T08:00/2026-03-04T16:00']],
    ['a two-day all-day event in Berlin blocks Tuesday and Wednesday of a New York owner', {
      zone: NEW_YORK, from: '2026-03-02', days: 4,
      events: [event('2026-03-02T23:00:00Z', '2026-03-04T23:00:00Z', { allDay: true, timeZone: BERLIN })],
    }, ['2026-03-02T14:00/2026-03-02T22:00', '2026-03-05T14:00/2026-03-05T22:00']],
    ['an all-day event in Berlin blocks all of 3 March in Sydney, not the Berlin hours of it', {
      zone: SYDNEY, from: '2026-03-03', days: 2,
      events: [event('2026-03-02T23:00:00Z', '2026-03-03T23:00:00Z', { allDay: true, timeZone: BERLIN })],
    }, ['2026-03-03T22:00/2026-03-04T06:00']],
    ['an all-day event ending before midnight still covers its one day', {
      zone: NEW_YORK, from: '2026-03-02', days: 2,
      events: [event('2026-03-02T05:00:00Z', '2026-03-03T04:59:00Z', { allDay: true, timeZone: NEW_YORK })],
    }, ['2026-03-03T14:00/2026-03-03T22:00']],
    ['a yearly all-day birthday written in UTC blocks 4 March in Sydney', {
      zone: SYDNEY, from: '2026-03-03', days: 3,
      events: [series('2020-03-04T00:00:00Z', '2020-03-05T00:00:00Z', 'UTC', 'FREQ=YEARLY', { allDay: true })],
    }, ['2026-03-02T22:00/2026-03-03T06:00', '2026-03-04T22:00/2026-03-05T06:00']],

    ['busy:false is ignored', {
      zone: BERLIN, from: '2026-03-02', events: [event('2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z', { busy: false })],
    }, ['2026-03-02T08:00/2026-03-02T16:00']],
    ['overlapping events leave one gap', {
      zone: BERLIN, from: '2026-03-02',
      events: [event('2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z'), event('2026-03-02T09:30:00Z', '2026-03-02T10:30:00Z')],
    }, ['2026-03-02T08:00/2026-03-02T09:00', '2026-03-02T10:30/2026-03-02T16:00']],
    ['an event from the night before cuts the morning', {
      zone: BERLIN, from: '2026-03-02', events: [event('2026-03-01T21:00:00Z', '2026-03-02T09:00:00Z')],
    }, ['2026-03-02T09:00/2026-03-02T16:00']],
    ['protected focus time blocks', {
      zone: BERLIN, from: '2026-03-02', events: [event('2026-03-02T12:00:00Z', '2026-03-02T14:00:00Z', { kind: 'focus' })],
    }, ['2026-03-02T08:00/2026-03-02T12:00', '2026-03-02T14:00/2026-03-02T16:00']],

    ['buffers: 15 minutes before and 10 after an event', {
      zone: BERLIN, from: '2026-03-02', rules: { bufferBeforeMinutes: 15, bufferAfterMinutes: 10 },
      events: [event('2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z')],
    }, ['2026-03-02T08:00/2026-03-02T08:45', '2026-03-02T10:10/2026-03-02T16:00']],
    ['buffers reach in from an event outside working hours', {
      zone: BERLIN, from: '2026-03-02', rules: { bufferAfterMinutes: 30 },
      events: [event('2026-03-02T07:00:00Z', '2026-03-02T08:00:00Z')],
    }, ['2026-03-02T08:30/2026-03-02T16:00']],
    ['buffers reach in from an event on the next day when the range ends at midnight', {
      zone: BERLIN, from: '2026-03-02', hours: null, rules: { bufferBeforeMinutes: 60 },
      events: [event('2026-03-02T23:00:00Z', '2026-03-02T23:30:00Z')],
    }, ['2026-03-01T23:00/2026-03-02T22:00']],
    ['buffers surround fixed routine periods too', {
      zone: BERLIN, from: '2026-03-02', rules: { bufferBeforeMinutes: 5, bufferAfterMinutes: 5 },
      routines: [routine('lunch', '2026-03-02T11:00:00Z', '2026-03-02T12:00:00Z')],
    }, ['2026-03-02T08:00/2026-03-02T10:55', '2026-03-02T12:05/2026-03-02T16:00']],

    ['notice: nothing before now', { zone: BERLIN, from: '2026-03-02', rules: { now: Date.parse('2026-03-02T12:00:00Z') } },
      ['2026-03-02T12:00/2026-03-02T16:00']],
    ['notice: an hour of minimum notice from 11:07', {
      zone: BERLIN, from: '2026-03-02', rules: { now: Date.parse('2026-03-02T10:07:00Z'), minimumNoticeMinutes: 60 },
    }, ['2026-03-02T11:07/2026-03-02T16:00']],
    ['notice past the range leaves nothing', {
      zone: BERLIN, from: '2026-03-02', rules: { now: Date.parse('2026-03-05T00:00:00Z') },
    }, []],

    ['routine periods: fixed blocks, movable and skipped do not', {
      zone: BERLIN, from: '2026-03-02',
      routines: [
        routine('fixed', '2026-03-02T11:00:00Z', '2026-03-02T12:00:00Z'),
        routine('movable', '2026-03-02T13:00:00Z', '2026-03-02T14:00:00Z', { canMove: true, windowStart: Date.parse('2026-03-02T12:00:00Z'), windowEnd: Date.parse('2026-03-02T15:00:00Z') }),
        routine('skipped', '2026-03-02T14:00:00Z', '2026-03-02T15:00:00Z', { status: 'skipped' }),
        routine('done', '2026-03-02T15:30:00Z', '2026-03-02T16:00:00Z', { status: 'done' }),
      ],
    }, ['2026-03-02T08:00/2026-03-02T11:00', '2026-03-02T12:00/2026-03-02T15:30']],
  ];

  it.each(cases)('%s', (_name, c, expected) => {
    expect(run(c).free).toEqual(expected);
  });
});

describe('reasons of blocked stretches', () => {
  const view = (c: Case) => run(c).stretches.map((s) => [show(s), s.reasons]);

  it('cuts the day into free and blocked stretches; busy time that overlaps is one stretch naming all of it', () => {
    expect(view({
      zone: BERLIN, from: '2026-03-02',
      events: [event('2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z', { id: 'standup' })],
      routines: [routine('lunch', '2026-03-02T09:30:00Z', '2026-03-02T10:30:00Z')],
    })).toEqual([
      ['2026-03-01T23:00/2026-03-02T08:00', [{ type: 'outside_hours' }]],
      ['2026-03-02T08:00/2026-03-02T09:00', []],
      ['2026-03-02T09:00/2026-03-02T10:30', [{ type: 'event', eventId: 'standup' }, { type: 'routine', routineId: 'routine-1', periodId: 'lunch' }]],
      ['2026-03-02T10:30/2026-03-02T16:00', []],
      ['2026-03-02T16:00/2026-03-02T23:00', [{ type: 'outside_hours' }]],
    ]);
  });

  it('keeps working hours cutting through busy time, and many overlapping series few stretches', () => {
    const at = (minute: number) => new Date(Date.parse('2026-03-01T00:00:00Z') + minute * 60_000).toISOString();
    const staggered = Array.from({ length: 22 }, (_, i) => series(at(i * 2), at(i * 2 + 30), 'UTC', 'FREQ=HOURLY', { id: `s${i}` }));
    const stretches = view({ zone: BERLIN, from: '2026-03-02', events: staggered });
    expect(stretches.map(([span, reasons]) => [span, reasons.length])).toEqual([
      ['2026-03-01T23:00/2026-03-02T08:00', 23],
      ['2026-03-02T08:00/2026-03-02T16:00', 22],
      ['2026-03-02T16:00/2026-03-02T23:00', 23],
    ]);
  });

  it('names focus, buffers (with what they surround) and notice', () => {
    expect(view({
      zone: BERLIN, from: '2026-03-02', hours: null,
      rules: { now: Date.parse('2026-03-02T08:00:00Z'), bufferBeforeMinutes: 15, bufferAfterMinutes: 15 },
      events: [event('2026-03-02T12:00:00Z', '2026-03-02T14:00:00Z', { id: 'deep-work', kind: 'focus' })],
      routines: [routine('walk', '2026-03-02T16:00:00Z', '2026-03-02T16:30:00Z')],
    })).toEqual([
      ['2026-03-01T23:00/2026-03-02T08:00', [{ type: 'notice' }]],
      ['2026-03-02T08:00/2026-03-02T11:45', []],
      ['2026-03-02T11:45/2026-03-02T12:00', [{ type: 'buffer', eventId: 'deep-work' }]],
      ['2026-03-02T12:00/2026-03-02T14:00', [{ type: 'focus', eventId: 'deep-work' }]],
      ['2026-03-02T14:00/2026-03-02T14:15', [{ type: 'buffer', eventId: 'deep-work' }]],
      ['2026-03-02T14:15/2026-03-02T15:45', []],
      ['2026-03-02T15:45/2026-03-02T16:00', [{ type: 'buffer', periodId: 'walk' }]],
      ['2026-03-02T16:00/2026-03-02T16:30', [{ type: 'routine', routineId: 'routine-1', periodId: 'walk' }]],
      ['2026-03-02T16:30/2026-03-02T16:45', [{ type: 'buffer', periodId: 'walk' }]],
      ['2026-03-02T16:45/2026-03-02T23:00', []],
    ]);
  });

  it('joins back-to-back occurrences of one series into one stretch', () => {
    const hourly = series('2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z', 'UTC', 'FREQ=HOURLY;COUNT=3', { id: 'clinic' });
    expect(view({ zone: BERLIN, from: '2026-03-02', hours: null, events: [hourly] })).toEqual([
      ['2026-03-01T23:00/2026-03-02T09:00', []],
      ['2026-03-02T09:00/2026-03-02T12:00', [{ type: 'event', eventId: 'clinic' }]],
      ['2026-03-02T12:00/2026-03-02T23:00', []],
    ]);
  });

  it('marks an all-day day as blocked by the event for the whole local day', () => {
    const holiday = event('2026-03-03T08:00:00Z', '2026-03-04T08:00:00Z', { id: 'holiday', kind: 'holiday', allDay: true, timeZone: 'America/Los_Angeles' });
    const tuesday = run({ zone: BERLIN, from: '2026-03-03', events: [holiday] }).stretches;
    expect(tuesday.map(show)).toEqual(['2026-03-02T23:00/2026-03-03T08:00', '2026-03-03T08:00/2026-03-03T16:00', '2026-03-03T16:00/2026-03-03T23:00']);
    expect(tuesday.every((s) => s.reasons.some((r) => r.type === 'event' && r.eventId === 'holiday'))).toBe(true);
  });

  it('tiles the range with no gap and no overlap', () => {
    const { range, stretches } = run({
      zone: SYDNEY, from: '2026-04-03', days: 4, rules: { bufferAfterMinutes: 20, now: Date.parse('2026-04-03T01:00:00Z') },
      events: [series('2026-04-01T00:00:00Z', '2026-04-01T00:45:00Z', SYDNEY, 'FREQ=DAILY')],
    });
    expect(stretches[0].start).toBe(range.start);
    expect(stretches[stretches.length - 1].end).toBe(range.end);
    for (let i = 1; i < stretches.length; i++) expect(stretches[i].start).toBe(stretches[i - 1].end);
  });
});

describe('what the engine also reports', () => {
  it('lists busy:false events and movable routine periods among occurrences and routines, not among busy time', () => {
    const { result } = run({
      zone: BERLIN, from: '2026-03-02',
      events: [event('2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z', { id: 'tentative', busy: false })],
      routines: [routine('stretch', '2026-03-02T13:00:00Z', '2026-03-02T13:15:00Z', { canMove: true })],
    });
    expect(result.occurrences.map((o) => o.event.id)).toEqual(['tentative']);
    expect(result.routines.map((r) => r.periodId)).toEqual(['stretch']);
    expect(result.busy).toEqual([]);
  });
});

describe('expanding one series object for several windows', () => {
  it('answers each window as a fresh expansion would, in any order and again', () => {
    const weekly = series('2026-03-02T09:00:00Z', '2026-03-02T10:00:00Z', BERLIN, 'FREQ=WEEKLY;BYDAY=MO,TH');
    const starts = (from: string, to: string, ev = weekly) =>
      expandEvents({ placed: [], events: [ev] }, { start: Date.parse(from), end: Date.parse(to) }, BERLIN).map((o) => short(o.start));
    const march = ['2026-03-02T09:00', '2026-03-05T09:00', '2026-03-09T09:00', '2026-03-12T09:00'];
    expect(starts('2026-03-01T00:00:00Z', '2026-03-13T00:00:00Z')).toEqual(march);
    expect(starts('2026-04-01T00:00:00Z', '2026-04-07T00:00:00Z')).toEqual(['2026-04-02T08:00', '2026-04-06T08:00']);
    expect(starts('2026-03-01T00:00:00Z', '2026-03-13T00:00:00Z')).toEqual(march);
    expect(starts('2026-03-01T00:00:00Z', '2026-03-13T00:00:00Z', { ...weekly })).toEqual(march);
  });
});

describe('bounds', () => {
  const expectLimit = (fn: () => unknown, what: string) => {
    try {
      fn();
    } catch (err) {
      expect(err).toBeInstanceOf(ApiError);
      expect({ status: (err as ApiError).status, code: (err as ApiError).code, what: ((err as ApiError).details as { what: string }).what })
        .toEqual({ status: 422, code: 'expansion_limit_exceeded', what });
      return;
    }
    throw new Error('expected the expansion limit');
  };

  it('refuses more stored events than the budget', () => {
    const events = Array.from({ length: DEFAULT_BUDGET.maxEvents + 1 }, (_, i) => event(`2026-03-02T09:${String(i % 60).padStart(2, '0')}:00Z`, '2026-03-02T10:00:00Z'));
    expectLimit(() => run({ zone: BERLIN, from: '2026-03-02', events }), 'events');
  });

  it('refuses more occurrences than the budget', () => {
    const days = localDays('2026-03-02', 14, BERLIN);
    const range = { start: days[0].start, end: days[13].end };
    const hourly = series('2026-03-01T00:00:00Z', '2026-03-01T00:30:00Z', 'UTC', 'FREQ=HOURLY');
    const input = {
      range, timeZone: BERLIN, events: { placed: [], events: [hourly] }, routines: [],
      rules: { workingHours: DEFAULT_WORKING_HOURS, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minimumNoticeMinutes: 0, now: 0 },
    };
    expect(availabilityOf({ ...input, budget: { maxEvents: 10, maxOccurrences: 14 * 24 } }).busy).toHaveLength(14 * 24);
    expectLimit(() => availabilityOf({ ...input, budget: { maxEvents: 10, maxOccurrences: 14 * 24 - 1 } }), 'occurrences');
  });

  it('refuses an empty or overlong range', () => {
    const rules = { workingHours: null, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minimumNoticeMinutes: 0, now: 0 };
    expect(() => availabilityOf({ range: { start: 10, end: 10 }, timeZone: BERLIN, events: { placed: [], events: [] }, routines: [], rules })).toThrow(ApiError);
    expect(() => availabilityOf({ range: { start: 0, end: 401 * 86_400_000 }, timeZone: BERLIN, events: { placed: [], events: [] }, routines: [], rules })).toThrow(ApiError);
  });
});
