/**
 * Fair shares of the expensive reads (availability, free/busy, slots, routine conflicts, planning): each caller (a
 * credential, or the address of an anonymous one) runs at most `perCaller` of them at once and everyone together at
 * most `total`; the rest wait, each caller in its own line, and a freed place goes to the callers in turn, so one
 * caller's thirty requests never stand between another caller and their first. A caller with `queuePerCaller`
 * waiting is told 429 `too_many_concurrent_requests` at once; a request that waited `maxWaitMs` without a place is
 * told 503 `overloaded`. Both carry Retry-After. Every request the rate limit lets through is legal; this bounds
 * how much of the machine one caller's legal requests take.
 */
import { ApiError } from '../errors';
import { errorBody } from './errors';

export interface FairShareOptions {
  perCaller: number;
  total: number;
  queuePerCaller: number;
  maxWaitMs: number;
}

interface Waiter {
  admit(placed: boolean): void;
  timer: NodeJS.Timeout;
}

interface Line {
  running: number;
  waiting: Waiter[];
  /** When the caller last got a place (a count of places handed out); 0: never. */
  servedAt: number;
}

/** The answer instead of running (a route's Reply). */
export interface Refusal {
  status: 429 | 503;
  body: unknown;
  headers: Record<string, string>;
}

const refusal = (status: 429 | 503, code: string, message: string, retryAfterS: number, details: unknown): Refusal => ({
  status,
  body: errorBody(new ApiError(status, code, message, details)),
  headers: { 'Retry-After': String(retryAfterS) },
});

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

export class FairShare {
  private running = 0;
  private served = 0;
  /** Callers running or waiting. */
  private readonly lines = new Map<string, Line>();

  constructor(private readonly o: FairShareOptions) {}

  /** Runs `work` once the caller has a place; the refusal reply instead when it gets none. */
  async run<T>(caller: string, work: () => Promise<T>): Promise<T | Refusal> {
    const line = this.lines.get(caller) ?? { running: 0, waiting: [], servedAt: 0 };
    this.lines.set(caller, line);
    if (line.waiting.length === 0 && line.running < this.o.perCaller && this.running < this.o.total) {
      this.take(line);
      // Each request's work begins on a later turn of the event loop, after what already arrived reached this gate: with
      // a store that answers at once, requests would otherwise run one after another and never meet here.
      await nextTurn();
    } else if (line.waiting.length >= this.o.queuePerCaller) {
      this.forgetIdle(caller, line);
      return refusal(429, 'too_many_concurrent_requests',
        `At most ${this.o.perCaller} of these requests run at once per credential and ${this.o.queuePerCaller} wait; retry when one has answered`,
        1, { running: this.o.perCaller, waiting: this.o.queuePerCaller });
    } else if (!(await this.wait(line))) {
      this.forgetIdle(caller, line);
      return refusal(503, 'overloaded', 'The service is busy with requests like this one; try again shortly', Math.ceil(this.o.maxWaitMs / 1000), undefined);
    }
    try {
      return await work();
    } finally {
      line.running--;
      this.running--;
      this.forgetIdle(caller, line);
      this.offer();
    }
  }

  private take(line: Line): void {
    line.running++;
    this.running++;
    line.servedAt = ++this.served;
  }

  /** Resolves true once `offer` handed the line a place (already taken for it), false when none came in time. */
  private wait(line: Line): Promise<boolean> {
    return new Promise((resolve) => {
      const waiter: Waiter = {
        admit: resolve,
        timer: setTimeout(() => {
          line.waiting.splice(line.waiting.indexOf(waiter), 1);
          resolve(false);
        }, this.o.maxWaitMs),
      };
      waiter.timer.unref();
      line.waiting.push(waiter);
    });
  }

  /** Hands freed places to waiting callers: to the one running fewest, and among those to the one served longest ago. */
  private offer(): void {
    while (this.running < this.o.total) {
      let next: Line | null = null;
      for (const line of this.lines.values()) {
        if (line.waiting.length === 0 || line.running >= this.o.perCaller) continue;
        if (!next || line.running < next.running || (line.running === next.running && line.servedAt < next.servedAt)) next = line;
      }
      if (!next) return;
      this.take(next);
      const waiter = next.waiting.shift()!;
      clearTimeout(waiter.timer);
      // On a later turn: the request that freed the place answers first, and what arrived meanwhile is read.
      setImmediate(() => waiter.admit(true));
    }
  }

  private forgetIdle(caller: string, line: Line): void {
    if (line.running === 0 && line.waiting.length === 0) this.lines.delete(caller);
  }
}
