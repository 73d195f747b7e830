/**
 * Kafka bus (kafkajs). An idempotent producer; one consumer per subscription, committing each message's offset
 * itself after the handler resolved. A failing handler is retried in place (with backoff and heartbeats), so a
 * message is never skipped and kafkajs' crash-and-restart path (and its error logs) is not involved.
 */
import { Kafka, logLevel, Partitioners, type Consumer, type IHeaders } from 'kafkajs';
import type { Bus, BusConsumer, ConsumedMessage } from './bus.port';
import { Backoff } from '../backoff';

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

export interface KafkaBusOptions {
  clientId?: string;
  /** Partitions of a topic created on first use (default 3). */
  partitions?: number;
  /** Replication factor of a topic created on first use (default 1). */
  replicationFactor?: number;
  /** A consumer silent this long (no heartbeat) is dropped from its group (default 30 s, kafkajs's). */
  sessionTimeoutMs?: number;
}

function decodeHeaders(headers: IHeaders | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const value = Array.isArray(raw) ? raw[raw.length - 1] : raw;
    if (value !== undefined) out[name] = value.toString();
  }
  return out;
}

export async function openKafkaBus(brokers: string[], options: KafkaBusOptions = {}): Promise<Bus> {
  const sessionTimeout = options.sessionTimeoutMs ?? 30_000;
  const kafka = new Kafka({ clientId: options.clientId ?? 'calendar', brokers, logLevel: logLevel.ERROR });
  const admin = kafka.admin();
  const producer = kafka.producer({
    idempotent: true,
    maxInFlightRequests: 1,
    allowAutoTopicCreation: false,
    createPartitioner: Partitioners.DefaultPartitioner,
  });
  await Promise.all([admin.connect(), producer.connect()]);

  const topics = new Map<string, Promise<unknown>>();
  const ensureTopic = (topic: string): Promise<unknown> => {
    let created = topics.get(topic);
    if (!created) {
      const config = { topic, numPartitions: options.partitions ?? 3, replicationFactor: options.replicationFactor ?? 1 };
      // Resolves false (no error) when the topic already exists.
      created = admin.createTopics({ topics: [config], waitForLeaders: true });
      created.catch(() => topics.delete(topic));
      topics.set(topic, created);
    }
    return created;
  };

  /** Partitions of the group that have a committed offset. */
  const committedPartitions = async (group: string, topic: string): Promise<Set<number>> => {
    const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    return new Set(committed?.partitions.filter((p) => p.offset !== '-1').map((p) => p.partition));
  };

  const consumers = new Set<KafkaConsumer>();

  class KafkaConsumer implements BusConsumer {
    lastError: unknown;
    private consumer: Consumer | null = null;
    private stopping = false;
    private inFlight: Promise<void> = Promise.resolve();
    private readonly wakers = new Set<() => void>();
    private rejoining: Promise<void> | null = null;
    private stopped?: Promise<void>;

    constructor(
      private readonly join: (wrapper: KafkaConsumer) => Promise<Consumer>,
      private readonly handler: (message: ConsumedMessage) => Promise<void>,
    ) {}

    async start(): Promise<void> {
      this.consumer = await this.join(this);
    }

    /** Commits go to the consumer that delivered the message: after a rejoin the old one may still finish one. */
    handle(consumer: Consumer, message: ConsumedMessage, heartbeat: () => Promise<void>): Promise<void> {
      if (this.stopping) return Promise.resolve(); // not handled, not committed: the group's next consumer gets it
      const handling = this.handleUntilDone(consumer, message, heartbeat);
      this.inFlight = handling.catch(() => undefined);
      return handling;
    }

    private async handleUntilDone(consumer: Consumer, message: ConsumedMessage, heartbeat: () => Promise<void>): Promise<void> {
      for (const delay of new Backoff(RETRY_FIRST_MS, RETRY_MAX_MS)) {
        try {
          await this.handler({ ...message, headers: { ...message.headers } });
          break;
        } catch (e) {
          this.lastError = e;
        }
        if (this.stopping || !(await this.pause(delay))) return;
        await heartbeat(); // throws when the group rebalances: kafkajs rejoins, the message stays uncommitted
      }
      this.lastError = undefined;
      const next = (BigInt(message.offset) + 1n).toString();
      await consumer.commitOffsets([{ topic: message.topic, partition: message.partition, offset: next }]);
    }

    /** Waits `ms`; false when stopping (stop() cuts the wait short). */
    private pause(ms: number): Promise<boolean> {
      return new Promise<boolean>((resolve) => {
        const wake = () => (clearTimeout(timer), this.wakers.delete(wake), resolve(!this.stopping));
        const timer = setTimeout(wake, ms);
        this.wakers.add(wake);
      });
    }

    /**
     * kafkajs gives a consumer up for good on some errors, e.g. after a broker outage the coordinator no longer knows
     * the member and refuses its commit: a new consumer joins the group in its place (uncommitted messages come again).
     */
    died(error: unknown): void {
      if (this.stopping || this.rejoining) return;
      this.lastError = error;
      this.rejoining = (async () => {
        for (const delay of new Backoff(RETRY_FIRST_MS, RETRY_MAX_MS)) {
          if (!(await this.pause(delay))) return;
          try {
            this.consumer = await this.join(this);
            return;
          } catch (e) {
            this.lastError = e;
          }
        }
      })().finally(() => (this.rejoining = null));
    }

    stop(): Promise<void> {
      // kafkajs drops commits once it is stopping, so the in-flight message is finished and committed first.
      this.stopped ??= (async () => {
        this.stopping = true;
        for (const wake of this.wakers) wake();
        await this.inFlight;
        await this.rejoining;
        await this.consumer?.disconnect();
        consumers.delete(this);
      })();
      return this.stopped;
    }
  }

  /**
   * A consumer of `group` on `topic`, resolved once it joined. Partitions without a committed offset start at
   * `startAt` when given (a new group starting from the end). kafkajs would resolve "latest" only at the first
   * fetch after the join, so a message published right after subscribe could be missed; seeking to offsets taken
   * before closes that gap.
   */
  const joinGroup = async (group: string, topic: string, fromBeginning: boolean, startAt: Map<number, string>, wrapper: KafkaConsumer): Promise<Consumer> => {
    const committed = startAt.size ? await committedPartitions(group, topic) : new Set<number>();
    // maxWaitTimeInMs bounds the fetch long-poll, which stop() has to wait out (Java's default is 500 ms too).
    const consumer = kafka.consumer({ groupId: group, allowAutoTopicCreation: false, maxWaitTimeInMs: 500, sessionTimeout, heartbeatInterval: Math.min(3000, sessionTimeout / 3) });
    try {
      await consumer.connect();
      await consumer.subscribe({ topics: [topic], fromBeginning });
      // run() can return before the group is joined (a failed join is retried in the background). The listener
      // runs synchronously within the join, so the seeks apply to the very first fetch.
      let isJoined = false;
      const joined = new Promise<void>((resolve, reject) => {
        const offJoin = consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
          offJoin();
          isJoined = true;
          for (const partition of payload.memberAssignment[topic] ?? []) {
            const offset = startAt.get(partition);
            if (offset !== undefined && !committed.has(partition)) consumer.seek({ topic, partition, offset });
          }
          resolve();
        });
        // kafkajs restarts the consumer after some crashes; after the others, one before the join fails this join
        // and one after it makes a new consumer join in its place.
        consumer.on(consumer.events.CRASH, ({ payload }) => {
          if (payload.restart) return;
          if (isJoined) wrapper.died(payload.error);
          else reject(payload.error);
        });
      });
      joined.catch(() => undefined); // awaited below; this only keeps an early crash from counting as unhandled
      await consumer.run({
        autoCommit: false,
        eachMessage: ({ topic: t, partition, message, heartbeat }) =>
          wrapper.handle(
            consumer,
            {
              topic: t,
              partition,
              offset: message.offset,
              key: message.key?.toString() ?? '',
              value: message.value?.toString() ?? '',
              headers: decodeHeaders(message.headers),
            },
            heartbeat,
          ),
      });
      await joined;
      return consumer;
    } catch (e) {
      await consumer.disconnect().catch(() => undefined);
      throw e;
    }
  };

  return {
    async publish(topic, messages) {
      if (messages.length === 0) return;
      await ensureTopic(topic);
      await producer.send({
        topic,
        acks: -1,
        messages: messages.map((m) => ({ key: m.key, value: m.value, headers: m.headers })),
      });
    },

    async subscribe(group, topic, handler, subscribeOptions = {}) {
      const fromBeginning = subscribeOptions.fromBeginning ?? false;
      await ensureTopic(topic);
      const ends = fromBeginning ? [] : await admin.fetchTopicOffsets(topic);
      const startAt = new Map(ends.map((p) => [p.partition, p.offset]));
      const wrapper = new KafkaConsumer((w) => joinGroup(group, topic, fromBeginning, startAt, w), handler);
      await wrapper.start();
      consumers.add(wrapper);
      return wrapper;
    },

    async ping() {
      await admin.describeCluster();
    },

    async close() {
      await Promise.all([...consumers].map((c) => c.stop()));
      await Promise.all([producer.disconnect(), admin.disconnect()]);
    },
  };
}
