/**
 * The worker thread of log-pages.ts: reads pages of the embedded log on a read-only connection of its own and opens
 * their sealed data, layer by layer, with the keys the main thread hands over for that page (it keeps none). Each
 * event goes back with its data as JSON text, for the main thread to parse (null when redacted).
 */
import { parentPort, workerData } from 'node:worker_threads';
import Database from 'better-sqlite3';
import { envelopeOfText, erased, openLayer, sealedFor } from './sealing';
import { AT, sqliteLogReader, type Row } from './sqlite-log-reader';
import { unquoteId } from './sqlite-event-codec';
import type { FromWorker, ToWorker } from './log-pages';

const port = parentPort!;
const db = new Database((workerData as { file: string }).file, { readonly: true, fileMustExist: true });
const log = sqliteLogReader(db);
const keysArrived = new Map<number, (keys: Array<[string, Uint8Array | null]> | null) => void>();

interface Opening {
  row: Row;
  eventId: string;
  text: string;
  redacted: boolean;
}

/** Opens what the keys at hand open; the users whose keys are still needed. `owners` gets every key owner met. */
function peel(events: Opening[], keys: Map<string, Buffer | null>, owners: Set<string>): Set<string> {
  const needed = new Set<string>();
  for (const e of events) {
    while (!e.redacted) {
      const envelope = envelopeOfText(e.text);
      if (envelope === null) break;
      const owner = sealedFor(envelope);
      owners.add(owner);
      if (!keys.has(owner)) {
        needed.add(owner);
        break;
      }
      const key = keys.get(owner);
      if (!key) e.redacted = true;
      else e.text = openLayer(key, e.eventId, envelope);
    }
  }
  return needed;
}

const askKeys = (id: number, users: string[]) =>
  new Promise<Array<[string, Uint8Array | null]>>((resolve, reject) => {
    keysArrived.set(id, (keys) => (keys ? resolve(keys) : reject(new Error('the keys could not be read'))));
    port.postMessage({ id, need: users } satisfies FromWorker);
  });

/** The next `limit` positions' rows, of `types` only unless null. */
function rowsOf(after: number, limit: number, types: string[] | null) {
  if (types) return log.rowsOf(after, limit, types);
  const rows = log.readAll(after, limit);
  return { rows, reached: rows.at(-1)?.[AT.position] ?? after };
}

async function read({ id, after, limit, types, keys: given }: Extract<ToWorker, { op: 'read' }>): Promise<void> {
  const { rows, reached } = rowsOf(after, limit, types);
  const events: Opening[] = rows.map((row) => ({ row, eventId: unquoteId(row[AT.eventId])!, text: row[AT.data], redacted: false }));
  const keys = new Map<string, Buffer | null>();
  const take = (handed: Array<[string, Uint8Array | null]>) => {
    for (const [user, key] of handed) keys.set(user, key && Buffer.from(key));
  };
  take(given);
  const owners = new Set<string>();
  for (let needed = peel(events, keys, owners); needed.size > 0; needed = peel(events, keys, owners)) {
    take(await askKeys(id, [...needed]));
  }
  const page = events.map((e) => (e.redacted ? erased(log.toRecorded(e.row, null)) : log.toRecorded(e.row, e.text)));
  port.postMessage({ id, page: { events: page, reached }, owners: [...owners] } satisfies FromWorker);
}

port.on('message', (message: ToWorker) => {
  if (message.op === 'keys') {
    keysArrived.get(message.id)?.(message.keys);
    keysArrived.delete(message.id);
    return;
  }
  read(message).catch((error: unknown) =>
    port.postMessage({ id: message.id, error: String((error as Error)?.stack ?? error) } satisfies FromWorker),
  );
});
