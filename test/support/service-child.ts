/**
 * The built service (`dist/services/main.js`) as a child process on a given DATA_DIR and port, for the fault suites
 * that SIGKILL it and start it again on the same data.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../bench/util';
import { startReceiver, type Receiver } from './receiver';
import { request } from './service';
import { untilSettled } from './settled';

export const MAIN = path.resolve(__dirname, '../../dist/services/main.js');

export function requireBuild(): void {
  if (!existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first (npm test does)`);
}

/** `env` adds to this process's environment; a variable given as undefined is left out (say, to run embedded). */
export async function startChild(dataDir: string, port: number, env: Record<string, string | undefined> = {}): Promise<ChildProcess> {
  const child = spawn(process.execPath, [MAIN], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      MONGO_DB: `kill_${path.basename(dataDir).replace(/\W/g, '_')}`,
      KAFKA_TOPIC: `kill.${path.basename(dataDir).replace(/\W/g, '_')}`,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'silent',
      PASSWORD_HASH_COST: '1024',
      ...env,
    },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr?.on('data', (d: Buffer) => (stderr = (stderr + d.toString()).slice(-2000)));
  // On Kafka and MongoDB a cold start (topic creation, group coordinator) can take several seconds.
  for (let i = 0; i < 900; i++) {
    try {
      if ((await fetch(`http://127.0.0.1:${port}/healthz`)).ok) return child;
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  child.kill('SIGKILL');
  throw new Error(`service did not start: ${stderr}`);
}

/** SIGKILL, resolved once the process is gone. */
export const killed = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGKILL');
  });

/**
 * Until every projection has applied the whole log, as the /readyz of the process at `root` tells. A fault suite
 * waits for this before it reads back: a write answers once its projections hold it or after MIN_POSITION_WAIT_MS,
 * and on FerretDB a burst of writes (or the catch-up after a restart) can take minutes; what those suites test is
 * that nothing is lost or doubled, not how soon it shows. It fails when no projection moved for STALL_MS.
 */
export async function projectionsCaughtUp(root: string): Promise<void> {
  await untilSettled('projections catching up with the log', async () => {
    const ready = (await (await fetch(`${root}/readyz`)).json()) as { projections: Record<string, { position: number; lagPositions: number }> };
    const behind = Object.entries(ready.projections).filter(([, p]) => p.lagPositions > 0);
    return { done: behind.length === 0, progress: Object.fromEntries(behind.map(([name, p]) => [name, p.position])) };
  });
}

/**
 * For a fault suite: a local webhook receiver for the file's tests; afterwards every child recorded in `children` is
 * killed and every directory in `dirs` removed.
 */
export function useFaultSuite(): { readonly receiver: Receiver; children: ChildProcess[]; dirs: string[] } {
  let receiver: Receiver | undefined;
  const suite = { children: [] as ChildProcess[], dirs: [] as string[], get receiver() { return receiver!; } };
  beforeAll(async () => {
    requireBuild();
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await Promise.all(suite.children.map(killed));
    await receiver?.close();
    for (const dir of suite.dirs) rmSync(dir, { recursive: true, force: true });
  });
  return suite;
}

export type FaultSuite = ReturnType<typeof useFaultSuite>;

/**
 * A child service on a fresh DATA_DIR (removed after the suite), with a user signed up on it: `start` starts it again
 * on the same data after a kill, `call` sends the user's requests.
 */
export async function restartableService(suite: FaultSuite, prefix: string, env: Record<string, string>) {
  const dataDir = mkdtempSync(path.join(tmpdir(), `${prefix}-`));
  suite.dirs.push(dataDir);
  const port = await freePort();
  const base = `http://127.0.0.1:${port}/api/v1`;
  const start = async () => {
    const child = await startChild(dataDir, port, env);
    suite.children.push(child);
    return child;
  };
  const child = await start();
  const signup = await request(base, 'POST', '/auth/signup', { email: `${path.basename(dataDir)}@example.com`, password: 'long enough', name: 'K' });
  if (signup.status !== 201) throw new Error(`signup failed: ${signup.status}`);
  const auth = { authorization: `Bearer ${signup.body.session.token}` };
  const call = (method: string, p: string, body?: unknown) => request(base, method, p, body, auth);
  return { child, start, call, dataDir };
}
