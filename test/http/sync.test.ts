/**
 * Bootstrap and sync over real HTTP. Contract: api-spec.md "Profile" (/me/bootstrap, /sync) and section 3 (removed
 * objects come back with deletedAt, erased ones in `deleted`); addendum.md "Sync".
 */
import { type ApiResponse, type Client, signUp, useTestService } from '../support/service';

let base: string;
useTestService((started) => (base = started.base));

// ---- helpers -------------------------------------------------------------------------------------------------

let day = 1;
/** A fresh one-hour slot per call, so events never conflict. */
function slot() {
  const d = day++;
  return {
    startsAt: new Date(Date.UTC(2032, 0, 1 + (d % 300), 8 + Math.floor(d / 300))).toISOString(),
    endsAt: new Date(Date.UTC(2032, 0, 1 + (d % 300), 9 + Math.floor(d / 300))).toISOString(),
  };
}

async function createEvent(c: Client, title: string) {
  const res = await c.call('POST', '/events', { title, ...slot() });
  expect(res.status).toBe(201);
  return res.body.event as { id: string; title: string; version: number; [k: string]: unknown };
}

async function bootstrap(c: Client) {
  const res = await c.call('GET', '/me/bootstrap');
  expect(res.status).toBe(200);
  return res.body;
}

async function sync(c: Client, since: string, limit?: number) {
  const res = await c.call('GET', `/sync?since=${encodeURIComponent(since)}${limit ? `&limit=${limit}` : ''}`);
  expect(res.status).toBe(200);
  return res.body as {
    changes: { events: Array<Record<string, any>>; calendars: Array<Record<string, any>>; spaces: Array<Record<string, any>> };
    deleted: Array<{ type: string; id: string }>;
    cursor: string;
    hasMore: boolean;
    serverTime: string;
  };
}

const ids = (rows: Array<Record<string, any>>): string[] => rows.map((r) => r.id as string);
const allRowIds = (page: Awaited<ReturnType<typeof sync>>) =>
  [...ids(page.changes.events), ...ids(page.changes.calendars), ...ids(page.changes.spaces), ...page.deleted.map((d) => d.id)];

function expectError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
  expect(typeof res.body.error.message).toBe('string');
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

// ---- bootstrap -----------------------------------------------------------------------------------------------

describe('GET /me/bootstrap', () => {
  it('returns user, spaces, calendars, a cursor and the server time', async () => {
    const c = await signUp(base);
    const body = await bootstrap(c);
    expect(Object.keys(body).sort()).toEqual(['calendars', 'cursor', 'goals', 'lists', 'projects', 'routines', 'serverTime', 'spaces', 'user']);
    expect(body.projects).toEqual([]);
    expect(body.lists).toEqual([]);
    expect(body.user).toMatchObject({ id: c.userId, email: c.email });
    expect(body.spaces).toEqual([expect.objectContaining({ id: body.user.personalSpaceId, kind: 'personal', ownerId: c.userId })]);
    expect(body.calendars).toEqual([
      expect.objectContaining({ id: body.user.defaultCalendarId, spaceId: body.user.personalSpaceId, isDefault: true }),
    ]);
    expect(typeof body.cursor).toBe('string');
    expect(body.cursor.length).toBeGreaterThan(0);
    expect(Number.isNaN(Date.parse(body.serverTime))).toBe(false);
  });
});

// ---- sync ----------------------------------------------------------------------------------------------------

describe('GET /sync', () => {
  it('answers a JSON body of the length it announces, and HEAD the same headers without a body', async () => {
    const c = await signUp(base);
    const boot = await bootstrap(c);
    await createEvent(c, 'measured');
    const url = `${base}/sync?since=${encodeURIComponent(boot.cursor)}`;
    const headers = { authorization: `Bearer ${c.token}` };
    const get = await fetch(url, { headers });
    const bytes = Buffer.from(await get.arrayBuffer());
    expect(get.status).toBe(200);
    expect(get.headers.get('content-type')).toBe('application/json; charset=utf-8');
    expect(Number(get.headers.get('content-length'))).toBe(bytes.length);
    expect(JSON.parse(bytes.toString('utf8')).changes.events.map((e: { title: string }) => e.title)).toEqual(['measured']);
    const head = await fetch(url, { method: 'HEAD', headers });
    expect([head.status, head.headers.get('content-length'), (await head.arrayBuffer()).byteLength]).toEqual([200, String(bytes.length), 0]);
  });

  it('after create, update and delete returns each event once in its latest state, deleted ones with deletedAt', async () => {
    const c = await signUp(base);
    const boot = await bootstrap(c);

    const kept = await createEvent(c, 'kept');
    const edited = await createEvent(c, 'draft');
    const removed = await createEvent(c, 'doomed');
    expect((await c.call('PATCH', `/events/${edited.id}`, { title: 'second draft' })).status).toBe(200);
    expect((await c.call('PATCH', `/events/${edited.id}`, { title: 'final' })).status).toBe(200);
    expect((await c.call('PATCH', `/events/${removed.id}`, { title: 'doomed, renamed' })).status).toBe(200);
    expect((await c.call('DELETE', `/events/${removed.id}`)).status).toBe(204);

    const page = await sync(c, boot.cursor);
    expect(Object.keys(page).sort()).toEqual(['changes', 'cursor', 'deleted', 'hasMore', 'serverTime']);
    expect(Array.isArray(page.deleted)).toBe(true);
    expect(page.hasMore).toBe(false);
    expect(typeof page.cursor).toBe('string');
    expect(page.cursor).not.toBe(boot.cursor);
    expect(Number.isNaN(Date.parse(page.serverTime))).toBe(false);

    const events = page.changes.events;
    expect(ids(events).sort()).toEqual([kept.id, edited.id, removed.id].sort());
    const byId = new Map(events.map((e) => [e.id, e]));
    expect(byId.get(kept.id)).toMatchObject({ title: 'kept', deletedAt: null });
    expect(byId.get(edited.id)).toMatchObject({ title: 'final', deletedAt: null });
    expect(byId.get(edited.id)!.version).toBeGreaterThan(edited.version);
    expect(byId.get(removed.id)!.title).toBe('doomed, renamed');
    expect(byId.get(removed.id)!.deletedAt).toEqual(expect.any(String));
    expect(Number.isNaN(Date.parse(byId.get(removed.id)!.deletedAt))).toBe(false);
    // Nothing else changed: the Space and calendar came with the bootstrap.
    expect(page.changes.spaces).toEqual([]);
    expect(page.changes.calendars).toEqual([]);

    const again = await sync(c, page.cursor);
    expect(again.changes.events).toEqual([]);
    expect(again.changes.calendars).toEqual([]);
    expect(again.changes.spaces).toEqual([]);
    expect(again.deleted).toEqual([]);
    expect(again.hasMore).toBe(false);
  });

  it('picks up new calendars and Spaces too', async () => {
    const c = await signUp(base);
    const boot = await bootstrap(c);
    const cal = await c.call('POST', '/calendars', { name: 'Side project' });
    expect(cal.status).toBe(201);
    const page = await sync(c, boot.cursor);
    expect(ids(page.changes.calendars)).toEqual([cal.body.calendar.id]);
    expect(page.changes.events).toEqual([]);
  });

  it('a second sync with the new cursor returns only what changed after it', async () => {
    const c = await signUp(base);
    const boot = await bootstrap(c);
    const first = await createEvent(c, 'first');
    const page1 = await sync(c, boot.cursor);
    expect(ids(page1.changes.events)).toEqual([first.id]);

    const second = await createEvent(c, 'second');
    const page2 = await sync(c, page1.cursor);
    expect(ids(page2.changes.events)).toEqual([second.id]);
    const page3 = await sync(c, page2.cursor);
    expect(allRowIds(page3)).toEqual([]);
  });

  it('asked the same again, answers from what changed since, with the time of this answer', async () => {
    const c = await signUp(base);
    const boot = await bootstrap(c);
    const first = await createEvent(c, 'first');
    const once = await sync(c, boot.cursor);
    await pause(5);
    const again = await sync(c, boot.cursor);
    expect(ids(again.changes.events)).toEqual([first.id]);
    expect(Date.parse(again.serverTime)).toBeGreaterThan(Date.parse(once.serverTime));

    const second = await createEvent(c, 'second');
    const renamed = await c.call('PATCH', `/events/${first.id}`, { title: 'renamed' }, { 'If-Match': `"v${first.version}"` });
    expect(renamed.status).toBe(200);
    const after = await sync(c, boot.cursor);
    expect(ids(after.changes.events)).toEqual([second.id, first.id]);
    expect(after.changes.events[1].title).toBe('renamed');
  });

  it('pages with limit=2: five changes come exactly once, hasMore true until the last page', async () => {
    const c = await signUp(base);
    const boot = await bootstrap(c);
    const made = [];
    for (let i = 0; i < 5; i++) made.push(await createEvent(c, `paged ${i}`));

    const seen: string[] = [];
    const hasMore: boolean[] = [];
    let cursor = boot.cursor;
    for (let guard = 0; guard < 10; guard++) {
      const page = await sync(c, cursor, 2);
      expect(page.changes.events.length + page.changes.calendars.length + page.changes.spaces.length).toBeLessThanOrEqual(2);
      seen.push(...allRowIds(page));
      hasMore.push(page.hasMore);
      cursor = page.cursor;
      if (!page.hasMore) break;
    }
    expect(seen.sort()).toEqual(made.map((e) => e.id).sort());
    expect(hasMore).toEqual([true, true, false]);
    expect(allRowIds(await sync(c, cursor, 2))).toEqual([]);
  });

  it('accepts an ISO timestamp as `since`', async () => {
    const c = await signUp(base);
    const before = await createEvent(c, 'before');
    await pause(30);
    const since = new Date().toISOString();
    await pause(30);
    const after = await createEvent(c, 'after');
    const page = await sync(c, since);
    expect(ids(page.changes.events)).toEqual([after.id]);
    expect(ids(page.changes.events)).not.toContain(before.id);
    // Its cursor continues from there.
    expect(allRowIds(await sync(c, page.cursor))).toEqual([]);

    const everything = await sync(c, '2000-01-01T00:00:00Z');
    expect(ids(everything.changes.events).sort()).toEqual([before.id, after.id].sort());
    expect(ids(everything.changes.spaces)).toHaveLength(1);
    expect(ids(everything.changes.calendars)).toHaveLength(1);
  });

  it.each([
    ['garbage', 'garbage'],
    ['a forged cursor', 'c1.MTIzNC4xNzAwMDAwMDAwMDAw.AAAAAAAAAAAAAAAAAAAAAA'],
  ])('answers 410 cursor_expired for %s', async (_label, since) => {
    const c = await signUp(base);
    expectError(await c.call('GET', `/sync?since=${encodeURIComponent(since)}`), 410, 'cursor_expired');
  });

  it('answers 410 cursor_expired for a real cursor whose payload was tampered with', async () => {
    const c = await signUp(base);
    const { cursor } = await bootstrap(c);
    const parts = cursor.split('.');
    const forged = parts.length >= 3
      ? [parts[0], Buffer.from('1.1700000000000').toString('base64url'), ...parts.slice(2)].join('.')
      : `${cursor}x`;
    expect(forged).not.toBe(cursor);
    expectError(await c.call('GET', `/sync?since=${encodeURIComponent(forged)}`), 410, 'cursor_expired');
  });

  it('answers 400 invalid_request without `since`', async () => {
    const c = await signUp(base);
    const res = await c.call('GET', '/sync');
    expectError(res, 400, 'invalid_request');
    expect(Array.isArray(res.body.error.details?.issues)).toBe(true);
  });

  it("another user's sync never contains the first user's rows", async () => {
    const a = await signUp(base);
    const b = await signUp(base);
    const aBoot = await bootstrap(a);
    const bBoot = await bootstrap(b);
    const aEvent = await createEvent(a, 'private');
    const aCal = await a.call('POST', '/calendars', { name: 'A only' });
    expect(aCal.status).toBe(201);
    const bEvent = await createEvent(b, 'mine');

    const aRows = new Set([aEvent.id, aCal.body.calendar.id, aBoot.user.personalSpaceId, aBoot.user.defaultCalendarId]);
    for (const since of [bBoot.cursor, aBoot.cursor, '2000-01-01T00:00:00Z']) {
      const page = await sync(b, since);
      for (const id of allRowIds(page)) expect(aRows.has(id)).toBe(false);
      expect(ids(page.changes.events)).toEqual([bEvent.id]);
      for (const e of page.changes.events) expect(e.spaceId).toBe(bBoot.user.personalSpaceId);
      for (const cal of page.changes.calendars) expect(cal.spaceId).toBe(bBoot.user.personalSpaceId);
    }
  });
});
