/**
 * Recurrence rules are validated completely before anything is stored: one parse refuses repeated, unknown and
 * malformed parts and costly lists; the write-time check refuses rules with no occurrence and ends past the horizon;
 * a series' end is bounded from one period, never by enumerating; stored rules the limits refuse show as one event.
 */
import { RECURRENCE_LIMITS } from '../../contracts/events';
import { checkRule, HORIZON_MS, occurrences, OPEN_END, seriesEnd } from '../../services/time/recurrence';
import { parseRule } from '../../services/time/rrule';

const DAY = 86_400_000;
const series = (recurrenceRule: string, startsAt = '2026-12-01T09:00:00Z', timeZone = 'UTC') => ({
  startsAt, endsAt: new Date(Date.parse(startsAt) + 3_600_000).toISOString(), timeZone, recurrenceRule,
});
const problem = (rule: string) => {
  const parsed = parseRule(rule);
  return 'problem' in parsed ? parsed.problem : null;
};
const values = (n: number) => Array.from({ length: n }, (_, i) => i).join(',');

describe('parsing', () => {
  it.each([
    ['FREQ=DAILY;FREQ=MINUTELY;COUNT=50000', 'FREQ is given twice'],
    ['FREQ=WEEKLY;BYDAY=MO;BYDAY=TU', 'BYDAY is given twice'],
    ['FREQ=WEEKLY;BYDAY=MO,MO', 'BYDAY lists a value twice'],
    ['FREQ=DAILY;BYHOUR=9,09', 'BYHOUR lists a value twice'],
    ['FREQ=DAILY;X-NAME=1', 'unknown part X-NAME'],
    ['FREQ=DAILY;RSCALE=GREGORIAN', 'unknown part RSCALE'],
    ['FREQ=DAILY;COUNT', '"COUNT" is not a NAME=VALUE part'],
    ['FREQ=DAILY;;COUNT=2', '"" is not a NAME=VALUE part'],
    ['COUNT=2', 'must have FREQ'],
    ['FREQ=SOMETIMES', 'FREQ=SOMETIMES is not a frequency'],
    ['FREQ=SECONDLY', 'FREQ=SECONDLY is not supported (at most hourly)'],
    ['FREQ=MINUTELY;INTERVAL=30', 'FREQ=MINUTELY is not supported (at most hourly)'],
    ['FREQ=DAILY;INTERVAL=0', 'INTERVAL values must be 1 to 1000 (got 0)'],
    ['FREQ=DAILY;INTERVAL=1.5', 'INTERVAL value "1.5" is not a whole number'],
    ['FREQ=DAILY;COUNT=1001', 'COUNT values must be 1 to 1000 (got 1001)'],
    ['FREQ=HOURLY;COUNT=1000000000', 'COUNT values must be 1 to 1000 (got 1000000000)'],
    ['FREQ=YEARLY;COUNT=100001', 'COUNT values must be 1 to 1000 (got 100001)'],
    ['FREQ=MONTHLY;BYMONTHDAY=32', 'BYMONTHDAY values must be 1 to 31 or -31 to -1 (got 32)'],
    ['FREQ=MONTHLY;BYMONTHDAY=0', 'BYMONTHDAY values must be 1 to 31 or -31 to -1 (got 0)'],
    ['FREQ=MONTHLY;BYMONTHDAY=1,', 'BYMONTHDAY has an empty value'],
    ['FREQ=WEEKLY;BYDAY=XX', 'BYDAY value "XX" is not a weekday (MO to SU)'],
    ['FREQ=WEEKLY;BYDAY=2TU', 'BYDAY ranks (such as 2TU) need FREQ=MONTHLY or FREQ=YEARLY without BYWEEKNO'],
    ['FREQ=MONTHLY;BYDAY=6TU', 'BYDAY rank values must be 1 to 5 or -5 to -1 (got 6)'],
    ['FREQ=WEEKLY;BYMONTHDAY=1', 'BYMONTHDAY cannot be used with FREQ=WEEKLY'],
    ['FREQ=MONTHLY;BYWEEKNO=1', 'BYWEEKNO cannot be used with FREQ=MONTHLY'],
    ['FREQ=DAILY;BYYEARDAY=1', 'BYYEARDAY cannot be used with FREQ=DAILY'],
    ['FREQ=DAILY;BYSETPOS=1', 'BYSETPOS needs another BY part to select from'],
    ['FREQ=DAILY;COUNT=3;UNTIL=20270101T000000Z', 'COUNT and UNTIL cannot both be given'],
    ['FREQ=DAILY;UNTIL=2027', 'UNTIL must be YYYYMMDD or YYYYMMDDTHHMMSSZ'],
    ['FREQ=DAILY;UNTIL=20270230T000000Z', 'UNTIL 20270230T000000Z is not a real date and time'],
    ['FREQ=DAILY;WKST=XX', 'WKST value "XX" is not a weekday (MO to SU)'],
    ['DTSTART:20260101T000000Z\nRRULE:FREQ=DAILY', 'must be a single line'],
    ['FREQ=DAILY;DTSTART=20260101T000000Z', 'must not contain DTSTART (startsAt is the first occurrence)'],
  ])('refuses %j: %s', (rule, message) => {
    expect(problem(rule)).toBe(message);
  });

  it('caps each BY part and the start times a day, before anything is expanded', () => {
    const sixty = values(60);
    expect(problem(`FREQ=HOURLY;BYMINUTE=${sixty};BYSECOND=${sixty}`)).toMatch(/^BY(MINUTE|SECOND) may list at most 31 values$/);
    expect(RECURRENCE_LIMITS.maxValuesPerPart).toBe(31);
    expect(problem(`FREQ=YEARLY;BYYEARDAY=${values(33).replace(/^0,/, '')}`)).toBe('BYYEARDAY may list at most 31 values');
    expect(problem('FREQ=HOURLY;BYMINUTE=0,30')).toBe('may produce at most 24 start times per day');
    expect(problem('FREQ=DAILY;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12;BYMINUTE=0,30')).toBe('may produce at most 24 start times per day');
    expect(problem('FREQ=DAILY;BYMINUTE=0,15;BYSECOND=0,20,40;BYHOUR=8,9,10,11,12')).toBe('may produce at most 24 start times per day');
    expect(problem('FREQ=YEARLY;BYHOUR=8,12,20;BYDAY=MO,TU;BYSETPOS=-1')).toBe('BYSETPOS may choose among at most 1000 start times a period');
    expect(problem('FREQ=YEARLY;BYMONTH=1,2;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15;BYDAY=MO;BYSETPOS=-1')).toBeNull();
    expect(problem('FREQ=YEARLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1')).toBeNull();
    expect(problem('FREQ=HOURLY;INTERVAL=2;BYMINUTE=0,30')).toBeNull();
    expect(problem('FREQ=DAILY;BYHOUR=8,9,10,11,12,13,14,15,16,17,18,19;BYMINUTE=0,30')).toBeNull();
  });

  it('reads names and values in any case, with an RRULE: prefix and a trailing semicolon', () => {
    const parsed = parseRule(' rrule:freq=monthly;byday=-1fr;interval=2; ');
    expect(parsed).toEqual({ rule: expect.objectContaining({ freq: 'MONTHLY', interval: 2, byDay: [{ weekday: 5, nth: -1 }] }) });
  });
});

describe('the write-time check', () => {
  it('refuses the four rules of the incident, whatever else they say', () => {
    for (const rule of ['FREQ=HOURLY;COUNT=1000000000', 'FREQ=DAILY;UNTIL=99991231T000000Z', 'FREQ=YEARLY;COUNT=100001', 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=2']) {
      expect(checkRule(series(rule))).toEqual(expect.any(String));
    }
    expect(checkRule(series('FREQ=DAILY;UNTIL=99991231T000000Z'))).toBe('UNTIL may be at most 10 years after startsAt');
    expect(checkRule(series('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=2'))).toBe('produces no occurrence within 10 years of startsAt');
  });

  it.each([
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30',
    'FREQ=MONTHLY;BYMONTH=4,6,9,11;BYMONTHDAY=31',
    'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=-30',
    'FREQ=YEARLY;BYWEEKNO=53;BYMONTH=6',
    'FREQ=MONTHLY;BYDAY=MO;BYMONTHDAY=1,2;BYSETPOS=5',
    'FREQ=HOURLY;INTERVAL=2;BYHOUR=4', // every other hour from 09:00 UTC never reaches 04:00
  ])('refuses %j: it produces no occurrence', (rule) => {
    expect(checkRule(series(rule))).toBe('produces no occurrence within 10 years of startsAt');
  });

  it('refuses UNTIL before startsAt or past the horizon, and a COUNT the horizon does not reach', () => {
    expect(checkRule(series('FREQ=DAILY;UNTIL=20261130T000000Z'))).toBe('UNTIL is before startsAt');
    expect(checkRule(series('FREQ=DAILY;UNTIL=20361202T000000Z'))).toBe('UNTIL may be at most 10 years after startsAt');
    expect(checkRule(series('FREQ=DAILY;UNTIL=20361130T000000Z'))).toBeNull();
    expect(checkRule(series('FREQ=YEARLY;COUNT=12'))).toBe('COUNT=12 is not reached within 10 years of startsAt (11 occurrences)');
    expect(checkRule(series('FREQ=YEARLY;COUNT=11'))).toBeNull(); // 2026 to 2036
    expect(checkRule(series('FREQ=HOURLY;BYMONTH=1;BYMONTHDAY=1;COUNT=1000'))).toMatch(/^COUNT=1000 is not reached within 10 years/);
  });

  it('accepts rules a calendar uses, including a first occurrence years away', () => {
    for (const rule of ['FREQ=WEEKLY;BYDAY=MO,WE', 'FREQ=MONTHLY;BYDAY=-1FR', 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29', 'FREQ=DAILY;COUNT=1000', 'FREQ=HOURLY;COUNT=1000']) {
      expect(checkRule(series(rule))).toBeNull();
    }
    expect(checkRule(series('FREQ=MONTHLY;BYMONTH=2;BYDAY=5SU'))).toBeNull(); // February 2032 has five Sundays
  });
});

describe('bounded work', () => {
  it('a window far from the start costs the window, not the years before it', () => {
    const hourly = series('FREQ=HOURLY');
    const from = Date.parse('2999-01-01T00:00:00Z');
    const list = occurrences(hourly, from, from + 2 * DAY);
    expect(list).toHaveLength(48);
    expect(new Date(list[0].start).toISOString()).toBe('2999-01-01T00:00:00.000Z');
  });

  it('a COUNT series never runs past the horizon, even when stored before the limits', () => {
    const legacy = series('FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=2');
    expect(occurrences(legacy, Date.parse('2026-01-01'), Date.parse('2027-01-01'))).toEqual([]);
    expect(seriesEnd(legacy)).toBe(Date.parse(legacy.startsAt) + HORIZON_MS + 3_600_000);
  });

  it('a stored rule that the limits refuse is one event: never expanded', () => {
    for (const rule of ['FREQ=HOURLY;COUNT=1000000000', 'FREQ=DAILY;UNTIL=99991231T000000Z', 'FREQ=DAILY;FREQ=MINUTELY']) {
      const legacy = series(rule);
      expect(occurrences(legacy, Date.parse('2026-01-01'), Date.parse('2027-12-31'))).toEqual([
        { start: Date.parse(legacy.startsAt), end: Date.parse(legacy.endsAt), original: Date.parse(legacy.startsAt), change: null },
      ]);
      expect(seriesEnd(legacy)).toBe(Date.parse(legacy.endsAt));
    }
  });
});

describe("a series' end, from one period", () => {
  const lastEnd = (ev: ReturnType<typeof series>) => {
    const all = occurrences(ev, Date.parse(ev.startsAt), Date.parse(ev.startsAt) + HORIZON_MS + DAY);
    return all[all.length - 1].end;
  };

  it.each([
    'FREQ=DAILY;COUNT=1000', 'FREQ=HOURLY;COUNT=1000', 'FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=10', 'FREQ=MONTHLY;BYMONTHDAY=1,15;COUNT=25',
    'FREQ=YEARLY;BYMONTH=3,9;COUNT=7', 'FREQ=YEARLY;BYMONTHDAY=1,15;COUNT=30', 'FREQ=YEARLY;BYMONTH=5;BYMONTHDAY=2,9;COUNT=5', 'FREQ=DAILY;INTERVAL=3;BYHOUR=8,20;COUNT=9', 'FREQ=HOURLY;INTERVAL=5;BYMINUTE=0,30;COUNT=99',
  ])('is exact for %j in a zone without DST', (rule) => {
    const ev = series(rule, '2026-12-01T09:10:00Z', 'UTC');
    expect(seriesEnd(ev)).toBe(lastEnd(ev));
  });

  it.each(['FREQ=DAILY;COUNT=400', 'FREQ=WEEKLY;BYDAY=SU;BYHOUR=2;BYMINUTE=30;COUNT=60', 'FREQ=MONTHLY;BYDAY=-1SU;COUNT=30', 'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=29;COUNT=2'])(
    'is at or after the real end for %j across DST changes',
    (rule) => {
      const ev = series(rule, '2026-12-01T09:10:00Z', 'Europe/Berlin');
      expect(checkRule(ev)).toBeNull();
      expect(seriesEnd(ev)).toBeGreaterThanOrEqual(lastEnd(ev));
      expect(seriesEnd(ev)).toBeLessThanOrEqual(Date.parse(ev.startsAt) + HORIZON_MS + 3_600_000);
    },
  );

  it('is UNTIL for an UNTIL series and open for an endless one', () => {
    expect(seriesEnd(series('FREQ=DAILY;UNTIL=20261205T090000Z'))).toBe(Date.parse('2026-12-05T10:00:00Z'));
    expect(seriesEnd(series('FREQ=DAILY'))).toBe(OPEN_END);
  });
});
