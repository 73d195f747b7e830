/**
 * Catch-up pages of the embedded log read and opened on worker threads (log-pages-worker.ts), so that a rebuild's
 * reading and decrypting run beside its applying instead of before it: they were more than half of a rebuild's time on
 * the event loop; a reader asking for pages ahead (pages-ahead.ts) keeps two threads busy. The keys stay with the main
 * thread's UserKeys (their cache, their erasure rules): a worker is handed those of the users its previous page was
 * sealed for with each read, asks for any others, and forgets them after the page. Used by decoding-event-store.ts for
 * readAllOf and readAll (exports), and only for full pages (far behind the head): near the head, the trip costs more
 * than it saves.
 */
import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { RecordedEvent } from './event-store.port';

export type ToWorker =
  /** `types` null: every type. `keys`: those of the users the thread's previous page was sealed for, read just now. */
  | { op: 'read'; id: number; after: number; limit: number; types: string[] | null; keys: Array<[string, Uint8Array | null]> }
  /** The keys asked for; null when they could not be read (the page fails). */
  | { op: 'keys'; id: number; keys: Array<[string, Uint8Array | null]> | null };

export type FromWorker =
  | { id: number; need: string[] }
  /** Each event's data as JSON text, or null when redacted; `owners`: the users whose keys the page was sealed for. */
  | { id: number; page: { events: RecordedEvent[]; reached: number }; owners: string[] }
  | { id: number; error: string };

export interface LogPages {
  /**
   * As EventStore.readAllOf (readAll where `types` is null), each event's data opened with the keys `keyFor` gives
   * (`redacted` where one is gone).
   */
  readAllOf(
    after: number,
    limit: number,
    types: ReadonlySet<string> | null,
    keyFor: (userId: string) => Promise<Buffer | null>,
  ): Promise<{ events: RecordedEvent[]; reached: number }>;
  /** False once the worker stopped (it failed): readers go back to their own thread. */
  readonly working: boolean;
  /** Whether a worker thread is up now (it is between catch-ups only while IDLE_MS have not passed). */
  readonly running: boolean;
  close(): Promise<void>;
}

/** A worker asked for nothing this long stops; the next page starts another. */
const IDLE_MS = 5000;

/**
 * The worker runs compiled code: the build's file beside this one, or, when this module runs as TypeScript (the test
 * runner, after `npm run build`), the build's copy of it.
 */
const WORKER_FILE = __filename.endsWith('.ts')
  ? path.resolve(__dirname, '../../dist/services/eventstore/log-pages-worker.js')
  : path.join(__dirname, 'log-pages-worker.js');

/** Worker threads at most: a second one serves readers that ask for pages ahead while the first is busy. */
const THREADS = Math.min(2, availableParallelism());

/**
 * Null where the worker's code is not built (a TypeScript run without a build): callers read on their own thread.
 * Each page goes to the thread with the fewest pages in hand, so a reader asking for one page at a time keeps to
 * one thread. Should one thread fail, `working` turns false and readers stay on their own thread.
 */
export function logPagesOffThread(file: string, idleMs = IDLE_MS, threads = THREADS): LogPages | null {
  if (!existsSync(WORKER_FILE)) return null;
  const pool = Array.from({ length: Math.max(1, threads) }, () => pagesThread(file, idleMs));
  return {
    get working() {
      return pool.every((t) => t.working);
    },
    get running() {
      return pool.some((t) => t.running);
    },
    readAllOf: (after, limit, types, keyFor) =>
      pool.reduce((least, t) => (t.pending < least.pending ? t : least)).readAllOf(after, limit, types, keyFor),
    close: async () => {
      await Promise.all(pool.map((t) => t.close()));
    },
  };
}

/**
 * One worker thread. It starts with the first page asked for and stops once none was asked for IDLE_MS (a catch-up
 * ended), so that a process at the head keeps no thread, heap and SQLite cache for it. Should it fail, what it was
 * asked fails.
 */
function pagesThread(file: string, idleMs: number): LogPages & { readonly pending: number } {
  let worker: Worker | null = null;
  let ended: string | null = null;
  let nextId = 0;
  const calls = new Map<number, Call>();
  let idle: NodeJS.Timeout | null = null;
  /**
   * The users the last page was sealed for: their keys go with the next read, read from `keyFor` when it is asked
   * for (what it gives then, as for keys the worker asks for). The next page mostly needs the same users, and a
   * worker asking for them waits until the main thread's event loop is free, often a whole page applied later.
   */
  let lastOwners: string[] = [];
  const keysOf = (users: readonly string[], keyFor: Call['keyFor']) =>
    Promise.all(users.map(async (user) => [user, await keyFor(user)] as [string, Buffer | null]));
  const stopped = (reason: string) => {
    ended ??= reason;
    worker = null;
    for (const call of calls.values()) call.reject(new Error(`log pages worker stopped: ${reason}`));
    calls.clear();
  };
  const retire = () => {
    const w = worker;
    worker = null;
    w?.removeAllListeners();
    void w?.terminate();
  };
  const settled = (id: number) => {
    calls.delete(id);
    if (calls.size > 0 || !worker) return;
    idle = setTimeout(retire, idleMs);
    idle.unref();
  };
  const answer = (message: FromWorker) => {
    const call = calls.get(message.id);
    if (!call) return;
    if ('need' in message) {
      void keysOf(message.need, call.keyFor).then(
        (keys) => worker?.postMessage({ op: 'keys', id: message.id, keys } satisfies ToWorker),
        (error: Error) => {
          worker?.postMessage({ op: 'keys', id: message.id, keys: null } satisfies ToWorker);
          settled(message.id);
          call.reject(error);
        },
      );
      return;
    }
    settled(message.id);
    if ('error' in message) return call.reject(new Error(message.error));
    const { events, reached } = message.page;
    lastOwners = message.owners;
    for (const e of events) if (!e.redacted) e.data = JSON.parse(e.data as string);
    call.resolve({ events, reached });
  };
  const started = (): Worker => {
    if (worker) return worker;
    const w = new Worker(WORKER_FILE, { workerData: { file } });
    w.unref();
    w.on('error', (error) => stopped(error.message));
    w.on('exit', (code) => stopped(`exit ${code}`));
    w.on('message', answer);
    return (worker = w);
  };

  return {
    get working() {
      return ended === null;
    },
    get running() {
      return worker !== null;
    },
    get pending() {
      return calls.size;
    },
    readAllOf(after, limit, types, keyFor) {
      return new Promise((resolve, reject) => {
        if (ended) return reject(new Error(`log pages worker stopped: ${ended}`));
        if (idle) clearTimeout(idle);
        idle = null;
        const id = nextId++;
        calls.set(id, { keyFor, resolve, reject });
        const thread = started();
        keysOf(lastOwners, keyFor).then(
          (keys) => thread.postMessage({ op: 'read', id, after, limit, types: types && [...types], keys } satisfies ToWorker),
          (error: Error) => {
            settled(id);
            reject(error);
          },
        );
      });
    },
    async close() {
      if (idle) clearTimeout(idle);
      const w = worker;
      stopped('closed');
      await w?.terminate();
    },
  };
}

interface Call {
  keyFor: (userId: string) => Promise<Buffer | null>;
  resolve: (page: { events: RecordedEvent[]; reached: number }) => void;
  reject: (error: Error) => void;
}
