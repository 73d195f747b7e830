/** The thread read-thread.ts starts: reads iCalendar texts off the request thread and hands back what it read. */
import { parentPort } from 'node:worker_threads';
import { ApiError } from '../errors';
import { readCalendar, type ReadOptions, type ReadResult } from './read';

export type ToReadThread = { id: number; text: string; options: ReadOptions };
export type FromReadThread =
  | { id: number; read: ReadResult }
  | { id: number; refused: { status: number; code: string; message: string; details?: unknown } }
  | { id: number; failed: string };

parentPort!.on('message', ({ id, text, options }: ToReadThread) => {
  let reply: FromReadThread;
  try {
    reply = { id, read: readCalendar(text, options) };
  } catch (err) {
    reply = err instanceof ApiError
      ? { id, refused: { status: err.status, code: err.code, message: err.message, details: err.details } }
      : { id, failed: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
