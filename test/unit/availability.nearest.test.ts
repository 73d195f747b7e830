/** nearestStart: the free start nearest a wanted one (what GET /routines/conflicts suggests), on whole minutes. */
import { nearestStart } from '../../services/availability/nearest';
import { freeWindows } from '../../services/availability/timeline';
import type { Blocked, Interval } from '../../services/availability/types';

const m = (minutes: number) => minutes * 60_000;
const day = { start: 0, end: m(1440) };
const busy = (...spans: Array<[number, number]>): Blocked[] =>
  spans.map(([start, end]) => ({ start, end, reason: { type: 'event', eventId: `${start}` } }));
const nearest = (range: Interval, duration: number, blocked: Blocked[], preferred: number) =>
  nearestStart(freeWindows(range, blocked), duration, preferred);

describe('nearestStart', () => {
  it.each([
    // Wanted 07:00-07:45. Busy 06:30-08:00: 08:00 (60 min later) beats 05:45 (75 earlier); busy 06:50-08:00: 06:05 wins.
    ['a later start when it is nearer', day, 45, busy([m(390), m(480)]), m(480)],
    ['an earlier start when it is nearer', day, 45, busy([m(410), m(480)]), m(365)],
    ['the wanted start itself when it is free', day, 45, busy([m(600), m(700)]), m(420)],
    ['a start inside the range, clear of every busy span', { start: m(360), end: m(540) }, 30, busy([m(360), m(470)], [m(500), m(600)]), m(470)],
    ['nothing when no free window is long enough', { start: m(360), end: m(540) }, 45, busy([m(360), m(470)], [m(500), m(600)]), null],
    ['a whole minute after a busy span that ends between minutes', day, 30, busy([m(400), m(450) + 20_000]), m(451)],
  ])('takes %s', (_label, range, minutes, blocked, expected) => {
    expect(nearest(range, m(minutes), blocked, m(420))).toBe(expected);
  });

  it('takes the earlier of two equally near starts', () => {
    expect(nearest(day, m(60), busy([m(390), m(510)]), m(420))).toBe(m(330));
    expect(nearestStart([{ start: m(300), end: m(390) }, { start: m(450), end: m(600) }], m(60), m(390))).toBe(m(330));
  });
});
