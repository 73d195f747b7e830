/** Small helpers shared by the bench modules: timing, statistics, temp dirs, free ports, JSON over HTTP. */
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** Seconds each HTTP load run lasts (BENCH_SECONDS, default 10). */
export function benchSeconds(): number {
  const raw = Number(process.env.BENCH_SECONDS ?? '10');
  return Number.isFinite(raw) && raw > 0 ? raw : 10;
}

/** Nearest-rank percentile of an unsorted sample (ms). */
export function percentile(samples: readonly number[], p: number): number {
  if (samples.length === 0) return Number.NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank];
}

export const fmt = (n: number, digits = 1) =>
  Number.isFinite(n) ? n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits }) : 'n/a';

/** Temp dirs made by the bench; removed at exit unless BENCH_KEEP=1. */
const dirs: string[] = [];
export function tempDir(prefix: string): string {
  const dir = mkdtempSync(path.join(process.env.BENCH_DIR ?? tmpdir(), `calendar-bench-${prefix}-`));
  dirs.push(dir);
  return dir;
}
export function removeTempDirs(): void {
  if (process.env.BENCH_KEEP === '1') return;
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const address = s.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      s.close(() => resolve(port));
    });
  });
}

export interface JsonResponse {
  status: number;
  headers: Headers;
  body: any;
}

export async function json(url: string, method: string, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> {
  const res = await fetch(url, {
    method,
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body), // a string goes as is
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    /* not JSON */
  }
  return { status: res.status, headers: res.headers, body: parsed };
}

/** Polls GET url until it answers 200. */
export async function waitForHttp(url: string, timeoutMs: number, alive: () => boolean = () => true): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const res = await fetch(url);
      await res.arrayBuffer();
      if (res.status === 200) return;
    } catch {
      /* not listening yet */
    }
    if (!alive()) throw new Error(`${url}: the server process exited`);
    if (Date.now() > deadline) throw new Error(`${url}: not up after ${timeoutMs} ms`);
    await sleep(50);
  }
}

export interface User {
  token: string;
  userId: string;
  email: string;
}

let users = 0;
/** Signs a fresh user up through the API (base = .../api/v1). */
export async function signUp(base: string): Promise<User> {
  const email = `bench${process.pid}-${Date.now()}-${users++}@example.com`;
  const res = await json(`${base}/auth/signup`, 'POST', { email, password: 'correct horse battery', name: 'Bench User' });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  return { token: res.body.session.token as string, userId: res.body.user.id as string, email };
}

/** Body of task `i` of the POST /tasks load: no project, so every task goes to the end of the owner's inbox order. */
export function taskBody(i: number) {
  return {
    title: `Bench task ${i}`,
    notes: 'Created by the load bench',
    dueAt: new Date(Date.UTC(2031, 0, 1) + (i % 1000) * 3_600_000).toISOString(),
    estimateMinutes: 30,
    priority: 'normal',
  };
}

/** Body of a one-off, non-recurring event in slot `i` (30-minute slots from `baseMs`): distinct slots never overlap. */
export function eventBody(baseMs: number, i: number, title = 'Bench meeting') {
  const start = baseMs + i * 30 * 60_000;
  return {
    title: `${title} ${i}`,
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(start + 25 * 60_000).toISOString(),
    timeZone: 'Europe/Paris',
    description: 'Created by the load bench',
    location: 'Room 4',
  };
}
