/**
 * Ranking free stretches for a purpose and a preferred part of the day, and cutting free windows into bookable
 * slots on the owner's local clock (what public booking builds on).
 */
import { rankFree, type DayPeriod, type Purpose } from '../../services/availability/ranking';
import { bookableSlots } from '../../services/availability/slots';

const at = (iso: string) => Date.parse(iso);
const short = (ms: number) => new Date(ms).toISOString().slice(11, 16);

// Monday 2 March 2026 in Berlin (UTC+1): A 09:00-09:30, B 10:00-12:00, D 13:00-13:20, C 15:00-17:00 local.
const stretches = {
  A: { start: at('2026-03-02T08:00:00Z'), end: at('2026-03-02T08:30:00Z') },
  B: { start: at('2026-03-02T09:00:00Z'), end: at('2026-03-02T11:00:00Z') },
  D: { start: at('2026-03-02T12:00:00Z'), end: at('2026-03-02T12:20:00Z') },
  C: { start: at('2026-03-02T14:00:00Z'), end: at('2026-03-02T16:00:00Z') },
};
const free = Object.values(stretches);
const nameOf = (start: number) => Object.entries(stretches).find(([, s]) => s.start === start)![0];

describe('rankFree', () => {
  it.each<[Purpose, DayPeriod | undefined, string[]]>([
    ['meeting', undefined, ['A', 'B', 'C', 'D']], // long enough first; shorter first keeps long stretches whole
    ['focus', undefined, ['B', 'C', 'A', 'D']], // an hour or more first; longer first
    ['focus', 'afternoon', ['C', 'B', 'D', 'A']], // among the too short, D has afternoon time
    ['meeting', 'afternoon', ['C', 'A', 'B', 'D']], // D is in the afternoon but too short for a meeting
    ['meeting', 'morning', ['A', 'B', 'C', 'D']],
    ['focus', 'evening', ['B', 'C', 'A', 'D']], // nothing in the evening: the preference changes nothing
  ])('%s, preferred %s', (purpose, preferred, order) => {
    const ranked = rankFree(free, { purpose, preferred, timeZone: 'Europe/Berlin' });
    expect(ranked.map((r) => nameOf(r.start))).toEqual(order);
    expect(ranked.map((r) => r.rank)).toEqual([1, 2, 3, 4]);
  });

  it('reports minutes, preferred minutes and the two tests behind the order', () => {
    const ranked = rankFree(free, { purpose: 'focus', preferred: 'morning', timeZone: 'Europe/Berlin' });
    expect(ranked.map(({ start, minutes, preferredMinutes, fitsPurpose, inPreferred }) => [nameOf(start), minutes, preferredMinutes, fitsPurpose, inPreferred])).toEqual([
      ['B', 120, 120, true, true],
      ['C', 120, 0, true, false],
      ['A', 30, 30, false, false],
      ['D', 20, 0, false, false],
    ]);
  });

  it('gives focus the stretch with more time in the preferred part of the day, though shorter', () => {
    const late = { start: at('2026-03-02T09:00:00Z'), end: at('2026-03-02T12:00:00Z') }; // 10:00-13:00: 60 minutes of afternoon
    const ranked = rankFree([late, stretches.C], { purpose: 'focus', preferred: 'afternoon', timeZone: 'Europe/Berlin' });
    expect(ranked.map((r) => [r.start, r.preferredMinutes])).toEqual([[stretches.C.start, 120], [late.start, 60]]);
  });

  it('reads the parts of the day in the owner\'s zone', () => {
    // 13:00-15:00 UTC is morning in New York (08:00-10:00 EST) and afternoon in Berlin (14:00-16:00 CET).
    const stretch = [{ start: at('2026-03-02T13:00:00Z'), end: at('2026-03-02T15:00:00Z') }];
    expect(rankFree(stretch, { purpose: 'focus', preferred: 'morning', timeZone: 'America/New_York' })[0].preferredMinutes).toBe(120);
    expect(rankFree(stretch, { purpose: 'focus', preferred: 'morning', timeZone: 'Europe/Berlin' })[0].preferredMinutes).toBe(0);
  });
});

describe('bookableSlots', () => {
  it('aligns starts on the owner\'s local clock, half-hour offsets included', () => {
    // 09:10:27-10:30 in Kolkata (UTC+05:30): 30-minute slots start at 09:30 and 10:00 local.
    const window = [{ start: at('2026-03-02T03:40:27.500Z'), end: at('2026-03-02T05:00:00Z') }];
    const slots = bookableSlots(window, { durationMinutes: 30, stepMinutes: 30, timeZone: 'Asia/Kolkata', max: 100 });
    expect(slots.map((s) => `${short(s.start)}-${short(s.end)}`)).toEqual(['04:00-04:30', '04:30-05:00']);
  });

  it('steps through each window and keeps only slots that fit', () => {
    const windows = [
      { start: at('2026-03-02T08:00:00Z'), end: at('2026-03-02T09:30:00Z') },
      { start: at('2026-03-02T10:00:00Z'), end: at('2026-03-02T10:40:00Z') },
    ];
    const slots = bookableSlots(windows, { durationMinutes: 45, stepMinutes: 15, timeZone: 'Europe/Berlin', max: 100 });
    expect(slots.map((s) => short(s.start))).toEqual(['08:00', '08:15', '08:30', '08:45']);
    expect(bookableSlots(windows, { durationMinutes: 45, stepMinutes: 15, timeZone: 'Europe/Berlin', max: 2 })).toHaveLength(2);
  });
});
