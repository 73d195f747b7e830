/**
 * Repeated failed logins slow down: after `freeFailures` failures for one email within the window (a hundred times as
 * many from one address, which many people may share), each further attempt waits twice as long as the one before
 * (capped). Past `maxFailures` for one email, that email is refused with 429 until the window ends. A success clears
 * the email's count. Counters live in this process's memory.
 */
import { ApiError } from '../errors';

export interface LoginThrottleOptions {
  freeFailures: number;
  maxFailures: number;
  windowMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
}

const ADDRESS_FACTOR = 100;

interface Count {
  failures: number;
  since: number;
}

export class LoginThrottle {
  private readonly counts = new Map<string, Count>();

  constructor(private readonly o: LoginThrottleOptions) {}

  private current(key: string, now: number): Count {
    const c = this.counts.get(key);
    if (!c || now - c.since > this.o.windowMs) return { failures: 0, since: now };
    return c;
  }

  /** Refuses an email past its limit (429); otherwise waits as long as the email or the address demands. */
  async beforeAttempt(email: string, ip: string): Promise<void> {
    const now = Date.now();
    const byEmail = this.current(`e:${email.toLowerCase()}`, now);
    if (byEmail.failures >= this.o.maxFailures) {
      const retry = Math.ceil((byEmail.since + this.o.windowMs - now) / 1000);
      throw new ApiError(429, 'rate_limited', `Too many failed sign-ins; retry in ${retry} s`, { retryAfter: retry });
    }
    // An address only ever slows down, on a scale a hundred times larger: people behind one NAT must not lock each
    // other out, and a guesser spraying many emails from one address still gets slower and slower.
    const byIp = this.current(`i:${ip}`, now).failures / ADDRESS_FACTOR;
    const over = Math.floor(Math.max(byEmail.failures, byIp) - this.o.freeFailures);
    if (over >= 0) await new Promise((r) => setTimeout(r, Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** over)));
  }

  failed(email: string, ip: string): void {
    const now = Date.now();
    for (const key of [`e:${email.toLowerCase()}`, `i:${ip}`]) {
      const c = this.current(key, now);
      this.counts.set(key, { failures: c.failures + 1, since: c.since });
    }
    if (this.counts.size > 100_000) this.counts.clear(); // a flood of distinct keys must not exhaust memory
  }

  succeeded(email: string): void {
    this.counts.delete(`e:${email.toLowerCase()}`);
  }
}
