/**
 * Where a suite that needs a real engine gets it: the URL from the environment, else a testcontainer when a Docker
 * engine is present, else the suite is skipped with one visible line (the summary reporter prints it).
 * REQUIRE_ENGINES=eventstore,mongo,kafka (CI sets it for the engines it started) turns such a skip into a failure.
 */
import { existsSync } from 'node:fs';

export type Engine = 'eventstore' | 'mongo' | 'kafka';

const ENV: Record<Engine, string> = { eventstore: 'EVENTSTORE_URL', mongo: 'MONGO_URL', kafka: 'KAFKA_BROKERS' };

export function dockerAvailable(): boolean {
  if (process.env.DOCKER_HOST) return true;
  return existsSync('/var/run/docker.sock');
}

function required(engine: Engine): boolean {
  return (process.env.REQUIRE_ENGINES ?? '').split(',').map((s) => s.trim()).includes(engine);
}

type Stop = () => Promise<void>;

export async function startContainer(engine: Engine): Promise<{ url: string; stop: Stop }> {
  if (engine === 'kafka') {
    const { KafkaContainer } = await import('@testcontainers/kafka');
    const kafka = await new KafkaContainer('confluentinc/cp-kafka:7.7.1').withKraft().start();
    return { url: `${kafka.getHost()}:${kafka.getMappedPort(9093)}`, stop: async () => void (await kafka.stop()) };
  }
  const { GenericContainer, Wait } = await import('testcontainers');
  if (engine === 'mongo') {
    const mongo = await new GenericContainer('mongo:7').withExposedPorts(27017).start();
    return { url: `mongodb://${mongo.getHost()}:${mongo.getMappedPort(27017)}`, stop: async () => void (await mongo.stop()) };
  }
  const esdb = await new GenericContainer('eventstore/eventstore:24.10')
    .withEnvironment({ EVENTSTORE_INSECURE: 'true', EVENTSTORE_RUN_PROJECTIONS: 'None', EVENTSTORE_MEM_DB: 'true' })
    .withExposedPorts(2113)
    .withWaitStrategy(Wait.forHttp('/health/live', 2113).forStatusCode(204))
    .start();
  return {
    url: `esdb://${esdb.getHost()}:${esdb.getMappedPort(2113)}?tls=false`,
    stop: async () => void (await esdb.stop()),
  };
}

/**
 * Declares a describe block that runs against a real engine. `body` receives a getter for the engine URL, valid
 * inside hooks and tests.
 */
export function describeOnEngine(engine: Engine, title: string, body: (url: () => string) => void): void {
  const fromEnv = process.env[ENV[engine]];
  if (fromEnv) {
    describe(`${title} [${engine}: ${ENV[engine]}]`, () => body(() => fromEnv));
    return;
  }
  if (dockerAvailable()) {
    describe(`${title} [${engine}: testcontainers]`, () => {
      let url = '';
      let stop: Stop = async () => {};
      beforeAll(async () => {
        ({ url, stop } = await startContainer(engine));
      }, 180_000);
      afterAll(() => stop(), 60_000);
      body(() => url);
    });
    return;
  }
  const reason = `${ENV[engine]} not set and no Docker engine`;
  describe(`${title} [${engine}]`, () => {
    if (required(engine)) {
      it(`needs ${engine} (REQUIRE_ENGINES) but ${reason}`, () => {
        throw new Error(`required engine ${engine} is missing: ${reason}`);
      });
    } else {
      it.skip(`skipped: ${reason}`, () => undefined);
    }
  });
}
