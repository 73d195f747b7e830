/**
 * Round robin's choice of host: the fewest bookings of the type in 30 days, ties to the longest since their last
 * one, then the type's order; a host already holding a meeting with a seat left first. Over many bookings one after
 * another the counts differ by at most one; assignments of one type wait for each other.
 */
import type { Standing } from '../../read-api/bookings/meetings.queries';
import type { FreeHost } from '../../read-api/bookings/slots';
import { oneAtATime, rankHosts } from '../../write-api/bookings/round-robin';

const free = (id: string, seatsLeft: number | null = null): FreeHost => ({
  host: { id, owner: { timeZone: 'UTC', workingHours: [] } },
  seat: seatsLeft === null ? null : { start: 0, end: 1, seatsLeft, eventId: `event-${id}` },
});
const standings = (entries: Array<[string, number, string | null]>) =>
  new Map<string, Standing>(entries.map(([id, count, lastBookedAt]) => [id, { count, lastBookedAt }]));
const ORDER = ['a', 'b', 'c'];

describe('rankHosts', () => {
  it('puts the free host with the fewest bookings first, saying so', () => {
    const ranked = rankHosts([free('a'), free('b'), free('c')], standings([['a', 3, '2026-11-01T00:00:00Z'], ['b', 1, '2026-11-20T00:00:00Z'], ['c', 2, null]]), ORDER);
    expect(ranked.map((r) => [r.free.host.id, r.assignment.reason, r.assignment.bookingsInWindow])).toEqual([
      ['b', 'fewest_bookings', 1], ['c', 'fewest_bookings', 2], ['a', 'fewest_bookings', 3],
    ]);
    expect(ranked[0].assignment).toEqual({ method: 'round_robin', reason: 'fewest_bookings', bookingsInWindow: 1, lastBookedAt: '2026-11-20T00:00:00Z' });
  });

  it('breaks a tie by the longest since the last booking (never booked first), then by the type\'s order', () => {
    const ranked = rankHosts([free('a'), free('b'), free('c')], standings([['a', 2, '2026-11-20T00:00:00Z'], ['b', 2, '2026-11-02T00:00:00Z'], ['c', 2, null]]), ORDER);
    expect(ranked.map((r) => [r.free.host.id, r.assignment.reason])).toEqual([['c', 'longest_since_last'], ['b', 'longest_since_last'], ['a', 'fewest_bookings']]);
    expect(rankHosts([free('b'), free('a')], standings([]), ORDER).map((r) => r.free.host.id)).toEqual(['a', 'b']);
  });

  it('seats a guest with a host who holds a meeting then with a seat left, before anyone else', () => {
    const ranked = rankHosts([free('a'), free('b', 2), free('c', 4)], standings([['a', 0, null], ['b', 9, null], ['c', 9, null]]), ORDER);
    expect(ranked.map((r) => [r.free.host.id, r.assignment.reason])).toEqual([['c', 'joined_slot'], ['b', 'joined_slot'], ['a', 'fewest_bookings']]);
  });

  it('keeps 300 bookings one after another over three hosts within one of each other', () => {
    const counts = new Map(ORDER.map((id) => [id, 0]));
    const last = new Map<string, string | null>(ORDER.map((id) => [id, null]));
    for (let i = 0; i < 300; i++) {
      // Every third booking finds one host busy.
      const hosts = ORDER.filter((_id, k) => i % 3 !== 0 || k !== i % 2).map((id) => free(id));
      const [chosen] = rankHosts(hosts, standings(ORDER.map((id) => [id, counts.get(id)!, last.get(id)!])), ORDER);
      counts.set(chosen.free.host.id, counts.get(chosen.free.host.id)! + 1);
      last.set(chosen.free.host.id, new Date(Date.UTC(2026, 10, 1) + i * 60_000).toISOString());
    }
    const values = [...counts.values()];
    expect(values.reduce((a, b) => a + b)).toBe(300);
    expect(Math.max(...values) - Math.min(...values)).toBeLessThanOrEqual(1);
  });
});

describe('oneAtATime', () => {
  it('runs the work of one key one after another, failures included, and other keys alongside', async () => {
    const log: string[] = [];
    const step = (key: string, name: string, fail = false) => oneAtATime(key, async () => {
      log.push(`${name} start`);
      await new Promise((resolve) => setImmediate(resolve));
      log.push(`${name} end`);
      if (fail) throw new Error(name);
      return name;
    });
    const results = await Promise.allSettled([step('t', 'one', true), step('t', 'two'), step('u', 'other')]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(log.indexOf('one end')).toBeLessThan(log.indexOf('two start'));
    expect(log.indexOf('other start')).toBeLessThan(log.indexOf('one end'));
  });
});
