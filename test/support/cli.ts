/**
 * The built CLI as a child process (`npm run build` first), and logs written straight into an embedded event store
 * for it to read. The child inherits no engine or admin variable from the test's environment unless given.
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { schemaVersionOf } from '../../contracts/domain-events';
import type { Config } from '../../services/config';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';

export const CLI = path.resolve(__dirname, '../../dist/services/cli/program.js');

const INHERITED_OUT = ['DATA_DIR', 'EVENTSTORE_URL', 'MONGO_URL', 'MONGO_DB', 'KAFKA_BROKERS', 'KAFKA_TOPIC', 'ADMIN_TOKEN', 'ADMIN_URL', 'PORT'];

export interface CliRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the CLI with `input` as its whole stdin (none by default: stdin ends at once). */
export function runCli(args: string[], env: Record<string, string> = {}, input = ''): Promise<CliRun> {
  const base = Object.fromEntries(Object.entries(process.env).filter(([k]) => !INHERITED_OUT.includes(k)));
  const child = spawn(process.execPath, [CLI, ...args], { env: { ...base, ...env }, stdio: ['pipe', 'pipe', 'pipe'] });
  child.stdin.on('error', () => undefined); // the child may exit before reading it
  child.stdin.end(input);
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export interface SeedEvent {
  stream: string;
  type: string;
  data: unknown;
  userId: string | null;
  spaceId?: string;
  occurredAt: string;
}

/**
 * Appends the events in order, one append each (all queued at once), to DATA_DIR/events.sqlite in a new directory
 * (in clear, at their types' current versions, beside an empty read-model store: no user keys); returns both.
 */
export async function seedLog(events: readonly SeedEvent[]): Promise<{ dataDir: string; recorded: RecordedEvent[] }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'calendar-cli-test-'));
  await (await openEmbeddedReadStore(path.join(dataDir, 'read-models.sqlite'))).close();
  const store = await openSqliteEventStore(path.join(dataDir, 'events.sqlite'));
  try {
    // Appends queued together commit in call order, so positions follow the list.
    await Promise.all(
      events.map((e) => {
        const id = randomUUID();
        const metadata = { userId: e.userId, ...(e.spaceId ? { spaceId: e.spaceId } : {}), correlationId: id, causationId: id, occurredAt: e.occurredAt, schemaVersion: schemaVersionOf(e.type) };
        return store.append(e.stream, [{ id, type: e.type, data: e.data, metadata }], 'any');
      }),
    );
    return { dataDir, recorded: await store.readAll(0, events.length + 1) };
  } finally {
    await store.close();
  }
}

/** The store variables a test service was started with, for a CLI run on the same stores. */
export function storesEnv(config: Config): Record<string, string> {
  const vars = { DATA_DIR: config.DATA_DIR, EVENTSTORE_URL: config.EVENTSTORE_URL, MONGO_URL: config.MONGO_URL, MONGO_DB: config.MONGO_DB };
  return Object.fromEntries(Object.entries(vars).filter((entry): entry is [string, string] => typeof entry[1] === 'string'));
}

export const ndjson = (text: string): RecordedEvent[] => text.split('\n').filter((line) => line !== '').map((line) => JSON.parse(line));
