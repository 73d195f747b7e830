/**
 * Kafka or the read store away for a while (issue 13, "Faults"). The service runs as a child process on a Kafka and
 * a MongoDB-wire server of this suite's own (never the shared engines); an outage is SIGSTOP of one of them, its end
 * SIGCONT. What the service does meanwhile is described in docs/operations.md, "Outages".
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { Kafka, logLevel } from 'kafkajs';
import { LOG_POSITION } from '../../services/bus/log-backed-bus';
import { freePort } from '../bench/util';
import { booked, hostWithType, slotsOf } from '../support/bookings';
import { startOwnEngines, type OwnEngines } from '../support/own-engines';
import { sleep, startReceiver, until, type Receiver } from '../support/receiver';
import { signUp, type Client } from '../support/service';
import { killed, requireBuild, startChild } from '../support/service-child';

const TITLE = 'outages of Kafka and the read store [kafka] [mongo]';
const ADMIN_TOKEN = 'admin-token-for-outage-tests';
/**
 * Longer than the Kafka clients' request time-out and the consumers' session (30 s each, kafkajs's defaults): the
 * relay's produce request times out and is sent again (the idempotent producer keeps it once), and the coordinator
 * may drop the consumers (they join again).
 */
const KAFKA_OUTAGE_MS = 35_000;
const MONGO_TIMEOUT_MS = 4000;
/** A call still unanswered after this is a hang: the test fails rather than waiting for the engine to return. */
const HANG_MS = 20_000;
const WAIT_MS = 45_000;
/** Back to ready after the read store returns: the longest retry pause (30 s), a round of work, and a margin. */
const RECOVERY_MS = 90_000;
const DAY = { from: '2031-03-03T00:00:00Z', to: '2031-03-04T00:00:00Z' };
const at = (hour: number) => ({ startsAt: `2031-03-03T${String(hour).padStart(2, '0')}:00:00Z`, endsAt: `2031-03-03T${String(hour).padStart(2, '0')}:30:00Z` });

interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

/** One HTTP call that must be answered (see HANG_MS). */
async function answered(url: string, method = 'GET', body?: unknown, headers: Record<string, string> = {}): Promise<Answer> {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(HANG_MS),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
}

const bearer = (c: Client) => ({ authorization: `Bearer ${c.token}` });

function expectUnavailable(res: Answer): void {
  expect([res.status, res.body?.error?.code]).toEqual([503, 'store_unavailable']);
  expect(res.body.error.message).toMatch(/read store/);
  expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
}

/** Every event of DAY the user sees, all pages. */
async function eventsOfDay(base: string, c: Client): Promise<Array<Record<string, any>>> {
  const out: Array<Record<string, any>> = [];
  let token: string | undefined;
  do {
    const page = await answered(`${base}/events?from=${DAY.from}&to=${DAY.to}${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`, 'GET', undefined, bearer(c));
    expect(page.status).toBe(200);
    out.push(...page.body.events);
    token = page.body.nextPageToken ?? undefined;
  } while (token);
  return out;
}

/** Ids of the events /sync reports after `cursor`, all pages. */
async function syncedEventIds(base: string, c: Client, cursor: string): Promise<string[]> {
  const ids: string[] = [];
  for (let more = true; more; ) {
    const page = await answered(`${base}/sync?since=${encodeURIComponent(cursor)}`, 'GET', undefined, bearer(c));
    expect(page.status).toBe(200);
    ids.push(...page.body.changes.events.map((e: { id: string }) => e.id));
    [cursor, more] = [page.body.cursor, page.body.hasMore];
  }
  return ids;
}

/** The `event-id` and `log-position` headers of every message in the topic, from the beginning to its current end. */
async function messagesInTopic(brokers: string, topic: string): Promise<Array<{ id: string; position: number }>> {
  const kafka = new Kafka({ brokers: [brokers], logLevel: logLevel.NOTHING });
  const admin = kafka.admin();
  await admin.connect();
  const ends = await admin.fetchTopicOffsets(topic);
  await admin.disconnect();
  const total = ends.reduce((n, p) => n + Number(p.high) - Number(p.low), 0);
  const consumer = kafka.consumer({ groupId: `outage-check-${randomUUID()}` });
  const messages: Array<{ id: string; position: number }> = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topics: [topic], fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        messages.push({ id: String(message.headers?.['event-id']), position: Number(String(message.headers?.[LOG_POSITION])) });
      },
    });
    await until(() => messages.length >= total, WAIT_MS, 'the whole topic read');
  } finally {
    await consumer.disconnect();
  }
  return messages;
}

const countOf = (values: string[]) => values.reduce((m, v) => m.set(v, (m.get(v) ?? 0) + 1), new Map<string, number>());

const required = ['kafka', 'mongo'].some((e) => (process.env.REQUIRE_ENGINES ?? '').split(',').map((s) => s.trim()).includes(e));

if (!process.env.KAFKA_BROKERS || !process.env.MONGO_URL) {
  // Their presence says the engines tooling (Java, Maven, Go) works here; this suite starts engines of its own.
  const reason = 'KAFKA_BROKERS and MONGO_URL not set, so infra/local is not known to work here';
  describe(TITLE, () => {
    if (!required) it.skip(`skipped: ${reason}`, () => undefined);
    else {
      it(`needs the engines (REQUIRE_ENGINES) but ${reason}`, () => {
        throw new Error(`required engines are missing: ${reason}`);
      });
    }
  });
} else {
  describe(TITLE, () => {
    let engines: OwnEngines;
    let receiver: Receiver;
    let child: ChildProcess | undefined;
    let dataDir: string;
    let root: string;
    let base: string;
    let topic: string;

    beforeAll(async () => {
      requireBuild();
      [engines, receiver] = await Promise.all([startOwnEngines(), startReceiver()]);
      dataDir = mkdtempSync(path.join(tmpdir(), 'outage-'));
      const port = await freePort();
      child = await startChild(dataDir, port, {
        ...engines.env,
        ADMIN_TOKEN,
        READY_MAX_LAG_SECONDS: '2',
        MONGO_TIMEOUT_MS: String(MONGO_TIMEOUT_MS),
        WEBHOOK_ALLOW_PRIVATE_URLS: 'true',
      });
      root = `http://127.0.0.1:${port}`;
      base = `${root}/api/v1`;
      topic = `kill.${path.basename(dataDir).replace(/\W/g, '_')}`; // as startChild names it
    }, 180_000);

    afterAll(async () => {
      if (child) await killed(child);
      await receiver?.close();
      await engines?.stop();
      if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    }, 60_000);

    const readyz = () => answered(`${root}/readyz`);

    it('Kafka paused: writes and reads go on, /readyz says degraded naming the bus and the relay; resumed, every event reaches the topic, its webhook and its mail once', async () => {
      const host = await hostWithType(base);
      expect((await host.client.call('POST', '/webhooks', { name: 'outage', url: receiver.url('/hook'), events: ['event.created'] })).status).toBe(201);
      const hooked = () => receiver.received('/hook').map((r) => r.json.data.id as string);
      const mailed = async () => {
        const res = await answered(`${root}/admin/mail`, 'GET', undefined, { authorization: `Bearer ${ADMIN_TOKEN}` });
        return (res.body.mail as Array<{ bookingId: string }>).map((m) => m.bookingId);
      };
      const written: number[] = [];
      const createEvent = async (title: string, hour: number) => {
        const res = await answered(`${base}/events`, 'POST', { title, ...at(hour) }, bearer(host.client));
        expect(res.status).toBe(201);
        written.push(Number(res.headers.get('x-calendar-position')));
        return res.body.event.id as string;
      };
      const slots = await slotsOf(base, host, '?days=3');
      // Before: both consumers are working.
      const first = await createEvent('before', 1);
      const firstBooking = (await booked(base, host, slots[0].startsAt)).booking.id as string;
      await until(async () => hooked().includes(first) && (await mailed()).includes(firstBooking), WAIT_MS, 'the first webhook and mail');

      engines.pause('kafka');
      const pausedAt = Date.now();
      const during: string[] = [];
      let bookingsDuring: string[] = [];
      try {
        for (let i = 0; i < 5; i++) during.push(await createEvent(`during ${i}`, 10 + i));
        bookingsDuring = [(await booked(base, host, slots[2].startsAt)).booking.id as string, (await booked(base, host, slots[4].startsAt)).booking.id as string];
        expect((await eventsOfDay(base, host.client)).map((e) => e.id)).toEqual(expect.arrayContaining(during));
        await until(async () => (await readyz()).body.problems.some((p: string) => p.startsWith('relay:')), WAIT_MS, '/readyz naming the relay');
        const ready = await readyz();
        expect([ready.status, ready.body.status]).toEqual([200, 'degraded']);
        expect(ready.body.stores).toMatchObject({ 'event store': 'ok', 'read store': 'ok', bus: expect.stringMatching(/^unreachable/) });
        expect(ready.body.problems).toEqual(expect.arrayContaining([expect.stringMatching(/^bus: unreachable/), expect.stringMatching(/^relay: \d+ log positions not yet in the bus/)]));
        await sleep(KAFKA_OUTAGE_MS - (Date.now() - pausedAt));
        // When one leaks, when it arrived tells a late pause (at once) from a broker that answered again (later).
        const leaked = receiver.received('/hook').filter((r) => during.includes(r.json.data.id)).map((r) => ({ id: r.json.data.id, afterPauseMs: r.at - pausedAt }));
        expect(leaked).toEqual([]);
        expect((await mailed()).filter((id) => bookingsDuring.includes(id))).toEqual([]);
      } finally {
        engines.resume('kafka'); // also after a failed check: the next test needs the broker
      }

      await until(async () => (await readyz()).body.status === 'ready', WAIT_MS, '/readyz ready again');
      await until(async () => {
        const mail = await mailed();
        return during.every((id) => hooked().includes(id)) && bookingsDuring.every((id) => mail.includes(id));
      }, WAIT_MS, 'webhooks and mail of the outage');
      // The whole log, the outage's events with it, is in the topic, each event once.
      const { head } = (await readyz()).body;
      const inTopic = await messagesInTopic(engines.env.KAFKA_BROKERS, topic);
      expect(inTopic.map((m) => m.position).sort((a, b) => a - b)).toEqual(Array.from({ length: head }, (_, i) => i + 1));
      expect(new Set(inTopic.map((m) => m.id)).size).toBe(head);
      expect(head).toBeGreaterThanOrEqual(Math.max(...written));
      const hooks = countOf(hooked());
      expect(during.map((id) => hooks.get(id))).toEqual(during.map(() => 1));
      const mail = countOf(await mailed());
      expect(bookingsDuring.map((id) => mail.get(id))).toEqual([1, 1]);
    }, 150_000);

    it('read store paused: requests answer 503 store_unavailable, /readyz 503 names it; resumed, every acknowledged write and every refused one retried is in GET and /sync once', async () => {
      const user = await signUp(base);
      const boot = await answered(`${base}/me/bootstrap`, 'GET', undefined, bearer(user));
      expect(boot.status).toBe(200);
      // Writers keep writing across the pause, each write with its own Idempotency-Key: whichever way a write falls
      // (acknowledged before or while the store goes away, or refused), it must end up there exactly once.
      type Write = { key: string; body: Record<string, unknown>; answer?: Answer; id?: string };
      const writes: Write[] = [];
      let writing = true;
      const writer = async (w: number) => {
        for (let n = 0; writing; n++) {
          const write: Write = { key: `outage-${w}-${n}`, body: { title: `w${w}-${n}`, busy: false, ...at(9) } };
          writes.push(write);
          write.answer = await answered(`${base}/events`, 'POST', write.body, { ...bearer(user), 'Idempotency-Key': write.key });
          if (write.answer.status === 201) write.id = write.answer.body.event.id;
        }
      };
      const writers = [0, 1, 2].map(writer);
      await until(() => writes.filter((w) => w.id).length >= 3, WAIT_MS, 'writes before the outage');

      engines.pause('mongo');
      const firstAfterPause = writes.length;
      const [list, sync] = await Promise.all([
        answered(`${base}/events?from=${DAY.from}&to=${DAY.to}`, 'GET', undefined, bearer(user)),
        answered(`${base}/sync?since=${encodeURIComponent(boot.body.cursor)}`, 'GET', undefined, bearer(user)),
      ]);
      expectUnavailable(list);
      expectUnavailable(sync);
      // /readyz probes the store itself, each time: asked until it has met the outage (one CI run saw a probe answered
      // next to the first refused reads), then it must say what is wrong.
      let ready = await readyz();
      await until(async () => /^unreachable/.test((ready = await readyz()).body.stores['read store']), WAIT_MS, '/readyz naming the read store').catch((e: Error) => {
        throw new Error(`${e.message}; the last answer: ${ready.status} ${JSON.stringify(ready.body)}`);
      });
      expect([ready.status, ready.body.status]).toEqual([503, 'not_ready']);
      expect(ready.body.stores).toMatchObject({ 'event store': 'ok', 'read store': expect.stringMatching(/^unreachable/) });
      expect(ready.body.problems).toEqual(expect.arrayContaining([expect.stringMatching(/^read store: unreachable/)]));
      await until(() => writes.slice(firstAfterPause).some((w) => w.answer?.status === 503), WAIT_MS, 'a write refused');
      writing = false;
      await Promise.all(writers);
      for (const w of writes.filter((x) => !x.id)) expectUnavailable(w.answer!);
      engines.resume('mongo');

      // Parts that failed during the outage retry after pauses that grow (up to 5 s for the log followers, 10 s for the
      // bus consumers), so coming back takes that plus a round of work; the last answer says what was still wrong.
      ready = await readyz();
      await until(async () => (ready = await readyz()).body.status === 'ready', RECOVERY_MS, '/readyz ready again').catch((e: Error) => {
        throw new Error(`${e.message}; the last answer: ${ready.status} ${JSON.stringify(ready.body)}`);
      });
      // A refused write is retried as a client would: same key, same body, after Retry-After.
      for (const write of writes.filter((w) => !w.id)) {
        await until(async () => {
          const res = await answered(`${base}/events`, 'POST', write.body, { ...bearer(user), 'Idempotency-Key': write.key });
          if (res.status === 201) write.id = res.body.event.id;
          else await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
          return res.status === 201;
        }, WAIT_MS, `write ${write.key} accepted`);
      }
      const ids = writes.map((w) => w.id!);
      const listed = await eventsOfDay(base, user);
      expect(countOf(listed.map((e) => e.title as string))).toEqual(countOf(writes.map((w) => w.body.title as string)));
      expect(listed.map((e) => e.id).sort()).toEqual([...ids].sort());
      expect([...countOf(await syncedEventIds(base, user, boot.body.cursor)).entries()].sort()).toEqual(ids.map((id) => [id, 1]).sort());
    }, 240_000);
  });
}
