/**
 * Wall clock to instants in the owner's zone, across DST changes in three hemispheres/rules, whatever the process
 * zone (the suite runs with TZ=America/New_York). Expected instants are worked out by hand from each zone's rules.
 */
import { epochAt, isoWeekday, localDate, localDays, localMinute } from '../../services/time/local-time';
import { DEFAULT_WORKING_HOURS, localHoursIn } from '../../services/availability/weekly-hours';
import { wallClock, wallClockByIntl } from '../../services/time/zone';

const at = (iso: string) => Date.parse(iso);
const HOUR = 3_600_000;

it('runs under a process zone other than UTC', () => {
  expect(process.env.TZ).toBeDefined();
  expect(process.env.TZ).not.toBe('UTC');
});

describe('epochAt: the instant a local date and minute stand for', () => {
  it.each([
    ['Europe/Berlin', '2026-03-28', 9 * 60, '2026-03-28T08:00:00Z', 'winter time, the day before the change'],
    ['Europe/Berlin', '2026-03-29', 9 * 60, '2026-03-29T07:00:00Z', 'summer time, the day of the change'],
    ['Europe/Berlin', '2026-03-29', 150, '2026-03-29T01:30:00Z', '02:30 does not exist: lands on 03:30 CEST'],
    ['Europe/Berlin', '2026-10-25', 150, '2026-10-25T00:30:00Z', '02:30 happens twice: the earlier (CEST)'],
    ['Europe/Berlin', '2026-03-29', 1440, '2026-03-29T22:00:00Z', '1440 is the next midnight'],
    ['America/New_York', '2026-03-06', 9 * 60, '2026-03-06T14:00:00Z', 'EST'],
    ['America/New_York', '2026-03-09', 9 * 60, '2026-03-09T13:00:00Z', 'EDT'],
    ['America/New_York', '2026-03-08', 150, '2026-03-08T07:30:00Z', 'gap: 03:30 EDT'],
    ['America/New_York', '2026-11-01', 90, '2026-11-01T05:30:00Z', 'fold: 01:30 EDT, the earlier'],
    ['Australia/Sydney', '2026-04-03', 9 * 60, '2026-04-02T22:00:00Z', 'AEDT (+11)'],
    ['Australia/Sydney', '2026-04-06', 9 * 60, '2026-04-05T23:00:00Z', 'AEST (+10)'],
    ['Australia/Sydney', '2026-04-05', 150, '2026-04-04T15:30:00Z', 'fold in April: 02:30 AEDT'],
    ['Australia/Sydney', '2026-10-04', 150, '2026-10-03T16:30:00Z', 'gap in October: 03:30 AEDT'],
    ['Asia/Kolkata', '2026-03-02', 9 * 60, '2026-03-02T03:30:00Z', 'a half-hour offset'],
  ])('%s %s minute %i -> %s (%s)', (zone, date, minute, expected) => {
    expect(new Date(epochAt(date, minute, zone)).toISOString()).toBe(new Date(expected).toISOString());
  });
});

describe('local days are 23 or 25 hours long on change days', () => {
  it.each([
    ['Europe/Berlin', '2026-03-29', 23],
    ['Europe/Berlin', '2026-10-25', 25],
    ['America/New_York', '2026-03-08', 23],
    ['America/New_York', '2026-11-01', 25],
    ['Australia/Sydney', '2026-04-05', 25],
    ['Australia/Sydney', '2026-10-04', 23],
    ['Australia/Sydney', '2026-10-05', 24],
  ])('%s %s has %i hours', (zone, date, hours) => {
    const [day] = localDays(date, 1, zone);
    expect((day.end - day.start) / HOUR).toBe(hours);
  });

  it('consecutive days touch and carry their dates', () => {
    const days = localDays('2026-10-24', 3, 'Europe/Berlin');
    expect(days.map((d) => d.date)).toEqual(['2026-10-24', '2026-10-25', '2026-10-26']);
    expect(days[1].start).toBe(days[0].end);
    expect(days[2].start).toBe(days[1].end);
    expect(new Date(days[0].start).toISOString()).toBe('2026-10-23T22:00:00.000Z');
  });
});

describe('reading instants in a zone', () => {
  it('gives the local date, minute and ISO weekday of the owner, not of the process', () => {
    const instant = at('2026-03-02T23:30:00Z'); // Monday evening in New York, Tuesday morning in Sydney
    expect(localDate(instant, 'America/New_York')).toBe('2026-03-02');
    expect(localDate(instant, 'Australia/Sydney')).toBe('2026-03-03');
    expect(localMinute(instant, 'Australia/Sydney')).toBe(10 * 60 + 30);
    expect(isoWeekday('2026-03-02')).toBe(1);
    expect(isoWeekday('2026-03-08')).toBe(7);
  });
});

describe('working hours keep their local times across a change', () => {
  const show = (zone: string, from: string, to: string) =>
    localHoursIn({ start: at(from), end: at(to) }, DEFAULT_WORKING_HOURS, zone).map((i) => `${new Date(i.start).toISOString()}/${new Date(i.end).toISOString()}`);

  it.each([
    ['Europe/Berlin', '2026-03-26T23:00:00Z', '2026-03-30T22:00:00Z', ['2026-03-27T08:00:00.000Z/2026-03-27T16:00:00.000Z', '2026-03-30T07:00:00.000Z/2026-03-30T15:00:00.000Z']],
    ['America/New_York', '2026-10-30T04:00:00Z', '2026-11-03T05:00:00Z', ['2026-10-30T13:00:00.000Z/2026-10-30T21:00:00.000Z', '2026-11-02T14:00:00.000Z/2026-11-02T22:00:00.000Z']],
    ['Australia/Sydney', '2026-10-01T14:00:00Z', '2026-10-05T13:00:00Z', ['2026-10-01T23:00:00.000Z/2026-10-02T07:00:00.000Z', '2026-10-04T22:00:00.000Z/2026-10-05T06:00:00.000Z']],
  ])('%s', (zone, from, to, expected) => {
    expect(show(zone, from, to)).toEqual(expected);
  });
});

describe('the memoized wall clock agrees with Intl', () => {
  const zones = [
    'Europe/Berlin', 'America/New_York', 'Australia/Lord_Howe', 'Asia/Kathmandu', 'Africa/Casablanca', 'Europe/Dublin',
    'Pacific/Apia', 'America/St_Johns', 'Europe/Amsterdam', 'Antarctica/Troll', 'UTC',
  ];
  it.each(zones)('%s: 3,000 instants from year 1800 to 2100, plus every hour around the 2026 changes', (zone) => {
    let seed = 42;
    const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31) / 2 ** 31;
    const from = Date.UTC(1800, 0, 1);
    const to = Date.UTC(2100, 0, 1);
    const instants = Array.from({ length: 3_000 }, () => Math.floor(from + next() * (to - from)));
    for (let h = 0; h < 24 * 366; h += 1) instants.push(Date.UTC(2026, 0, 1) + h * HOUR + 59_999);
    for (const t of instants) expect([t, wallClock(t, zone)]).toEqual([t, wallClockByIntl(t, zone)]);
  });

  it('also at both ends of the Date range and past year 9999', () => {
    for (const t of [Date.UTC(10_000, 0, 1), Date.UTC(-1, 5, 1), 8.64e15 - 1, -8.64e15 + 1]) {
      expect(wallClock(t, 'Asia/Tokyo')).toEqual(wallClockByIntl(t, 'Asia/Tokyo'));
    }
  });
});
