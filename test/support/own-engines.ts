/**
 * A Kafka broker and a MongoDB-wire server of the suite's own (infra/local's scripts with ENGINES_INSTANCE_DIR in a
 * temp directory and free ports), for suites that pause an engine: the shared engines other suites use are never
 * touched. The jars and the FerretDB binary come from infra/local/.cache (built there on first use).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { freePort } from '../bench/util';

const LOCAL = path.resolve(__dirname, '../../infra/local');
const run = promisify(execFile);

export type EngineName = 'kafka' | 'mongo';

export interface OwnEngines {
  /** KAFKA_BROKERS and MONGO_URL of these engines. */
  env: { KAFKA_BROKERS: string; MONGO_URL: string };
  /** SIGSTOP: the process keeps its sockets but answers nothing, as a hung or partitioned server. */
  pause(engine: EngineName): void;
  resume(engine: EngineName): void;
  stop(): Promise<void>;
}

async function distinctFreePorts(n: number): Promise<number[]> {
  const ports = new Set<number>();
  while (ports.size < n) ports.add(await freePort());
  return [...ports];
}

/** The value of `export NAME=value` in a script's stdout. */
const exported = (stdout: string, name: string): string => {
  const value = new RegExp(`^export ${name}=(\\S+)$`, 'm').exec(stdout)?.[1];
  if (!value) throw new Error(`no ${name} in: ${stdout}`);
  return value;
};

export async function startOwnEngines(): Promise<OwnEngines> {
  const dir = mkdtempSync(path.join(tmpdir(), 'own-engines-'));
  const [kafkaPort, controllerPort, mongoPort] = await distinctFreePorts(3);
  const env = {
    ...process.env,
    ENGINES_INSTANCE_DIR: dir,
    KAFKA_PORT: String(kafkaPort),
    KAFKA_CONTROLLER_PORT: String(controllerPort),
    MONGO_PORT: String(mongoPort),
    KAFKA_HEAP_OPTS: '-Xms128m -Xmx384m',
  };
  const script = (engine: EngineName, command: string) =>
    run('bash', [path.join(LOCAL, engine === 'kafka' ? 'kafka.sh' : 'mongo-wire.sh'), command], { env, maxBuffer: 1 << 20 });
  const pidOf = (engine: EngineName) =>
    Number(readFileSync(path.join(dir, engine, engine === 'kafka' ? 'kafka.pid' : 'ferretdb.pid'), 'utf8'));
  const stopBoth = async () => {
    await Promise.allSettled([script('kafka', 'stop'), script('mongo', 'stop')]);
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    const [kafka, mongo] = await Promise.all([script('kafka', 'start'), script('mongo', 'start')]);
    const pids = { kafka: pidOf('kafka'), mongo: pidOf('mongo') };
    return {
      env: { KAFKA_BROKERS: exported(kafka.stdout, 'KAFKA_BROKERS'), MONGO_URL: exported(mongo.stdout, 'MONGO_URL') },
      pause: (engine) => process.kill(pids[engine], 'SIGSTOP'),
      resume: (engine) => process.kill(pids[engine], 'SIGCONT'),
      async stop() {
        // A paused process would act on the scripts' SIGTERM only once continued.
        for (const pid of Object.values(pids)) {
          try {
            process.kill(pid, 'SIGCONT');
          } catch {
            /* already gone */
          }
        }
        await stopBoth();
      },
    };
  } catch (err) {
    await stopBoth();
    throw err;
  }
}
