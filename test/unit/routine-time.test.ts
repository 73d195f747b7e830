/**
 * The time pieces routines stand on: wall-clock minutes of a date to instants across DST changes (whatever the
 * process zone: the suite runs with TZ=America/New_York), date arithmetic, and the free-time finder.
 */
import { addDays, dayClock, daysBetween, isoWeekday, localDate } from '../../services/time/local-time';
import { suggestFreeTime } from '../../read-api/routines/free-time';

const iso = (ms: number) => new Date(ms).toISOString();
const at = (date: string, minute: number, tz: string) => iso(dayClock(date, tz)(minute));

describe('dayClock', () => {
  it('keeps 09:00 in Berlin at 09:00 across the October change', () => {
    expect(at('2026-10-24', 540, 'Europe/Berlin')).toBe('2026-10-24T07:00:00.000Z');
    expect(at('2026-10-25', 540, 'Europe/Berlin')).toBe('2026-10-25T08:00:00.000Z');
    expect(at('2026-10-26', 540, 'Europe/Berlin')).toBe('2026-10-26T08:00:00.000Z');
  });

  it('ends a 25-hour day 25 hours after it starts, and a 23-hour one after 23', () => {
    const long = dayClock('2026-10-25', 'Europe/Berlin');
    expect((long(1440) - long(0)) / 3_600_000).toBe(25);
    const short = dayClock('2026-03-29', 'Europe/Berlin');
    expect((short(1440) - short(0)) / 3_600_000).toBe(23);
  });

  it('moves a skipped time forward and takes the first of a repeated one', () => {
    expect(at('2026-03-29', 150, 'Europe/Berlin')).toBe('2026-03-29T01:30:00.000Z'); // 02:30 does not exist: 03:30
    expect(at('2026-10-25', 150, 'Europe/Berlin')).toBe('2026-10-25T00:30:00.000Z'); // 02:30 happens twice: the first
  });

  it('works for zones far from UTC and with half-hour offsets', () => {
    expect(at('2026-04-05', 120, 'Australia/Sydney')).toBe('2026-04-04T15:00:00.000Z'); // 02:00 AEDT, first of two
    expect(at('2026-06-01', 0, 'Asia/Kolkata')).toBe('2026-05-31T18:30:00.000Z');
    expect(at('2026-06-01', 600, 'UTC')).toBe('2026-06-01T10:00:00.000Z');
  });
});

describe('dates', () => {
  it('adds days across months and years, counts between, names ISO weekdays', () => {
    expect(addDays('2026-12-30', 3)).toBe('2027-01-02');
    expect(addDays('2026-03-01', -1)).toBe('2026-02-28');
    expect(daysBetween('2026-10-01', '2026-12-01')).toBe(61);
    expect(isoWeekday('2026-10-26')).toBe(1);
    expect(isoWeekday('2026-11-01')).toBe(7);
  });

  it('reads the local date of an instant in the zone, not the process', () => {
    expect(localDate(Date.parse('2026-10-25T23:30:00Z'), 'Europe/Berlin')).toBe('2026-10-26');
    expect(localDate(Date.parse('2026-10-25T23:30:00Z'), 'America/Los_Angeles')).toBe('2026-10-25');
  });
});

describe('suggestFreeTime', () => {
  const m = (minutes: number) => minutes * 60_000;
  const day = { start: 0, end: m(1440) };

  it('takes the free start nearest the preferred one', () => {
    // Wanted 07:00-07:45. Busy 06:30-08:00: 08:00 (60 min later) beats 05:45 (75 earlier); busy 06:50-08:00: 06:05 wins.
    expect(suggestFreeTime(day, m(45), [{ start: m(390), end: m(480) }], m(420))).toBe(m(480));
    expect(suggestFreeTime(day, m(45), [{ start: m(410), end: m(480) }], m(420))).toBe(m(365));
  });

  it('stays inside the range and clear of every busy span', () => {
    const range = { start: m(360), end: m(540) };
    const busy = [{ start: m(360), end: m(470) }, { start: m(500), end: m(600) }];
    expect(suggestFreeTime(range, m(30), busy, m(420))).toBe(m(470));
    expect(suggestFreeTime(range, m(45), busy, m(420))).toBeNull();
  });

  it('rounds starts next to busy spans that end between minutes to the minute', () => {
    expect(suggestFreeTime(day, m(30), [{ start: m(400), end: m(450) + 20_000 }], m(420))).toBe(m(451));
  });
});
