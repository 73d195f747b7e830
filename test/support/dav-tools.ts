/**
 * Real CalDAV clients the suites drive (Python's caldav and caldav-server-tester, vdirsyncer and khal, litmus):
 * each suite probes for its tool; without it the suite says so in one line and is skipped, unless
 * REQUIRE_DAV_CLIENTS=1 (CI), which makes a missing tool a failure.
 */
import { spawn, spawnSync } from 'node:child_process';

/** Why the tool cannot run here, or null when it can. */
export function missingTool(command: string, args: string[]): string | null {
  const probe = spawnSync(command, args, { encoding: 'utf8', timeout: 30_000 });
  if (probe.error) return `${command} is not on PATH`;
  return probe.status === 0 ? null : `${command} ${args.join(' ')} failed: ${(probe.stderr || probe.stdout).trim().split('\n').pop()}`;
}

/** `describe` when the tool is there; else one skipped (or, with REQUIRE_DAV_CLIENTS=1, failing) test saying why. */
export function describeWithTool(title: string, missing: string | null, install: string, body: () => void): void {
  if (!missing) return describe(title, body);
  describe(title, () => {
    if (process.env.REQUIRE_DAV_CLIENTS === '1') {
      it(`needs its tool (REQUIRE_DAV_CLIENTS=1), but ${missing}`, () => {
        throw new Error(`${missing}: ${install}`);
      });
    } else {
      it.skip(`skipped: ${missing}`, () => undefined);
    }
  });
}

export interface Run {
  status: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end without blocking the service in this process (spawnSync would stop its event loop). */
export function run(command: string, args: string[], options: { env?: Record<string, string>; cwd?: string; input?: string; timeoutMs?: number } = {}): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: { ...process.env, ...options.env }, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 120_000);
    child.on('error', reject);
    child.on('close', (status) => {
      clearTimeout(timer);
      resolve({ status, stdout, stderr });
    });
    child.stdin.end(options.input ?? '');
  });
}
