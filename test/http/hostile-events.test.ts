/**
 * One user's hostile events must never stall anyone's read side (issue 8, items 1, 2 and 4): costly or endless
 * recurrence rules are refused at the write with nothing stored; an event a projection cannot apply is dead-lettered
 * (visible in /admin, /metrics and /readyz) and the projection moves on; GET /events answers in pages, every
 * occurrence exactly once, and a page of a heavy series stays a page.
 */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { EVENTS_PAGE_BYTES } from '../../contracts/events';
import { newId } from '../../services/ids';
import { request, signUp, useTestService, type Client, type TestService } from '../support/service';

const ADMIN_TOKEN = 'admin-token-for-the-hostile-events-test';
let svc: TestService;
let base: string;
useTestService((s) => {
  svc = s;
  base = s.base;
}, { ADMIN_TOKEN, RATE_LIMIT_PER_CREDENTIAL: '100000' });

const HOUR = 3_600_000;
const run = promisify(execFile);
const iso = (ms: number) => new Date(ms).toISOString();
const at = (text: string) => Date.parse(text);

async function head(): Promise<number> {
  return svc.service.context.events.headPosition();
}

/** Another user writes an event and reads it back at once: the read side is not stalled. */
async function anotherUserWritesAndReads(startsAt = '2027-03-03T10:00:00Z'): Promise<void> {
  const other = await signUp(base);
  const created = await other.call('POST', '/events', { title: 'Unrelated', startsAt, endsAt: iso(at(startsAt) + HOUR) });
  expect(created.status).toBe(201);
  expect((await other.call('GET', `/events/${created.body.event.id}`)).status).toBe(200);
  const listed = await other.call('GET', `/events?from=${encodeURIComponent(startsAt)}&to=${encodeURIComponent(iso(at(startsAt) + HOUR))}`);
  expect(listed.body.events.map((e: { id: string }) => e.id)).toEqual([created.body.event.id]);
}

describe('hostile recurrence rules are refused at the write', () => {
  const sixty = Array.from({ length: 60 }, (_, i) => i).join(',');
  it.each([
    'FREQ=HOURLY;COUNT=1000000000',
    'FREQ=DAILY;UNTIL=99991231T000000Z',
    'FREQ=YEARLY;COUNT=100001',
    'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=2',
    'FREQ=DAILY;FREQ=MINUTELY;COUNT=50000',
    `FREQ=HOURLY;BYMINUTE=${sixty};BYSECOND=${sixty}`,
    'FREQ=HOURLY;BYMINUTE=0,30',
    'FREQ=MONTHLY;BYMONTH=4;BYMONTHDAY=31',
  ].map((rule) => [rule.length > 60 ? `${rule.slice(0, 60)}...` : rule, rule]))('%s: 400, nothing written, and another user reads their write right after', async (_label, rule) => {
    const user = await signUp(base);
    const before = await head();
    const res = await user.call('POST', '/events', {
      title: 'Hostile', startsAt: '2027-01-04T09:00:00Z', endsAt: '2027-01-04T10:00:00Z', recurrenceRule: rule,
    });
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('invalid_request');
    expect(res.body.error.details.issues).toEqual([{ path: 'recurrenceRule', message: expect.any(String) }]);
    expect(await head()).toBe(before);
    await anotherUserWritesAndReads();
  });

  it('refuses a hostile rule in a PATCH too, leaving the series as it was', async () => {
    const user = await signUp(base);
    const created = await user.call('POST', '/events', {
      title: 'Weekly', startsAt: '2027-01-04T09:00:00Z', endsAt: '2027-01-04T10:00:00Z', recurrenceRule: 'FREQ=WEEKLY',
    });
    expect(created.status).toBe(201);
    const res = await user.call('PATCH', `/events/${created.body.event.id}`, { recurrenceRule: 'FREQ=WEEKLY;COUNT=5;COUNT=1000000' });
    expect(res.status).toBe(400);
    expect(res.body.error.details.issues).toEqual([{ path: 'recurrenceRule', message: 'COUNT is given twice' }]);
    expect((await user.call('GET', `/events/${created.body.event.id}`)).body.event).toMatchObject({ recurrenceRule: 'FREQ=WEEKLY', version: 1 });
  });
});

describe('an event a projection cannot apply', () => {
  const admin = { authorization: `Bearer ${ADMIN_TOKEN}` };

  it('is dead-lettered, shown in /admin, /metrics and /readyz, and nothing else stops', async () => {
    const root = svc.service.url!;
    // As a projection bug would meet it: an event the schedule projection throws on (an impossible start).
    const user = await signUp(base);
    const poison = {
      id: newId(), spaceId: newId(), calendarId: newId(), title: 'Poison', description: null, location: null, meetingUrl: null,
      kind: 'meeting', startsAt: 'not a time', endsAt: 'not a time', timeZone: 'UTC', allDay: false, busy: true,
      recurrenceRule: 'FREQ=DAILY', resources: [], attendees: [], allowOverlap: false, status: 'confirmed', createdBy: user.userId,
      createdAt: '2027-01-01T00:00:00Z', updatedAt: '2027-01-01T00:00:00Z', deletedAt: null, version: 1,
    };
    const metadata = { userId: user.userId, correlationId: newId(), causationId: newId(), occurredAt: new Date().toISOString(), schemaVersion: 1 };
    const { position } = await svc.service.context.events.append(`space-${poison.spaceId}`, [{ id: newId(), type: 'event.created', data: poison, metadata }], 'no_stream');

    await anotherUserWritesAndReads('2027-05-05T10:00:00Z'); // its write waits for the projections: they moved past

    const status = await request(root, 'GET', '/admin/projections', undefined, admin);
    expect(status.status).toBe(200);
    const schedule = status.body.projections.find((p: { name: string }) => p.name === 'schedule');
    expect(schedule.deadLetters.count).toBe(1);
    expect(schedule.deadLetters.latest).toEqual([
      expect.objectContaining({ projection: 'schedule', position, type: 'event.created', error: expect.stringMatching(/invalid time value/i) }),
    ]);
    expect(schedule.position).toBeGreaterThan(position);

    const metrics = await fetch(`${root}/metrics`);
    expect(metrics.status).toBe(200);
    expect(metrics.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await metrics.text();
    expect(text).toContain('calendar_projection_dead_letters{projection="schedule"} 1');
    expect(text).toMatch(/calendar_projection_lag_seconds\{projection="schedule"\} \d/);
    expect(text).toMatch(/calendar_projection_position\{projection="inbox"\} \d+/);

    // The operator's CLI prints the same status (it calls /admin with ADMIN_TOKEN; the service runs in this process).
    const cli = await run(process.execPath, [path.resolve(__dirname, '../../dist/services/cli/program.js'), 'projections', 'status', '--json'], {
      env: { ...process.env, ADMIN_TOKEN, ADMIN_URL: root },
    });
    const printed = JSON.parse(cli.stdout).projections.find((p: { name: string }) => p.name === 'schedule');
    expect(printed.deadLetters).toMatchObject({ count: 1, latest: [expect.objectContaining({ position, type: 'event.created' })] });

    const ready = await request(root, 'GET', '/readyz');
    expect(ready.status).toBe(200);
    expect(ready.body).toMatchObject({ status: 'ready', problems: [], projections: { schedule: { deadLetters: 1, lagSeconds: expect.any(Number) } } });
  });
});

interface Item {
  id: string;
  startsAt: string;
  seriesId: string | null;
  title: string;
  description: string | null;
  attendees: unknown[];
}

async function allPages(user: Client, from: string, to: string, limit: number): Promise<Item[][]> {
  const pages: Item[][] = [];
  let token: string | null = null;
  do {
    const query: string = `from=${from}&to=${to}&limit=${limit}${token ? `&pageToken=${token}` : ''}`;
    const res = await user.call('GET', `/events?${query}`);
    expect(res.status).toBe(200);
    pages.push(res.body.events);
    token = res.body.nextPageToken;
    expect(pages.length).toBeLessThan(100);
  } while (token);
  return pages;
}

describe('GET /events pages', () => {
  it('lists every occurrence and single event exactly once across pages, in a stable (start, id) order', async () => {
    const user = await signUp(base);
    const post = async (body: Record<string, unknown>) => {
      const res = await user.call('POST', '/events', { busy: false, ...body });
      expect(res.status).toBe(201);
      return res.body.event.id as string;
    };
    const hourly = await post({ title: 'Hourly', startsAt: '2027-02-01T00:00:00Z', endsAt: '2027-02-01T00:30:00Z', recurrenceRule: 'FREQ=HOURLY' });
    const daily = await post({ title: 'Daily', startsAt: '2027-02-01T06:00:00Z', endsAt: '2027-02-01T07:00:00Z', recurrenceRule: 'FREQ=DAILY' });
    const singles = [
      await post({ title: 'Tie with both series', startsAt: '2027-02-01T06:00:00Z', endsAt: '2027-02-01T06:10:00Z' }),
      await post({ title: 'Tie too', startsAt: '2027-02-01T06:00:00Z', endsAt: '2027-02-01T06:20:00Z' }),
      await post({ title: 'Before the range, still running', startsAt: '2027-01-31T23:00:00Z', endsAt: '2027-02-01T01:00:00Z' }),
      await post({ title: 'Late', startsAt: '2027-02-02T23:59:00Z', endsAt: '2027-02-03T00:30:00Z' }),
    ];
    const from = encodeURIComponent('2027-02-01T00:00:00Z');
    const to = encodeURIComponent('2027-02-03T00:00:00Z');

    const pages = await allPages(user, from, to, 7);
    const items = pages.flat();
    expect(pages.slice(0, -1).every((p) => p.length === 7)).toBe(true);
    expect(pages[pages.length - 1].length).toBeGreaterThan(0);
    expect(items).toHaveLength(48 + 2 + singles.length);
    const keys = items.map((o) => `${o.startsAt}|${o.id}`);
    expect(new Set(keys).size).toBe(keys.length);
    const sorted = [...items].sort((a, b) => at(a.startsAt) - at(b.startsAt) || a.id.localeCompare(b.id));
    expect(keys).toEqual(sorted.map((o) => `${o.startsAt}|${o.id}`));
    expect(items.filter((o) => o.id === hourly).map((o) => o.startsAt)).toEqual(Array.from({ length: 48 }, (_, h) => iso(at('2027-02-01T00:00:00Z') + h * HOUR)));
    expect(items.filter((o) => o.id === daily)).toHaveLength(2);
    expect(items.filter((o) => o.seriesId === null).map((o) => o.id).sort()).toEqual([...singles].sort());

    // The same pages again: the same order; one page with the largest limit: the same items.
    expect((await allPages(user, from, to, 7)).flat().map((o) => `${o.startsAt}|${o.id}`)).toEqual(keys);
    expect((await allPages(user, from, to, 500)).map((p) => p.length)).toEqual([items.length]);
  });

  it('refuses a limit outside 1-500 and a page token it did not issue', async () => {
    const user = await signUp(base);
    const range = `from=${encodeURIComponent('2027-02-01T00:00:00Z')}&to=${encodeURIComponent('2027-02-02T00:00:00Z')}`;
    for (const query of ['limit=0', 'limit=501', 'limit=abc', 'pageToken=not-a-token', `pageToken=${Buffer.from('{"k":"x"}').toString('base64url')}`]) {
      const res = await user.call('GET', `/events?${range}&${query}`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('invalid_request');
    }
  });

  it('answers a year of an hourly series with a 10,000-character description and 200 attendees one bounded page at a time', async () => {
    const user = await signUp(base);
    const attendees = Array.from({ length: 200 }, (_, i) => ({ email: `guest${i}@example.com`, name: `Guest number ${i}` }));
    const created = await user.call('POST', '/events', {
      title: 'Heavy', description: 'd'.repeat(10_000), attendees, startsAt: '2027-01-01T00:00:00Z', endsAt: '2027-01-01T00:15:00Z',
      recurrenceRule: 'FREQ=HOURLY',
    });
    expect(created.status).toBe(201);
    const seriesBytes = JSON.stringify(created.body.event).length;
    const from = encodeURIComponent('2027-01-01T00:00:00Z');
    const to = encodeURIComponent('2028-01-01T00:00:00Z');

    const first = await user.call('GET', `/events?from=${from}&to=${to}`);
    expect(first.status).toBe(200);
    // A page ends at about EVENTS_PAGE_BYTES of JSON: a few dozen heavy occurrences, not 8,760 of them.
    const n = first.body.events.length;
    const itemBytes = JSON.stringify(first.body.events[0]).length;
    expect(itemBytes).toBeGreaterThan(seriesBytes);
    expect(n).toBe(Math.ceil(EVENTS_PAGE_BYTES / itemBytes));
    expect(n).toBeLessThan(100);
    expect(typeof first.body.nextPageToken).toBe('string');
    expect(first.body.events[n - 1]).toMatchObject({ startsAt: iso(at('2027-01-01T00:00:00Z') + (n - 1) * HOUR), description: 'd'.repeat(10_000) });
    expect(first.body.events[n - 1].attendees).toHaveLength(200);

    const small = await user.call('GET', `/events?from=${from}&to=${to}&limit=3&pageToken=${first.body.nextPageToken}`);
    expect(small.body.events.map((o: Item) => o.startsAt)).toEqual([n, n + 1, n + 2].map((h) => iso(at('2027-01-01T00:00:00Z') + h * HOUR)));
    const light = await user.call('GET', `/events?from=${from}&to=${to}&limit=500&pageToken=${small.body.nextPageToken}`);
    expect(light.body.events.length).toBe(n); // every page of this series is as long
    await anotherUserWritesAndReads();
  });
});
