/**
 * Operator and analyst commands:
 *   events export [--after N] [--limit N]   the log as NDJSON on stdout, in log order (replay, analysis)
 *   projections status                      registry and positions, from the running service's /admin
 *   projections rebuild <name>              rebuild into fresh storage beside the serving one, then switch
 * `events export` reads the configured event store directly (embedded file or EVENTSTORE_URL); the projection
 * commands call the running service at ADMIN_URL (default http://127.0.0.1:$PORT) with ADMIN_TOKEN.
 */
import path from 'node:path';
import { loadConfig } from './config';
import { historyStore } from './eventstore/decoding-event-store';

function flag(args: string[], name: string, fallback: number): number {
  const i = args.indexOf(`--${name}`);
  const v = i >= 0 ? Number(args[i + 1]) : fallback;
  if (!Number.isSafeInteger(v) || v < 0) throw new Error(`--${name} must be a non-negative integer`);
  return v;
}

async function exportEvents(args: string[]): Promise<void> {
  const config = loadConfig();
  const raw = config.EVENTSTORE_URL
    ? await (await import('./eventstore/esdb-event-store')).openEsdbEventStore(config.EVENTSTORE_URL)
    : await (await import('./eventstore/sqlite-event-store')).openSqliteEventStore(path.resolve(config.DATA_DIR, 'events.sqlite'));
  // The users' keys live in the read store: events are exported opened and upcast, erased ones with `data: null`.
  const keys = config.MONGO_URL
    ? await (await import('./readstore/mongo-read-store')).openMongoReadStore(config.MONGO_URL, config.MONGO_DB)
    : await (await import('./readstore/embedded-read-store')).openEmbeddedReadStore(path.resolve(config.DATA_DIR, 'read-models.sqlite'));
  const store = historyStore(raw, keys).events;
  let after = flag(args, 'after', 0);
  let left = flag(args, 'limit', Number.MAX_SAFE_INTEGER);
  try {
    while (left > 0) {
      const page = await store.readAll(after, Math.min(1000, left));
      if (page.length === 0) break;
      for (const e of page) process.stdout.write(`${JSON.stringify(e)}\n`);
      after = page[page.length - 1].position;
      left -= page.length;
    }
  } finally {
    await store.close();
    await keys.close();
  }
}

async function admin(method: string, route: string): Promise<void> {
  const config = loadConfig();
  if (!config.ADMIN_TOKEN) throw new Error('set ADMIN_TOKEN (the same as the running service)');
  const base = process.env.ADMIN_URL ?? `http://127.0.0.1:${config.PORT}`;
  const res = await fetch(`${base}/admin${route}`, { method, headers: { authorization: `Bearer ${config.ADMIN_TOKEN}` } });
  process.stdout.write(`${JSON.stringify(await res.json(), null, 2)}\n`);
  if (!res.ok) process.exitCode = 1;
}

async function main(args: string[]): Promise<void> {
  const [area, command, name] = args;
  if (area === 'events' && command === 'export') return exportEvents(args);
  if (area === 'projections' && command === 'status') return admin('GET', '/projections');
  if (area === 'projections' && command === 'rebuild' && name) return admin('POST', `/projections/${encodeURIComponent(name)}/rebuild`);
  process.stderr.write('usage: cli events export [--after N] [--limit N] | projections status | projections rebuild <name>\n');
  process.exitCode = 2;
}

main(process.argv.slice(2)).catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exitCode = 1;
});
