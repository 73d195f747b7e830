/**
 * An answer thread (answer-threads.ts): works out availability answers from their inputs and hands back the JSON,
 * or the refusal the engine made (a range too long, more occurrences than the budget).
 */
import { parentPort } from 'node:worker_threads';
import { ApiError } from '../../services/errors';
import { answerOfJob, type AnswerJob } from './answer-job';

export type ToAnswerThread = { id: number; job: AnswerJob };
export type FromAnswerThread =
  | { id: number; json: Uint8Array }
  | { id: number; refused: { status: number; code: string; message: string; details?: unknown } }
  | { id: number; failed: string };

const encoder = new TextEncoder();

parentPort!.on('message', ({ id, job }: ToAnswerThread) => {
  let reply: FromAnswerThread;
  try {
    // Its own buffer (not a slice of a shared pool), so it can be handed over rather than copied.
    const json = encoder.encode(JSON.stringify(answerOfJob(job)));
    return parentPort!.postMessage({ id, json } satisfies FromAnswerThread, [json.buffer as ArrayBuffer]);
  } catch (err) {
    reply = err instanceof ApiError
      ? { id, refused: { status: err.status, code: err.code, message: err.message, details: err.details } }
      : { id, failed: err instanceof Error ? err.message : String(err) };
  }
  parentPort!.postMessage(reply);
});
