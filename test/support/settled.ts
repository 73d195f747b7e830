/**
 * Waiting in the fault suites. After a kill the service catches up at the pace of the machine: on a loaded CI runner,
 * with every read-model write a round trip to FerretDB, a thousand events can take minutes. What such a suite must
 * catch is a system that stops, not one that is slow, so these waits fail once the progress they watch has not moved
 * for a while, instead of after a fixed time.
 */

/** How long a wait sees no progress before it fails. */
export const STALL_MS = 90_000;

export interface Look<T> {
  done: boolean;
  /** Anything that changes while the system moves on (positions, counts, statuses); compared as JSON. */
  progress: unknown;
  value?: T;
}

/** Polls `look` until it says done; fails when its progress stayed the same for `stallMs`. */
export async function untilSettled<T>(what: string, look: () => Promise<Look<T>>, stallMs = STALL_MS, everyMs = 250): Promise<T | undefined> {
  let last = '';
  let movedAt = Date.now();
  for (;;) {
    const seen = await look();
    if (seen.done) return seen.value;
    const progress = JSON.stringify(seen.progress);
    if (progress !== last) {
      last = progress;
      movedAt = Date.now();
    } else if (Date.now() - movedAt > stallMs) {
      throw new Error(`${what}: no progress for ${stallMs} ms, stuck at ${progress}`);
    }
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** How many times `afterBusy` sends a request that keeps being answered 503. */
const BUSY_TRIES = 20;

/**
 * Sends a request again after a 503 (a store too busy to answer within its bound: FerretDB on a loaded machine), once
 * the Retry-After it names has passed, as the API asks clients to; any other answer, or the last 503, is returned.
 */
export async function afterBusy<R extends { status: number; headers: Headers }>(send: () => Promise<R>): Promise<R> {
  for (let tries = 1; ; tries++) {
    const res = await send();
    if (res.status !== 503 || tries === BUSY_TRIES) return res;
    await new Promise((r) => setTimeout(r, Math.max(1, Number(res.headers.get('retry-after')) || 1) * 1000));
  }
}
