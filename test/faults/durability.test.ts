/**
 * An acknowledged write survives SIGKILL: the service runs as a child process (the built dist), is killed right
 * after answers arrive or while a thousand writes from several users are in flight, restarted on the same DATA_DIR
 * (and, when the environment names them, the same MongoDB database and Kafka topic), and every acknowledged event
 * must be there, once, under its own user only.
 */
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../bench/util';
import { killed, projectionsCaughtUp, requireBuild, startChild } from '../support/service-child';
import { request, type ApiResponse } from '../support/service';
import { afterBusy } from '../support/settled';

const USERS = 5;
const PER_USER = 200;
/** Acknowledged writes before the kill: the rest of the thousand are still in flight. */
const KILL_AFTER = 300;
const DAY = { from: '2026-12-02T00:00:00Z', to: '2026-12-03T00:00:00Z' };

const dirs: string[] = [];
const children: ChildProcess[] = [];
afterAll(async () => {
  await Promise.all(children.map(killed));
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

async function service() {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'calendar-kill-'));
  dirs.push(dataDir);
  const port = await freePort();
  const root = `http://127.0.0.1:${port}`;
  const base = `${root}/api/v1`;
  const start = async () => {
    const child = await startChild(dataDir, port);
    children.push(child);
    return child;
  };
  return { base, start, caughtUp: () => projectionsCaughtUp(root) };
}

interface User {
  n: number;
  call(method: string, p: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
}

async function signUp(base: string, n: number): Promise<User> {
  const res = await request(base, 'POST', '/auth/signup', { email: `kill${n}@example.com`, password: 'long enough', name: `K${n}` });
  expect(res.status).toBe(201);
  const auth = { authorization: `Bearer ${res.body.session.token}` };
  return { n, call: (method, p, body, headers = {}) => request(base, method, p, body, { ...auth, ...headers }) };
}

/** One write of the burst: a unique title (its marker), half of them with an Idempotency-Key. */
interface Write {
  user: User;
  title: string;
  key?: string;
  /** The event's id, once its 201 arrived. */
  acked?: string;
}

const post = (w: Write) =>
  w.user.call('POST', '/events', { title: w.title, busy: false, startsAt: '2026-12-02T09:00:00Z', endsAt: '2026-12-02T10:00:00Z' },
    w.key ? { 'idempotency-key': w.key } : {});

/**
 * Sends a keyed write again as a client would until it has an answer: while the dead process's lease on the key
 * holds (409 with Retry-After), and after a 503 (a store too busy for the burst: FerretDB, CI's MongoDB-wire engine,
 * on a loaded machine), which the key makes safe to repeat.
 */
async function retryKeyed(w: Write): Promise<ApiResponse> {
  for (;;) {
    const res = await afterBusy(() => post(w));
    if (res.status !== 409 || res.body.error.code !== 'idempotency_key_in_use') return res;
    await new Promise((r) => setTimeout(r, Number(res.headers.get('retry-after')) * 1000));
  }
}

/** A read, sent again after a 503: the week queries below read every event the burst wrote. */
const read = (user: User, p: string) => afterBusy(() => user.call('GET', p));

/** `each` for every item, `width` at a time: after the restart the suite checks like a client, not as a second burst. */
async function inWaves<T, R>(items: T[], width: number, each: (item: T) => Promise<R>): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i += width) out.push(...(await Promise.all(items.slice(i, i + width).map(each))));
  return out;
}

type Seen = { id: string; title: string };

/** Every event of the day in the user's list, page by page. */
async function listed(user: User): Promise<Seen[]> {
  const out: Seen[] = [];
  let token = '';
  do {
    const res = await read(user, `/events?from=${DAY.from}&to=${DAY.to}&limit=500${token && `&pageToken=${encodeURIComponent(token)}`}`);
    expect(res.status).toBe(200);
    out.push(...res.body.events.map((e: Seen) => ({ id: e.id, title: e.title })));
    token = res.body.nextPageToken ?? '';
  } while (token);
  return out;
}

/** Every event in the user's sync from the beginning, cursor by cursor. */
async function synced(user: User): Promise<Seen[]> {
  const out: Seen[] = [];
  let since = '1970-01-01T00:00:00Z';
  for (let more = true; more; ) {
    const res = await read(user, `/sync?limit=1000&since=${encodeURIComponent(since)}`);
    expect(res.status).toBe(200);
    out.push(...res.body.changes.events.map((e: Seen) => ({ id: e.id, title: e.title })));
    ({ cursor: since, hasMore: more } = res.body);
  }
  return out;
}

const countBy = (seen: Seen[]) => {
  const counts = new Map<string, number>();
  for (const { title } of seen) counts.set(title, (counts.get(title) ?? 0) + 1);
  return counts;
};

describe('durability under SIGKILL', () => {
  beforeAll(requireBuild);

  it('keeps an event whose 201 was sent right before kill -9', async () => {
    const svc = await service();
    const child = await svc.start();
    const user = await signUp(svc.base, 0);
    const first = await post({ user, title: 'acked' });
    expect(first.status).toBe(201);
    await killed(child); // right after the 201

    await svc.start();
    await svc.caughtUp();
    const again = await user.call('GET', `/events/${first.body.event.id}`);
    expect(again.status).toBe(200);
    expect(again.body.event.title).toBe('acked');
  }, 60_000);

  it(`keeps every acknowledged one of ${USERS * PER_USER} concurrent writes from ${USERS} users killed mid-burst, none twice, none under another user`, async () => {
    const svc = await service();
    const child = await svc.start();
    const users = await Promise.all(Array.from({ length: USERS }, (_, n) => signUp(svc.base, n + 1)));
    const writes: Write[] = users.flatMap((user) => Array.from({ length: PER_USER }, (_, i) =>
      ({ user, title: `u${user.n} w${i}`, key: i % 2 === 0 ? `u${user.n}-w${i}` : undefined })));

    let acked = 0;
    let killAt: () => void = () => undefined;
    const enoughAcked = new Promise<void>((resolve) => (killAt = resolve));
    const burst = writes.map((w) => post(w).then((res) => {
      if (res.status !== 201) return;
      w.acked = res.body.event.id;
      if (++acked === KILL_AFTER) killAt();
    }, () => undefined));
    await enoughAcked;
    await killed(child);
    await Promise.all(burst);
    const answered = writes.filter((w) => w.acked);
    expect(answered.length).toBeGreaterThanOrEqual(KILL_AFTER);
    expect(answered.length).toBeLessThan(writes.length); // some were cut off by the kill

    await svc.start();
    // A keyed write sent again gets its first answer if it had one, else it is made now: either way exactly once.
    const keyed = writes.filter((w) => w.key);
    const retried = await inWaves(keyed, 50, retryKeyed);
    keyed.forEach((w, i) => {
      expect({ title: w.title, status: retried[i].status }).toEqual({ title: w.title, status: 201 });
      if (w.acked) expect(retried[i].body.event.id).toBe(w.acked);
    });
    await svc.caughtUp();

    // Each acknowledged event is there for its owner and for nobody else.
    await inWaves(answered, 20, async (w) => {
      const own = await read(w.user, `/events/${w.acked}`);
      expect({ title: w.title, status: own.status, got: own.body.event?.title }).toEqual({ title: w.title, status: 200, got: w.title });
      const stranger = users[w.user.n % USERS];
      expect((await read(stranger, `/events/${w.acked}`)).status).toBe(404);
    });

    // Listed and synced once each, and only under their own user.
    const seenBy: Array<[Seen[], Seen[]]> = [];
    for (const user of users) seenBy.push([await listed(user), await synced(user)]);
    users.forEach((user, u) => {
      const mine = writes.filter((w) => w.user === user);
      const [list, sync] = seenBy[u];
      for (const seen of [list, sync]) {
        const counts = countBy(seen);
        expect(seen.filter((e) => !e.title.startsWith(`u${user.n} w`))).toEqual([]);
        expect([...counts].filter(([, n]) => n > 1)).toEqual([]);
        const missing = mine.filter((w) => (w.acked || w.key) && !counts.has(w.title)).map((w) => w.title);
        expect(missing).toEqual([]);
      }
      expect(sync.map((e) => e.id).sort()).toEqual(list.map((e) => e.id).sort());
      const ids = new Map(list.map((e) => [e.title, e.id]));
      for (const w of mine.filter((x) => x.acked)) expect(ids.get(w.title)).toBe(w.acked!);
    });
  }, 900_000); // on MongoDB-wire under a loaded CI machine, a thousand writes and their catch-up take minutes
});
