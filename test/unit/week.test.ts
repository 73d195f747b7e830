/** Weeks in a zone: Monday-named, local midnights, across DST changes, whatever the process's own zone. */
import { weekAt, weekOf } from '../../services/time/week';
import { addDays, epochAt, isoWeekday, mondayOf } from '../../services/time/local-time';

describe('weeks in a zone', () => {
  it('names a week by its Monday', () => {
    expect(mondayOf('2025-03-03')).toBe('2025-03-03');
    expect(mondayOf('2025-03-09')).toBe('2025-03-03');
    expect(mondayOf('2025-03-10')).toBe('2025-03-10');
    expect(isoWeekday('2025-03-09')).toBe(7);
    expect(addDays('2024-02-28', 2)).toBe('2024-03-01');
  });

  it('starts each day at the zone\'s midnight', () => {
    expect(new Date(epochAt('2025-03-03', 0, 'Europe/Berlin')).toISOString()).toBe('2025-03-02T23:00:00.000Z');
    expect(new Date(epochAt('2025-07-07', 0, 'America/Los_Angeles')).toISOString()).toBe('2025-07-07T07:00:00.000Z');
    expect(new Date(epochAt('2025-03-03', 0, 'Asia/Kolkata')).toISOString()).toBe('2025-03-02T18:30:00.000Z');
  });

  it('a week holding a DST change is an hour shorter or longer', () => {
    const spring = weekOf('2025-03-24', 'Europe/Berlin');
    expect((spring.end - spring.start) / 3_600_000).toBe(7 * 24 - 1);
    const autumn = weekOf('2025-10-27', 'America/New_York');
    expect((autumn.end - autumn.start) / 3_600_000).toBe(7 * 24 + 1);
  });

  it('where midnight does not exist, the day starts at the first instant it has', () => {
    // Chile moved its clocks from 00:00 to 01:00 on 2025-09-07.
    expect(new Date(epochAt('2025-09-07', 0, 'America/Santiago')).toISOString()).toBe('2025-09-07T04:00:00.000Z');
  });

  it('puts an instant in the week of its local date', () => {
    expect(weekAt(Date.parse('2025-03-02T23:30:00Z'), 'Europe/Berlin').monday).toBe('2025-03-03');
    expect(weekAt(Date.parse('2025-03-02T23:30:00Z'), 'America/New_York').monday).toBe('2025-02-24');
  });
});
