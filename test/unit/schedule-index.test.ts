import type { Event } from '../../contracts/events';
import { ScheduleIndex } from '../../write-api/schedule/conflicts';

const ev = (id: string, start: string, end: string, extra: Partial<Event> = {}) =>
  ({ id, startsAt: start, endsAt: end, status: 'confirmed', recurrenceRule: null, ...extra }) as Event;
const ids = (index: ScheduleIndex, from: string, to: string) => [...index.near(Date.parse(from), Date.parse(to))].map((e) => e.id);

describe('schedule index', () => {
  it('finds only single events overlapping a span, plus every series', () => {
    const index = new ScheduleIndex();
    index.put(ev('long', '2026-12-01T00:00:00Z', '2026-12-03T00:00:00Z'));
    index.put(ev('a', '2026-12-02T09:00:00Z', '2026-12-02T10:00:00Z'));
    index.put(ev('b', '2026-12-02T10:00:00Z', '2026-12-02T11:00:00Z'));
    index.put(ev('later', '2026-12-05T09:00:00Z', '2026-12-05T10:00:00Z'));
    index.put(ev('weekly', '2026-01-01T09:00:00Z', '2026-01-01T10:00:00Z', { recurrenceRule: 'FREQ=WEEKLY' }));
    expect(ids(index, '2026-12-02T09:30:00Z', '2026-12-02T10:00:00Z').sort()).toEqual(['a', 'long', 'weekly']);
    expect(ids(index, '2026-12-04T00:00:00Z', '2026-12-04T01:00:00Z')).toEqual(['weekly']);
  });

  it('moves an updated event and forgets a cancelled one', () => {
    const index = new ScheduleIndex();
    index.put(ev('a', '2026-12-02T09:00:00Z', '2026-12-02T10:00:00Z'));
    index.put(ev('a', '2026-12-09T09:00:00Z', '2026-12-09T10:00:00Z'));
    expect(ids(index, '2026-12-02T00:00:00Z', '2026-12-03T00:00:00Z')).toEqual([]);
    expect(ids(index, '2026-12-09T00:00:00Z', '2026-12-10T00:00:00Z')).toEqual(['a']);
    index.put(ev('a', '2026-12-09T09:00:00Z', '2026-12-09T10:00:00Z', { status: 'cancelled' }));
    expect(ids(index, '2026-12-09T00:00:00Z', '2026-12-10T00:00:00Z')).toEqual([]);
  });
});
