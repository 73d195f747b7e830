/** Starts EventStoreDB, MongoDB 7 and Kafka in containers and points every suite at them (test:containers). */
import { dockerAvailable, startContainer } from './engines';

export default async function setup(): Promise<void> {
  if (!dockerAvailable()) {
    process.stdout.write('\ntest:containers needs a Docker engine and none is reachable (no DOCKER_HOST, no /var/run/docker.sock)\n');
    throw new Error('no Docker engine');
  }
  const started = await Promise.all((['eventstore', 'mongo', 'kafka'] as const).map((engine) => startContainer(engine)));
  const [eventstore, mongo, kafka] = started;
  process.env.EVENTSTORE_URL = eventstore.url;
  process.env.MONGO_URL = mongo.url;
  process.env.KAFKA_BROKERS = kafka.url;
  process.env.REQUIRE_ENGINES = 'eventstore,mongo,kafka';
  (globalThis as { __containers?: typeof started }).__containers = started;
}
