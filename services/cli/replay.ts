/**
 * `events replay`: re-publishes a position range of the log into a Kafka topic for a new consumer, as the relay
 * does (keyed by stream id, so each stream's events stay in order on one partition; the event id in a header).
 * Pages go out one after another, each acknowledged before the next, so a failure stops with a position to resume
 * from and nothing out of order.
 */
import type { Config } from '../config';
import type { EventStore } from '../eventstore/event-store.port';
import { busMessage } from '../relay/relay';
import { CliError, UsageError } from './context';
import { matchingPages } from './log-pages';

/** Messages per produce request, as the relay sends them (keeps a request under Kafka's size limits). */
const PUBLISH_BATCH = 500;

export interface ReplayOptions {
  topic: string;
  /** Inclusive. */
  from: number;
  /** Inclusive; the head when absent. */
  to?: number;
  allowLiveTopic: boolean;
  progress: boolean;
}

export interface ReplaySummary {
  topic: string;
  events: number;
  firstPosition: number | null;
  lastPosition: number | null;
}

export async function replayToKafka(events: EventStore, cfg: Config, options: ReplayOptions): Promise<ReplaySummary> {
  if (!cfg.KAFKA_BROKERS) throw new CliError('events replay publishes to Kafka: set KAFKA_BROKERS (host:port, comma-separated)');
  if (options.topic === cfg.KAFKA_TOPIC && !options.allowLiveTopic) {
    throw new UsageError(`${options.topic} is the service's live topic (KAFKA_TOPIC); pass --allow-live-topic to re-publish into it`);
  }
  const { openKafkaBus } = await import('../bus/kafka-bus');
  const bus = await openKafkaBus(cfg.KAFKA_BROKERS.split(',').map((b) => b.trim()), {
    clientId: 'calendar-cli',
    partitions: cfg.KAFKA_TOPIC_PARTITIONS,
    replicationFactor: cfg.KAFKA_REPLICATION_FACTOR,
  });
  const summary: ReplaySummary = { topic: options.topic, events: 0, firstPosition: null, lastPosition: null };
  try {
    const filter = { after: Math.max(0, options.from - 1), to: options.to };
    for await (const page of matchingPages(events, filter, { progress: options.progress, label: 'replay' })) {
      for (let i = 0; i < page.length; i += PUBLISH_BATCH) {
        const batch = page.slice(i, i + PUBLISH_BATCH);
        try {
          await bus.publish(options.topic, batch.map(busMessage));
        } catch (err) {
          const resume = summary.lastPosition === null ? options.from : summary.lastPosition + 1;
          const reason = err instanceof Error ? err.message : String(err);
          throw new CliError(`publishing to ${options.topic} failed after ${summary.events} events (${reason}); resume with --from ${resume}`);
        }
        summary.firstPosition ??= batch[0].position;
        summary.lastPosition = batch[batch.length - 1].position;
        summary.events += batch.length;
      }
    }
    return summary;
  } finally {
    await bus.close();
  }
}
