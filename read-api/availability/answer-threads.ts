/**
 * Worker threads for large availability answers: a calendar with thousands of occurrences in the range takes tens of
 * milliseconds to answer, which on the request's thread would hold up every other request for as long. Inputs go over
 * by structured clone (about 1.5 µs an event each way, which is why small answers stay on the request's thread), the
 * JSON comes back as a transferred buffer. A thread that dies fails what it was working on and is replaced.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { ApiError } from '../../services/errors';
import type { FromAnswerThread, ToAnswerThread } from './answer-worker';
import type { AnswerJob } from './answer-job';

export interface AnswerThreads {
  answer(job: AnswerJob): Promise<Buffer>;
  close(): Promise<void>;
}

/** Compiled code runs in the thread: the build's file beside this one, or its copy when this module runs as TypeScript. */
const WORKER_FILE = __filename.endsWith('.ts')
  ? path.resolve(__dirname, '../../dist/read-api/availability/answer-worker.js')
  : path.join(__dirname, 'answer-worker.js');

interface Call {
  resolve(json: Buffer): void;
  reject(err: Error): void;
}

function answerThread() {
  let worker: Worker | null = null;
  let nextId = 0;
  const calls = new Map<number, Call>();
  const failAll = (reason: string) => {
    worker = null;
    for (const call of calls.values()) call.reject(new Error(`answer thread stopped: ${reason}`));
    calls.clear();
  };
  const start = () => {
    const w = new Worker(WORKER_FILE);
    w.unref();
    w.on('message', (m: FromAnswerThread) => {
      const call = calls.get(m.id);
      if (!call) return;
      calls.delete(m.id);
      if ('json' in m) call.resolve(Buffer.from(m.json.buffer, m.json.byteOffset, m.json.byteLength));
      else if ('refused' in m) call.reject(new ApiError(m.refused.status, m.refused.code, m.refused.message, m.refused.details));
      else call.reject(new Error(`answer thread: ${m.failed}`));
    });
    w.on('error', (err) => failAll(err.message));
    w.on('exit', (code) => w === worker && failAll(`exited with ${code}`));
    return w;
  };
  return {
    get pending() {
      return calls.size;
    },
    answer(job: AnswerJob): Promise<Buffer> {
      worker ??= start();
      const id = nextId++;
      const w = worker;
      return new Promise<Buffer>((resolve, reject) => {
        calls.set(id, { resolve, reject });
        w.postMessage({ id, job } satisfies ToAnswerThread);
      });
    },
    async close() {
      const w = worker;
      worker = null;
      await w?.terminate();
    },
  };
}

/** `threads` answer threads (none: null), or null where the worker's code is not built (a TypeScript run without a build). */
export function answerThreads(threads: number): AnswerThreads | null {
  if (threads < 1 || !existsSync(WORKER_FILE)) return null;
  const pool = Array.from({ length: threads }, answerThread);
  return {
    answer: (job) => pool.reduce((least, t) => (t.pending < least.pending ? t : least)).answer(job),
    close: async () => {
      await Promise.all(pool.map((t) => t.close()));
    },
  };
}
