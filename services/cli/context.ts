/**
 * What every command needs: the configuration, the stores it names (failing clearly where there is nothing to read),
 * and the rule for progress bars: on stderr, when stderr is a terminal or `--progress` forces them. The stores'
 * modules load on first use, so `--help` and `--version` answer at once.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config';
import type { EventStore } from '../eventstore/event-store.port';
import type { ReadStore } from '../readstore/read-store.port';

/** A failure the user can act on: printed as is (no stack), exit code 1. */
export class CliError extends Error {}

/** Arguments that cannot work together: printed with a hint to --help, exit code 2. */
export class UsageError extends CliError {}

export function config(): Config {
  return loadConfig();
}

function requireEmbeddedFile(cfg: Config, file: string, what: string): void {
  const full = path.resolve(cfg.DATA_DIR, file);
  if (!existsSync(full)) throw new CliError(`no ${what} at ${full} (set DATA_DIR to the service's data directory)`);
}

/** The configured event log; on the embedded store, the file must exist (an export never creates an empty log). */
export async function eventLog(cfg: Config): Promise<EventStore> {
  if (!cfg.EVENTSTORE_URL) requireEmbeddedFile(cfg, 'events.sqlite', 'event log');
  return (await import('../composition')).openEventStore(cfg);
}

export async function readModels(cfg: Config): Promise<ReadStore> {
  if (!cfg.MONGO_URL) requireEmbeddedFile(cfg, 'read-models.sqlite', 'read-model store');
  return (await import('../composition')).openReadStore(cfg);
}

/** Runs `use` with the configured event log as stored (sealed personal data, old versions) and closes it afterwards. */
export async function withEventLog<T>(use: (events: EventStore, cfg: Config) => Promise<T>): Promise<T> {
  const cfg = config();
  const events = await eventLog(cfg);
  try {
    return await use(events, cfg);
  } finally {
    await events.close();
  }
}

/**
 * Runs `use` with the log as readers see it: opened with the users' keys (erased users' events redacted) and upcast
 * to the current versions. The keys live in the read-model store.
 */
export async function withDecodedLog<T>(use: (events: EventStore, cfg: Config) => Promise<T>): Promise<T> {
  const cfg = config();
  const raw = await eventLog(cfg);
  let events = raw;
  try {
    const store = await readModels(cfg);
    try {
      const [{ historyStore }, { embeddedLogFile }] = await Promise.all([import('../eventstore/decoding-event-store'), import('../composition')]);
      events = historyStore(raw, store, embeddedLogFile(cfg)).events;
      return await use(events, cfg);
    } finally {
      await store.close();
    }
  } finally {
    await events.close(); // also when the read-model store is missing: an open log would keep the process alive
  }
}

/** `--progress` forces the bars, `--no-progress` hides them; by default they show when stderr is a terminal. */
export function showProgress(command: Command): boolean {
  const forced = command.optsWithGlobals<{ progress?: boolean }>().progress;
  return forced ?? process.stderr.isTTY === true;
}
