/**
 * Recurring events over real HTTP: GET /events expands series into occurrences inside [from, to), sorted by start,
 * DST-correct in the event's time zone, each occurrence with seriesId and occurrenceStartsAt; COUNT and UNTIL hold.
 * Contract: addendum.md "Events (calendar items)". The process runs under TZ=America/New_York.
 */
import { signUp, startTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
let base: string;
let c: Client;

beforeAll(async () => {
  svc = await startTestService();
  base = svc.base;
});
afterAll(async () => {
  await svc.stop();
});
// A fresh user per test: series of different tests must not time-conflict with each other.
beforeEach(async () => {
  c = await signUp(base);
});

// ---- helpers -------------------------------------------------------------------------------------------------

interface Occurrence {
  id: string;
  startsAt: string;
  endsAt: string;
  seriesId: string | null;
  occurrenceStartsAt: string | null;
  recurrenceRule: string | null;
  title: string;
}

async function createSeries(body: Record<string, unknown>) {
  const res = await c.call('POST', '/events', { title: 'Series', ...body });
  expect(res.status).toBe(201);
  return res.body.event as Occurrence;
}

async function occurrences(from: string, to: string): Promise<Occurrence[]> {
  const res = await c.call('GET', `/events?from=${encodeURIComponent(from)}&to=${encodeURIComponent(to)}`);
  expect(res.status).toBe(200);
  return res.body.events;
}

const iso = (s: string) => new Date(s).toISOString();
const starts = (list: Occurrence[]) => list.map((o) => iso(o.startsAt));

/** Wall-clock weekday and time of an instant in a zone, e.g. "Mon 09:00". */
function wallClock(instant: string, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-US', {
    timeZone, weekday: 'short', hour: '2-digit', minute: '2-digit', hourCycle: 'h23',
  }).formatToParts(new Date(instant));
  const get = (type: string) => parts.find((p) => p.type === type)!.value;
  return `${get('weekday')} ${get('hour')}:${get('minute')}`;
}

function expectOccurrencesOf(list: Occurrence[], series: Occurrence, durationMs: number): void {
  for (const o of list) {
    expect(o.id).toBe(series.id);
    expect(o.seriesId).toBe(series.id);
    expect(o.occurrenceStartsAt).not.toBeNull();
    expect(iso(o.occurrenceStartsAt!)).toBe(iso(o.startsAt));
    expect(Date.parse(o.endsAt) - Date.parse(o.startsAt)).toBe(durationMs);
    expect(o.recurrenceRule).toBe(series.recurrenceRule);
  }
}

// ---- DST -----------------------------------------------------------------------------------------------------

describe('DST-correct expansion', () => {
  it('a daily 09:00 Europe/Berlin series is 07:00Z before the end of DST (2026-10-25) and 08:00Z after', async () => {
    const series = await createSeries({
      startsAt: '2026-10-22T09:00:00+02:00', endsAt: '2026-10-22T09:30:00+02:00', timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=DAILY',
    });
    const list = await occurrences('2026-10-22T00:00:00Z', '2026-10-29T00:00:00Z');
    expect(starts(list)).toEqual([
      '2026-10-22T07:00:00.000Z',
      '2026-10-23T07:00:00.000Z',
      '2026-10-24T07:00:00.000Z',
      '2026-10-25T08:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
      '2026-10-27T08:00:00.000Z',
      '2026-10-28T08:00:00.000Z',
    ]);
    expectOccurrencesOf(list, series, 30 * 60_000);
    for (const o of list) expect(wallClock(o.startsAt, 'Europe/Berlin')).toMatch(/ 09:00$/);
  });

  it('the Berlin series is also right when the range starts after the change', async () => {
    await createSeries({
      startsAt: '2026-10-20T07:00:00Z', endsAt: '2026-10-20T08:00:00Z', timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=DAILY',
    });
    const list = await occurrences('2026-11-10T00:00:00Z', '2026-11-12T00:00:00Z');
    expect(starts(list)).toEqual(['2026-11-10T08:00:00.000Z', '2026-11-11T08:00:00.000Z']);
  });

  it('a weekly America/New_York series keeps 09:00 local across 2026-11-01 and across the March 2027 change', async () => {
    // Monday 2026-10-19 09:00 EDT = 13:00Z.
    const series = await createSeries({
      startsAt: '2026-10-19T13:00:00Z', endsAt: '2026-10-19T14:00:00Z', timeZone: 'America/New_York', recurrenceRule: 'FREQ=WEEKLY',
    });
    const autumn = await occurrences('2026-10-19T00:00:00Z', '2026-11-16T00:00:00Z');
    expect(starts(autumn)).toEqual([
      '2026-10-19T13:00:00.000Z',
      '2026-10-26T13:00:00.000Z',
      '2026-11-02T14:00:00.000Z',
      '2026-11-09T14:00:00.000Z',
    ]);
    expectOccurrencesOf(autumn, series, 3_600_000);

    // DST starts 2027-03-14.
    const spring = await occurrences('2027-03-01T00:00:00Z', '2027-03-23T00:00:00Z');
    expect(starts(spring)).toEqual([
      '2027-03-01T14:00:00.000Z',
      '2027-03-08T14:00:00.000Z',
      '2027-03-15T13:00:00.000Z',
      '2027-03-22T13:00:00.000Z',
    ]);
    expectOccurrencesOf(spring, series, 3_600_000);

    const all = await occurrences('2026-10-19T00:00:00Z', '2027-03-23T00:00:00Z');
    expect(all.length).toBe(23);
    for (const o of all) expect(wallClock(o.startsAt, 'America/New_York')).toBe('Mon 09:00');
  });

  it('a weekly BYDAY series in Europe/Berlin stays at 18:00 local on each listed day across the change', async () => {
    // Monday 2026-10-19 18:00 CEST = 16:00Z; Mondays and Wednesdays.
    const series = await createSeries({
      startsAt: '2026-10-19T16:00:00Z', endsAt: '2026-10-19T17:00:00Z', timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=WEEKLY;BYDAY=MO,WE',
    });
    const list = await occurrences('2026-10-19T00:00:00Z', '2026-11-02T00:00:00Z');
    expect(starts(list)).toEqual([
      '2026-10-19T16:00:00.000Z',
      '2026-10-21T16:00:00.000Z',
      '2026-10-26T17:00:00.000Z',
      '2026-10-28T17:00:00.000Z',
    ]);
    expectOccurrencesOf(list, series, 3_600_000);
  });
});

describe('DST-correct conflicts', () => {
  it('a single event conflicts with the occurrence where it really is after the change, not where UTC arithmetic puts it', async () => {
    // Mondays 09:00 New York from 2027-03-01 (EST: 14:00Z); from 2027-03-15 (EDT) it is 13:00Z.
    const series = await createSeries({
      startsAt: '2027-03-01T14:00:00Z', endsAt: '2027-03-01T14:30:00Z', timeZone: 'America/New_York', recurrenceRule: 'FREQ=WEEKLY',
    });
    const clash = await c.call('POST', '/events', { title: 'Clash', startsAt: '2027-03-15T13:00:00Z', endsAt: '2027-03-15T13:30:00Z' });
    expect(clash.status).toBe(409);
    expect(clash.body.error.code).toBe('time_conflict');
    expect(clash.body.error.details.conflicts.map((x: { id: string }) => x.id)).toEqual([series.id]);
    expect(iso(clash.body.error.details.conflicts[0].startsAt)).toBe('2027-03-15T13:00:00.000Z');

    const free = await c.call('POST', '/events', { title: 'Free', startsAt: '2027-03-15T14:00:00Z', endsAt: '2027-03-15T14:30:00Z' });
    expect(free.status).toBe(201);
  });

  it('a new series conflicts with a single event hit by an occurrence after the change', async () => {
    const single = await c.call('POST', '/events', { title: 'Single', startsAt: '2027-03-22T13:15:00Z', endsAt: '2027-03-22T13:45:00Z' });
    expect(single.status).toBe(201);
    const res = await c.call('POST', '/events', {
      title: 'Series', startsAt: '2027-03-01T14:00:00Z', endsAt: '2027-03-01T14:30:00Z', timeZone: 'America/New_York', recurrenceRule: 'FREQ=WEEKLY',
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('time_conflict');
    expect(res.body.error.details.conflicts.map((x: { id: string }) => x.id)).toEqual([single.body.event.id]);
  });
});

// ---- COUNT / UNTIL -------------------------------------------------------------------------------------------

describe('COUNT and UNTIL', () => {
  it('COUNT=3 gives exactly three occurrences, and none in a later range', async () => {
    const series = await createSeries({
      startsAt: '2027-01-04T10:00:00Z', endsAt: '2027-01-04T11:00:00Z', timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY;COUNT=3',
    });
    const list = await occurrences('2027-01-01T00:00:00Z', '2027-02-01T00:00:00Z');
    expect(starts(list)).toEqual(['2027-01-04T10:00:00.000Z', '2027-01-05T10:00:00.000Z', '2027-01-06T10:00:00.000Z']);
    expectOccurrencesOf(list, series, 3_600_000);
    expect(await occurrences('2027-01-07T00:00:00Z', '2027-03-01T00:00:00Z')).toEqual([]);
  });

  it('a range in the middle of a COUNT series gets only the occurrences inside it', async () => {
    await createSeries({
      startsAt: '2027-01-04T10:00:00Z', endsAt: '2027-01-04T11:00:00Z', timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY;COUNT=5',
    });
    const list = await occurrences('2027-01-05T00:00:00Z', '2027-01-07T00:00:00Z');
    expect(starts(list)).toEqual(['2027-01-05T10:00:00.000Z', '2027-01-06T10:00:00.000Z']);
  });

  it('UNTIL is respected (inclusive of an occurrence starting exactly at UNTIL)', async () => {
    const series = await createSeries({
      startsAt: '2027-02-01T09:00:00Z', endsAt: '2027-02-01T09:45:00Z', timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY;UNTIL=20270205T090000Z',
    });
    const list = await occurrences('2027-01-25T00:00:00Z', '2027-03-01T00:00:00Z');
    expect(starts(list)).toEqual([
      '2027-02-01T09:00:00.000Z',
      '2027-02-02T09:00:00.000Z',
      '2027-02-03T09:00:00.000Z',
      '2027-02-04T09:00:00.000Z',
      '2027-02-05T09:00:00.000Z',
    ]);
    expectOccurrencesOf(list, series, 45 * 60_000);
  });

  it('UNTIL with a zoned series across the DST change', async () => {
    await createSeries({
      startsAt: '2026-10-23T09:00:00+02:00', endsAt: '2026-10-23T10:00:00+02:00', timeZone: 'Europe/Berlin',
      recurrenceRule: 'FREQ=DAILY;UNTIL=20261026T235959Z',
    });
    const list = await occurrences('2026-10-01T00:00:00Z', '2026-11-30T00:00:00Z');
    expect(starts(list)).toEqual([
      '2026-10-23T07:00:00.000Z',
      '2026-10-24T07:00:00.000Z',
      '2026-10-25T08:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
    ]);
  });
});

// ---- occurrence fields ---------------------------------------------------------------------------------------

describe('occurrence fields', () => {
  it('non-recurring events have seriesId and occurrenceStartsAt null; occurrences and singles sort together', async () => {
    const series = await createSeries({
      startsAt: '2027-04-05T08:00:00Z', endsAt: '2027-04-05T08:30:00Z', timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY;COUNT=3',
    });
    const single = await c.call('POST', '/events', { title: 'Single', startsAt: '2027-04-06T07:00:00Z', endsAt: '2027-04-06T07:30:00Z' });
    expect(single.status).toBe(201);

    const list = await occurrences('2027-04-05T00:00:00Z', '2027-04-08T00:00:00Z');
    expect(list.map((o) => [iso(o.startsAt), o.seriesId])).toEqual([
      ['2027-04-05T08:00:00.000Z', series.id],
      ['2027-04-06T07:00:00.000Z', null],
      ['2027-04-06T08:00:00.000Z', series.id],
      ['2027-04-07T08:00:00.000Z', series.id],
    ]);
    const plain = list[1];
    expect(plain).toMatchObject({ id: single.body.event.id, seriesId: null, occurrenceStartsAt: null, recurrenceRule: null });
  });

  it('GET /events/{id} of a series returns the series itself (first occurrence times, the rule)', async () => {
    const series = await createSeries({
      startsAt: '2027-05-03T12:00:00Z', endsAt: '2027-05-03T13:00:00Z', timeZone: 'UTC', recurrenceRule: 'FREQ=WEEKLY;COUNT=4',
    });
    const res = await c.call('GET', `/events/${series.id}`);
    expect(res.status).toBe(200);
    expect(res.body.event).toMatchObject({ id: series.id, recurrenceRule: 'FREQ=WEEKLY;COUNT=4' });
    expect(iso(res.body.event.startsAt)).toBe('2027-05-03T12:00:00.000Z');
  });

  it('PATCH of a series edits every occurrence', async () => {
    const series = await createSeries({
      startsAt: '2027-06-07T12:00:00Z', endsAt: '2027-06-07T13:00:00Z', timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY;COUNT=3',
    });
    const res = await c.call('PATCH', `/events/${series.id}`, { title: 'Renamed series' });
    expect(res.status).toBe(200);
    const list = await occurrences('2027-06-01T00:00:00Z', '2027-06-30T00:00:00Z');
    expect(list.map((o) => o.title)).toEqual(['Renamed series', 'Renamed series', 'Renamed series']);
  });

  it('a cancelled series disappears with all its occurrences', async () => {
    const series = await createSeries({
      startsAt: '2027-07-05T12:00:00Z', endsAt: '2027-07-05T13:00:00Z', timeZone: 'UTC', recurrenceRule: 'FREQ=DAILY',
    });
    expect((await occurrences('2027-07-05T00:00:00Z', '2027-07-10T00:00:00Z')).length).toBe(5);
    expect((await c.call('DELETE', `/events/${series.id}`)).status).toBe(204);
    expect(await occurrences('2027-07-05T00:00:00Z', '2027-07-10T00:00:00Z')).toEqual([]);
  });
});
