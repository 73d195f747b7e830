/**
 * Child processes of the bench: the bare express baseline, the real service (`node dist/services/main.js`) and the
 * load generator used while the service runs in this process. Every child is killed when the bench exits.
 */
import { fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { freePort, sleep, tempDir, waitForHttp } from './util';

const children = new Set<ChildProcess>();
let hooked = false;

function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  if (!hooked) {
    hooked = true;
    process.once('exit', killAll);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
      process.once(signal, () => {
        killAll();
        process.exit(130);
      });
    }
  }
  return child;
}

/** Synchronous last resort (process 'exit'): SIGKILL whatever is still running. */
export function killAll(): void {
  for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
}

export const alive = (child: ChildProcess) => child.exitCode === null && child.signalCode === null;

/** SIGTERM, then SIGKILL after `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5000): Promise<void> {
  if (!alive(child)) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = sleep(graceMs).then(() => 'timeout' as const);
  if ((await Promise.race([exited, timer])) === 'timeout') {
    child.kill('SIGKILL');
    await exited;
  }
}

/**
 * Settings every benchmarked service gets: the per-credential / per-IP rate limits are lifted, since the load
 * deliberately sends thousands of requests a minute with one token from one address (the limiter still runs).
 */
export const BENCH_SERVICE_ENV = { RATE_LIMIT_PER_CREDENTIAL: '1000000000', RATE_LIMIT_PER_IP: '1000000000' };

export interface ChildServer {
  child: ChildProcess;
  url: string;
  dataDir?: string;
  stop(): Promise<void>;
}

/** Linux's clock ticks per second (sysconf _SC_CLK_TCK), in which /proc/<pid>/stat counts CPU time. */
const CLOCK_TICKS = 100;

/** CPU seconds a process has used so far, every thread of it (/proc/<pid>/stat); null where /proc cannot tell. */
export function cpuSecondsOf(pid: number | undefined): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name, which sits in parentheses and may hold spaces: utime and stime are 14th and 15th.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** The bare express "hello world" in a child; it tells its port over IPC. */
export async function startHelloServer(): Promise<ChildServer> {
  const child = track(fork(path.join(__dirname, 'hello-server.js'), [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
  const port = await new Promise<number>((resolve, reject) => {
    child.once('message', (m: { port: number }) => resolve(m.port));
    child.once('exit', (code) => reject(new Error(`hello server exited (${code})`)));
  });
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/hello`, 10_000, () => alive(child));
  return { child, url, stop: () => stopChild(child) };
}

/**
 * The real service as it runs in production: `node dist/services/main.js` on a fresh DATA_DIR (or the one given).
 * BENCH_CPU_PROF=<dir> runs it under --cpu-prof (the profile is written when it exits on SIGTERM).
 */
export async function startServiceChild(
  env: Record<string, string> = {},
  { dataDir = tempDir('service'), readyTimeoutMs = 20_000 }: { dataDir?: string; readyTimeoutMs?: number } = {},
): Promise<ChildServer> {
  const port = await freePort();
  const main = path.resolve(__dirname, '..', '..', 'services', 'main.js');
  const prof = process.env.BENCH_CPU_PROF;
  const args = prof ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(prof), main] : [main];
  const child = track(
    spawn(process.execPath, args, {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'silent', ...BENCH_SERVICE_ENV, ...env },
      stdio: ['ignore', 'inherit', 'inherit'],
    }),
  );
  const url = `http://127.0.0.1:${port}`;
  await waitForHttp(`${url}/readyz`, readyTimeoutMs, () => alive(child));
  return { child, url, dataDir, stop: () => stopChild(child, 10_000) };
}

/** A child process that runs one autocannon load (see load-child.ts) and sends its result back. */
export function forkLoadChild(): ChildProcess {
  return forkBenchChild('load-child.js');
}

/** A bench module (compiled, beside this one) in a child process with an IPC channel; killed when the bench exits. */
export function forkBenchChild(file: string, env: Record<string, string> = {}): ChildProcess {
  return track(fork(path.join(__dirname, file), [], { env: { ...process.env, ...env }, stdio: ['ignore', 'inherit', 'inherit', 'ipc'] }));
}
