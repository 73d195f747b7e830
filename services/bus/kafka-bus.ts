/**
 * Kafka bus (kafkajs). An idempotent producer; one consumer per subscription, committing each message's offset
 * itself after the handler resolved. A failing handler is retried in place (with backoff and heartbeats), so a
 * message is never skipped and kafkajs' crash-and-restart path (and its error logs) is not involved.
 */
import { Kafka, logLevel, Partitioners, type Consumer, type IHeaders } from 'kafkajs';
import type { Bus, BusConsumer, ConsumedMessage } from './bus.port';

const RETRY_FIRST_MS = 500;
const RETRY_MAX_MS = 10_000;

export interface KafkaBusOptions {
  clientId?: string;
  /** Partitions of a topic created on first use (default 3). */
  partitions?: number;
  /** Replication factor of a topic created on first use (default 1). */
  replicationFactor?: number;
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

  /**
   * For a new group starting from the end: the current end offsets of the partitions it has no committed offset for.
   * Kafka would resolve "latest" only at the consumer's first fetch, after the join, so a message published right
   * after subscribe could be missed; seeking to offsets taken before the join closes that gap.
   */
  const endsWithoutCommit = async (group: string, topic: string): Promise<Map<number, string>> => {
    const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    const hasCommit = new Set(committed?.partitions.filter((p) => p.offset !== '-1').map((p) => p.partition));
    const ends = await admin.fetchTopicOffsets(topic);
    return new Map(ends.filter((p) => !hasCommit.has(p.partition)).map((p) => [p.partition, p.offset]));
  };

  const consumers = new Set<KafkaConsumer>();

  class KafkaConsumer implements BusConsumer {
    lastError: unknown;
    private stopping = false;
    private inFlight: Promise<void> = Promise.resolve();
    private wake: () => void = () => undefined;
    private stopped?: Promise<void>;

    constructor(
      readonly consumer: Consumer,
      private readonly handler: (message: ConsumedMessage) => Promise<void>,
    ) {}

    handle(message: ConsumedMessage, heartbeat: () => Promise<void>): Promise<void> {
      if (this.stopping) return Promise.resolve(); // not handled, not committed: the group's next consumer gets it
      const handling = this.handleUntilDone(message, heartbeat);
      this.inFlight = handling.catch(() => undefined);
      return handling;
    }

    private async handleUntilDone(message: ConsumedMessage, heartbeat: () => Promise<void>): Promise<void> {
      for (let delay = RETRY_FIRST_MS; ; delay = Math.min(delay * 2, RETRY_MAX_MS)) {
        try {
          await this.handler({ ...message, headers: { ...message.headers } });
          break;
        } catch (e) {
          this.lastError = e;
        }
        if (this.stopping) return;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, delay);
          this.wake = () => (clearTimeout(timer), resolve());
        });
        if (this.stopping) return;
        await heartbeat(); // throws when the group rebalances: kafkajs rejoins, the message stays uncommitted
      }
      this.lastError = undefined;
      const next = (BigInt(message.offset) + 1n).toString();
      await this.consumer.commitOffsets([{ topic: message.topic, partition: message.partition, offset: next }]);
    }

    stop(): Promise<void> {
      // kafkajs drops commits once it is stopping, so the in-flight message is finished and committed first.
      this.stopped ??= (async () => {
        this.stopping = true;
        this.wake();
        await this.inFlight;
        await this.consumer.disconnect();
        consumers.delete(this);
      })();
      return this.stopped;
    }
  }

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
      const startAt = fromBeginning ? new Map<number, string>() : await endsWithoutCommit(group, topic);
      // maxWaitTimeInMs bounds the fetch long-poll, which stop() has to wait out (Java's default is 500 ms too).
      const consumer = kafka.consumer({ groupId: group, allowAutoTopicCreation: false, maxWaitTimeInMs: 500 });
      const wrapper = new KafkaConsumer(consumer, handler);
      try {
        await consumer.connect();
        await consumer.subscribe({ topics: [topic], fromBeginning });
        // run() can return before the group is joined (a failed join is retried in the background). The listener
        // runs synchronously within the join, so the seeks apply to the very first fetch.
        const joined = new Promise<void>((resolve, reject) => {
          const offJoin = consumer.on(consumer.events.GROUP_JOIN, ({ payload }) => {
            offJoin();
            offCrash();
            for (const partition of payload.memberAssignment[topic] ?? []) {
              const offset = startAt.get(partition);
              if (offset !== undefined) consumer.seek({ topic, partition, offset });
            }
            resolve();
          });
          const offCrash = consumer.on(consumer.events.CRASH, ({ payload }) => {
            if (!payload.restart) (offJoin(), offCrash(), reject(payload.error));
          });
        });
        joined.catch(() => undefined); // awaited below; this only keeps an early crash from counting as unhandled
        await consumer.run({
          autoCommit: false,
          eachMessage: ({ topic: t, partition, message, heartbeat }) =>
            wrapper.handle(
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
      } catch (e) {
        await consumer.disconnect().catch(() => undefined);
        throw e;
      }
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
