/**
 * The message bus port (Kafka-like): topics of keyed messages, ordered per key, consumed by groups that commit
 * offsets. Adapters: embedded (embedded-bus.ts, durable in SQLite) and Kafka (kafka-bus.ts, kafkajs).
 */
export interface BusMessage {
  key: string;
  value: string;
  headers?: Record<string, string>;
}

export interface ConsumedMessage extends BusMessage {
  topic: string;
  partition: number;
  offset: string;
}

export interface BusConsumer {
  stop(): Promise<void>;
}

export interface Bus {
  /** Resolves only once the bus has durably accepted every message (Kafka: acks from all in-sync replicas). */
  publish(topic: string, messages: BusMessage[]): Promise<void>;
  /**
   * Joins `group` on `topic`. Messages with the same key reach the handler in publish order. An offset is committed
   * only after the handler resolved for it, so a crash redelivers (at least once): handlers dedupe.
   * `fromBeginning` applies when the group has no committed offset yet.
   */
  subscribe(
    group: string,
    topic: string,
    handler: (message: ConsumedMessage) => Promise<void>,
    options?: { fromBeginning?: boolean },
  ): Promise<BusConsumer>;
  /** Resolves when the bus answers (a network round trip); adapters inside the process have nothing to check. */
  ping?(): Promise<void>;
  close(): Promise<void>;
}
