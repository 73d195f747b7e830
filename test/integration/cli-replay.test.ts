/**
 * `events replay`: history re-published into a new Kafka topic reaches a new consumer once per event, each stream in
 * order. Runs on Kafka (KAFKA_BROKERS, else a testcontainer, else one visible skipped line); the missing-broker error
 * is checked everywhere.
 */
import { randomUUID } from 'node:crypto';
import { Kafka, logLevel } from 'kafkajs';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { runCli, seedLog, type SeedEvent } from '../support/cli';
import { describeOnEngine } from '../support/engines';

const STREAMS = 7;
const EVENTS = 1300;

function buildLog(): SeedEvent[] {
  return Array.from({ length: EVENTS }, (_, i) => ({
    stream: `space-${i % STREAMS === 0 ? 'busy' : `s${(i * 7919) % STREAMS}`}`,
    type: 'event.created',
    userId: randomUUID(),
    occurredAt: new Date(Date.UTC(2026, 0, 1) + i * 60_000).toISOString(),
    data: { n: i },
  }));
}

interface Received {
  key: string;
  value: string;
  headers: Record<string, string>;
}

/** Consumes `topic` from the beginning with a new group until `count` messages arrived, then a little longer. */
async function consumeAll(brokers: string, topic: string, count: number): Promise<Received[]> {
  const kafka = new Kafka({ clientId: 'cli-replay-test', brokers: brokers.split(','), logLevel: logLevel.NOTHING });
  const consumer = kafka.consumer({ groupId: `cli-replay-test-${randomUUID()}`, maxWaitTimeInMs: 200 });
  const seen: Received[] = [];
  await consumer.connect();
  try {
    await consumer.subscribe({ topic, fromBeginning: true });
    await consumer.run({
      eachMessage: async ({ message }) => {
        const headers = Object.fromEntries(Object.entries(message.headers ?? {}).map(([k, v]) => [k, String(v)]));
        seen.push({ key: message.key?.toString() ?? '', value: message.value?.toString() ?? '', headers });
      },
    });
    const deadline = Date.now() + 60_000;
    while (seen.length < count && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
    await new Promise((r) => setTimeout(r, 1000)); // time for duplicates, were there any
    return seen;
  } finally {
    await consumer.disconnect();
  }
}

function expectOncePerEventInStreamOrder(messages: Received[], expected: RecordedEvent[]): void {
  const events = messages.map((m) => JSON.parse(m.value) as RecordedEvent);
  expect(events.map((e) => e.id).sort()).toEqual(expected.map((e) => e.id).sort());
  messages.forEach((m, i) => {
    expect(m.key).toBe(events[i].streamId);
    expect(m.headers).toMatchObject({ 'event-id': events[i].id, 'event-type': events[i].type });
  });
  const streams = new Set(expected.map((e) => e.streamId));
  for (const stream of streams) {
    const received = events.filter((e) => e.streamId === stream).map((e) => e.revision);
    expect(received).toEqual(expected.filter((e) => e.streamId === stream).map((e) => e.revision));
  }
  expect(events.find((e) => e.id === expected[0].id)).toEqual(expected[0]);
}

it('events replay without KAFKA_BROKERS fails with exit code 1 and says what to set', async () => {
  const { dataDir } = await seedLog(buildLog().slice(0, 3));
  const res = await runCli(['events', 'replay', '--to-topic', 'anything'], { DATA_DIR: dataDir });
  expect(res.code).toBe(1);
  expect(res.stderr).toMatch(/set KAFKA_BROKERS/);
  expect(res.stdout).toBe('');
});

it("events replay refuses the service's own topic unless told, before connecting", async () => {
  const { dataDir } = await seedLog(buildLog().slice(0, 3));
  const res = await runCli(['events', 'replay', '--to-topic', 'calendar.domain-events'], { DATA_DIR: dataDir, KAFKA_BROKERS: '127.0.0.1:1' });
  expect(res.code).toBe(2);
  expect(res.stderr).toMatch(/live topic \(KAFKA_TOPIC\); pass --allow-live-topic/);
});

describeOnEngine('kafka', 'events replay into a new topic', (brokers) => {
  let dataDir = '';
  let log: RecordedEvent[] = [];

  const topics: string[] = [];
  const newTopic = () => {
    topics.push(`test.cli-replay.${randomUUID()}`);
    return topics[topics.length - 1];
  };

  beforeAll(async () => {
    ({ dataDir, recorded: log } = await seedLog(buildLog()));
  }, 60_000);

  afterAll(async () => {
    const admin = new Kafka({ clientId: 'cli-replay-test', brokers: brokers().split(','), logLevel: logLevel.NOTHING }).admin();
    await admin.connect();
    await admin.deleteTopics({ topics }).catch(() => undefined);
    await admin.disconnect();
  });

  it('publishes every event once, keyed by stream, each stream in order', async () => {
    const topic = newTopic();
    const res = await runCli(['events', 'replay', '--to-topic', topic, '--json'], { DATA_DIR: dataDir, KAFKA_BROKERS: brokers() });
    expect(res.stderr).toBe('');
    expect(res.code).toBe(0);
    expect(JSON.parse(res.stdout)).toEqual({ topic, events: EVENTS, firstPosition: log[0].position, lastPosition: log[EVENTS - 1].position });
    expectOncePerEventInStreamOrder(await consumeAll(brokers(), topic, EVENTS), log);
  }, 120_000);

  it('re-publishes a position range (both ends included) and prints a summary', async () => {
    const topic = newTopic();
    const [from, to] = [log[100].position, log[700].position];
    const res = await runCli(['events', 'replay', '--to-topic', topic, '--from', String(from), '--to', String(to)], {
      DATA_DIR: dataDir, KAFKA_BROKERS: brokers(),
    });
    expect(res.code).toBe(0);
    expect(res.stdout).toBe(`replayed 601 events (positions ${from}..${to}) to ${topic}\n`);
    expectOncePerEventInStreamOrder(await consumeAll(brokers(), topic, 601), log.slice(100, 701));
  }, 120_000);
});
