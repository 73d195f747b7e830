/**
 * WAL checkpoints off the event loop. A commit that crosses SQLite's auto-checkpoint threshold copies the WAL into
 * the database and fsyncs both, inside the commit, stalling every request for as long. Instead the embedded stores
 * turn that threshold far up (a safety net only), and one worker thread per process checkpoints each registered
 * file on its own connection every CHECKPOINT_EVERY_MS (PASSIVE: it never waits for or blocks a writer).
 */
import { Worker } from 'node:worker_threads';

const CHECKPOINT_EVERY_MS = 200;
/** Settings for the writing connection: auto-checkpoints only should the worker fall behind; a reset WAL shrinks. */
export const WRITER_PRAGMAS = ['wal_autocheckpoint = 50000', `journal_size_limit = ${8 * 2 ** 20}`];

// Plain JavaScript so that it runs the same from the build and under the test runner.
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.driver);
const files = new Map();
setInterval(() => {
  for (const db of files.values()) {
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* busy or gone: the next round tries again */ }
  }
}, workerData.everyMs);
parentPort.on('message', ({ op, file, id }) => {
  try {
    if (op === 'add' && !files.has(file)) files.set(file, new Database(file, { fileMustExist: true }));
    if (op === 'remove') { files.get(file)?.close(); files.delete(file); }
  } catch { /* a file it cannot open is simply not checkpointed here */ }
  parentPort.postMessage(id);
});
`;

let worker: Worker | null = null;
let users = 0;
let nextId = 0;
const pending = new Map<number, () => void>();

function call(op: 'add' | 'remove', file: string): Promise<void> {
  const id = nextId++;
  return new Promise((resolve) => {
    if (!worker) return resolve();
    pending.set(id, resolve);
    worker.postMessage({ op, file, id });
  });
}

/** Checkpoints `file` in the background until the returned function is called (before the store closes it). */
export async function checkpointInBackground(file: string): Promise<() => Promise<void>> {
  if (!worker) {
    worker = new Worker(WORKER, { eval: true, workerData: { driver: require.resolve('better-sqlite3'), everyMs: CHECKPOINT_EVERY_MS } });
    worker.unref();
    worker.on('message', (id: number) => {
      pending.get(id)?.();
      pending.delete(id);
    });
    // Should the worker die, waiting callers go on; the safety net threshold still bounds every WAL.
    worker.on('exit', () => {
      for (const resolve of pending.values()) resolve();
      pending.clear();
      worker = null;
    });
  }
  users++;
  await call('add', file);
  let stopped = false;
  return async () => {
    if (stopped) return;
    stopped = true;
    await call('remove', file);
    if (--users === 0 && worker) {
      const done = worker;
      worker = null;
      await done.terminate();
    }
  };
}
