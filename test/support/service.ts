/**
 * Starts the whole service in this process on a fresh data directory and a free port, on the embedded stores
 * unless the environment names real engines (then those are used, as CI does in its second pass).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { startService, type Service } from '../../services/composition';
import { loadConfig } from '../../services/config';
import { json, type JsonResponse } from '../bench/util';

export interface TestService {
  service: Service;
  base: string;
  dataDir: string;
  stop(): Promise<void>;
}

/**
 * `log` replaces the silent logger (a suite that reads the service's log lines); a variable given as undefined is
 * unset (a suite about the embedded stores runs on them on the engines leg too).
 */
export async function startTestService(env: Record<string, string | undefined> = {}, log: Logger = pino({ level: 'silent' })): Promise<TestService> {
  const dataDir = env.DATA_DIR ?? mkdtempSync(path.join(tmpdir(), 'calendar-test-'));
  const config = loadConfig({
    ...process.env,
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    MONGO_DB: `test_${path.basename(dataDir).replace(/\W/g, '_')}`,
    KAFKA_TOPIC: `test.${path.basename(dataDir).replace(/\W/g, '_')}`,
    PASSWORD_HASH_COST: '1024',
    LOG_LEVEL: 'silent',
    READ_STORE_REQUIRE_INDEXES: 'true',
    ...env,
  });
  const service = await startService(config, log);
  return { service, base: `${service.url}/api/v1`, dataDir, stop: () => service.stop() };
}

/** Starts one service for the file's tests (beforeAll) and stops it after them (afterAll). */
export function useTestService(onStart: (started: TestService) => void, env: Record<string, string> = {}): void {
  let started: TestService | undefined;
  beforeAll(async () => {
    started = await startTestService(env);
    onStart(started);
  });
  afterAll(() => started?.stop());
}

export interface Client {
  token: string;
  userId: string;
  email: string;
  call(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<ApiResponse>;
}

export type ApiResponse = JsonResponse;
/** One HTTP call below `base`; a string body goes as is, anything else as JSON (shared with the bench). */
export function request(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  return json(`${base}${path}`, method, body, headers);
}

let counter = 0;

/** Signs up a fresh user and returns a client that sends its session token. */
export async function signUp(base: string, overrides: Record<string, unknown> = {}): Promise<Client> {
  const email = `user${Date.now()}-${counter++}-${Math.random().toString(36).slice(2, 8)}@example.com`;
  const res = await request(base, 'POST', '/auth/signup', { email, password: 'correct horse', name: 'Test User', ...overrides });
  if (res.status !== 201) throw new Error(`signup failed: ${res.status} ${JSON.stringify(res.body)}`);
  const token = res.body.session.token as string;
  return {
    token,
    userId: res.body.user.id,
    email: res.body.user.email,
    call: (method, p, body, headers = {}) => request(base, method, p, body, { authorization: `Bearer ${token}`, ...headers }),
  };
}

/** The body of a call that must succeed (2xx). */
export async function ok(c: Client, method: string, path: string, body?: unknown) {
  const res = await c.call(method, path, body);
  expect(res.status).toBeLessThan(300);
  return res.body;
}

/** An instant strictly between the writes before and after it (time travel tests). */
export async function instantBetweenWrites(): Promise<string> {
  await new Promise((r) => setTimeout(r, 5));
  const at = new Date().toISOString();
  await new Promise((r) => setTimeout(r, 5));
  return at;
}

/** One service for the file and a user signed up on it; both are there once the file's tests run. */
export function useServiceWithUser(): { base: string; user: Client } {
  const started = {} as { base: string; user: Client };
  useTestService((svc) => {
    started.base = svc.base;
  });
  beforeAll(async () => {
    started.user = await signUp(started.base);
  });
  return started;
}
