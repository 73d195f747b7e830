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
   * Kafka's "latest" for a group without offsets is resolved only when its consumer first fetches, so a message
   * published right after subscribe could be missed; and until the first commit a restart would move "latest"
   * again. So a new group starting from the end gets the current end offsets committed before it joins.
   */
  const startNewGroupAtEnd = async (group: string, topic: string) => {
    const [committed] = await admin.fetchOffsets({ groupId: group, topics: [topic] });
    if (committed && committed.partitions.some((p) => p.offset !== '-1')) return;
    const ends = await admin.fetchTopicOffsets(topic);
    try {
      await admin.setOffsets({ groupId: group, topic, partitions: ends.map(({ partition, offset }) => ({ partition, offset })) });
    } catch (e) {
      // Another member of the group is already running: it owns the starting point.
      if (!/no running instances/.test((e as Error).message)) throw e;
    }
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
      if (!fromBeginning) await startNewGroupAtEnd(group, topic);
      const consumer = kafka.consumer({ groupId: group, allowAutoTopicCreation: false });
      const wrapper = new KafkaConsumer(consumer, handler);
      try {
        await consumer.connect();
        await consumer.subscribe({ topics: [topic], fromBeginning });
        // run() can return before the group is joined (a failed join is retried in the background).
        const joined = new Promise<void>((resolve, reject) => {
          const offJoin = consumer.on(consumer.events.GROUP_JOIN, () => (offJoin(), offCrash(), resolve()));
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

    async close() {
      await Promise.all([...consumers].map((c) => c.stop()));
      await Promise.all([producer.disconnect(), admin.disconnect()]);
    },
  };
}
