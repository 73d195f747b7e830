import { occurrences, OPEN_END, seriesEnd } from '../../services/time/recurrence';

const iso = (ms: number) => new Date(ms).toISOString();
const starts = (ev: Parameters<typeof occurrences>[0], from: string, to: string) =>
  occurrences(ev, Date.parse(from), Date.parse(to)).map((o) => iso(o.start));

describe('recurrence expansion keeps the wall clock across DST, whatever the process time zone', () => {
  it('runs under a non-UTC process zone', () => {
    expect(process.env.TZ).toBeDefined();
    expect(process.env.TZ).not.toBe('UTC');
  });

  it('Europe/Berlin daily 09:00 across the October change', () => {
    const ev = { startsAt: '2026-10-23T07:00:00Z', endsAt: '2026-10-23T08:00:00Z', timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=DAILY;COUNT=5' };
    expect(starts(ev, '2026-10-01T00:00:00Z', '2026-11-01T00:00:00Z')).toEqual([
      '2026-10-23T07:00:00.000Z', '2026-10-24T07:00:00.000Z', '2026-10-25T08:00:00.000Z',
      '2026-10-26T08:00:00.000Z', '2026-10-27T08:00:00.000Z',
    ]);
  });

  it('America/New_York weekly Monday 09:00 across November and March changes', () => {
    const ev = { startsAt: '2026-10-26T13:00:00Z', endsAt: '2026-10-26T13:30:00Z', timeZone: 'America/New_York', recurrenceRule: 'RRULE:FREQ=WEEKLY;BYDAY=MO' };
    expect(starts(ev, '2026-10-26T00:00:00Z', '2026-11-10T00:00:00Z')).toEqual([
      '2026-10-26T13:00:00.000Z', '2026-11-02T14:00:00.000Z', '2026-11-09T14:00:00.000Z',
    ]);
    expect(starts(ev, '2027-03-01T00:00:00Z', '2027-03-16T00:00:00Z')).toEqual([
      '2027-03-01T14:00:00.000Z', '2027-03-08T14:00:00.000Z', '2027-03-15T13:00:00.000Z', // DST starts 14 March 2027
    ]);
  });

  it('includes an occurrence that started before the window but is still running', () => {
    const ev = { startsAt: '2026-12-01T09:00:00Z', endsAt: '2026-12-01T11:00:00Z', timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY' };
    expect(starts(ev, '2026-12-03T10:00:00Z', '2026-12-03T10:30:00Z')).toEqual(['2026-12-03T09:00:00.000Z']);
  });

  it('knows where a series ends', () => {
    const base = { startsAt: '2026-12-01T09:00:00Z', endsAt: '2026-12-01T10:00:00Z', timeZone: 'UTC' };
    expect(seriesEnd({ ...base, recurrenceRule: null })).toBe(Date.parse('2026-12-01T10:00:00Z'));
    expect(seriesEnd({ ...base, recurrenceRule: 'FREQ=DAILY;COUNT=3' })).toBe(Date.parse('2026-12-03T10:00:00Z'));
    expect(seriesEnd({ ...base, recurrenceRule: 'FREQ=DAILY;UNTIL=20261205T090000Z' })).toBe(Date.parse('2026-12-05T10:00:00Z'));
    expect(seriesEnd({ ...base, recurrenceRule: 'FREQ=WEEKLY' })).toBe(OPEN_END);
  });
});

describe('instants far from today', () => {
  it('expands a series that starts before the year 1000 (four-digit years for the recurrence engine)', () => {
    const ev = { startsAt: '0907-12-10T18:21:53.000Z', endsAt: '0907-12-10T19:21:53.000Z', timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=WEEKLY;COUNT=3' };
    const found = occurrences(ev, Date.parse('0907-12-01T00:00:00Z'), Date.parse('0908-01-01T00:00:00Z'));
    expect(found.map((o) => new Date(o.start).toISOString())).toEqual([
      '0907-12-10T18:21:53.000Z', '0907-12-17T18:21:53.000Z', '0907-12-24T18:21:53.000Z',
    ]);
  });
});
