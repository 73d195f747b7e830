/**
 * Reading a large iCalendar text takes about a second of CPU for 10 MB (ical.js's parse, then ours): on the request
 * thread it would hold up every other request for as long. One worker thread reads them, one after another; where
 * its compiled code is not there (a TypeScript run without a build) the text is read here.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../errors';
import { readCalendar, type ReadOptions, type ReadResult } from './read';
import type { FromReadThread, ToReadThread } from './read-worker';

const WORKER_FILE = __filename.endsWith('.ts')
  ? path.resolve(__dirname, '../../dist/services/ical/read-worker.js')
  : path.join(__dirname, 'read-worker.js');

/** Texts this short are read here: handing them over costs more than reading them. */
const OFF_THREAD_BYTES = 256 * 1024;

let worker: Worker | null = null;
let nextId = 0;
const calls = new Map<number, { resolve(read: ReadResult): void; reject(err: Error): void }>();

function failAll(reason: string): void {
  worker = null;
  for (const call of calls.values()) call.reject(new Error(`iCalendar reader thread stopped: ${reason}`));
  calls.clear();
}

function started(): Worker {
  if (worker) return worker;
  const w = new Worker(WORKER_FILE);
  w.on('message', (m: FromReadThread) => {
    const call = calls.get(m.id);
    if (!call) return;
    calls.delete(m.id);
    if (calls.size === 0) w.unref();
    if ('read' in m) call.resolve(m.read);
    else if ('refused' in m) call.reject(new ApiError(m.refused.status, m.refused.code, m.refused.message, m.refused.details));
    else call.reject(new Error(`iCalendar reader thread: ${m.failed}`));
  });
  w.on('error', (err) => failAll(err.message));
  w.on('exit', (code) => w === worker && failAll(`exited with ${code}`));
  return (worker = w);
}

/** `readCalendar`, off the request thread for large texts. */
export async function readCalendarOffThread(text: string, options: ReadOptions): Promise<ReadResult> {
  if (text.length < OFF_THREAD_BYTES || !existsSync(WORKER_FILE)) return readCalendar(text, options);
  const w = started();
  // Referenced while it reads (the answer is awaited), not while idle: an idle reader never keeps the process alive.
  w.ref();
  const id = nextId++;
  return new Promise<ReadResult>((resolve, reject) => {
    calls.set(id, { resolve, reject });
    w.postMessage({ id, text, options } satisfies ToReadThread);
  });
}
