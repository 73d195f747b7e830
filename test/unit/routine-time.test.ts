/**
 * The time pieces routines stand on: wall-clock minutes of a date to instants across DST changes (whatever the
 * process zone: the suite runs with TZ=America/New_York) and date arithmetic. Suggested free times come from the
 * availability engine (test/unit/availability.nearest.test.ts).
 */
import { addDays, dayClock, daysBetween, isoWeekday, localDate } from '../../services/time/local-time';

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
