/**
 * Repeated failed sign-ins slow down and then stop, for whoever fails: counts are kept per client address (an IPv6
 * address by its /64) and per email *at* that address, never per email alone, so someone guessing a person's
 * password from one address slows and locks only themselves; the person signing in from anywhere else is never
 * delayed or refused.
 *
 * Per (email, address): after `freeFailures` failures within the window each further attempt waits twice as long as
 * the one before (capped); past `maxFailures`, 429 until the window ends. Per address, on a scale a hundred times
 * larger (many people may share one address): the same slowdown, and 429 past a hundred times `maxFailures`, so a
 * guesser spraying many emails from one address stops too. A success clears the count of its email at its address.
 *
 * Counters live in this process's memory, at most `maxKeys` of each kind, in order of their window's start so that
 * expired windows drop from the front. While a table is full of live windows a newcomer is not counted in it:
 * flooding the table never resets or raises anyone else's count (an attacker who fills the pair table is still
 * counted, and stopped, by address).
 */
import { ApiError } from '../errors';
import { addressKey } from './rate-limit';

export interface LoginThrottleOptions {
  freeFailures: number;
  maxFailures: number;
  windowMs: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** Most windows kept per kind (default 100,000). */
  maxKeys?: number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

const ADDRESS_FACTOR = 100;

interface Count {
  failures: number;
  since: number;
}

/** Failure counts in fixed windows, bounded in number. */
class Counts {
  private readonly counts = new Map<string, Count>();

  constructor(private readonly windowMs: number, private readonly maxKeys: number) {}

  get(key: string, now: number): Count | undefined {
    this.dropExpired(now);
    return this.counts.get(key);
  }

  add(key: string, now: number): void {
    const count = this.get(key, now);
    if (count) count.failures++;
    else if (this.counts.size < this.maxKeys) this.counts.set(key, { failures: 1, since: now });
  }

  delete(key: string): void {
    this.counts.delete(key);
  }

  private dropExpired(now: number): void {
    for (const [key, count] of this.counts) {
      if (now - count.since <= this.windowMs) return;
      this.counts.delete(key);
    }
  }
}

const pairKey = (email: string, address: string) => `${email.toLowerCase()}\u0000${address}`;

export class LoginThrottle {
  private readonly pairs: Counts;
  private readonly addresses: Counts;
  private readonly now: () => number;
  private readonly sleep: (ms: number) => Promise<void>;

  constructor(private readonly o: LoginThrottleOptions) {
    this.pairs = new Counts(o.windowMs, o.maxKeys ?? 100_000);
    this.addresses = new Counts(o.windowMs, o.maxKeys ?? 100_000);
    this.now = o.now ?? Date.now;
    this.sleep = o.sleep ?? ((ms) => new Promise((resolve) => setTimeout(resolve, ms)));
  }

  /** Refuses (429) an email at an address, or an address, past its limit; otherwise waits as long as either demands. */
  async beforeAttempt(email: string, ip: string): Promise<void> {
    const now = this.now();
    const address = addressKey(ip);
    const pair = this.pairs.get(pairKey(email, address), now);
    const byAddress = this.addresses.get(address, now);
    for (const [count, limit] of [[pair, this.o.maxFailures], [byAddress, this.o.maxFailures * ADDRESS_FACTOR]] as const) {
      if (!count || count.failures < limit) continue;
      const retryAfter = Math.max(1, Math.ceil((count.since + this.o.windowMs - now) / 1000));
      throw new ApiError(429, 'rate_limited', `Too many failed sign-ins; retry in ${retryAfter} s`, { retryAfter });
    }
    const over = Math.floor(Math.max(pair?.failures ?? 0, (byAddress?.failures ?? 0) / ADDRESS_FACTOR) - this.o.freeFailures);
    if (over >= 0) await this.sleep(Math.min(this.o.maxDelayMs, this.o.baseDelayMs * 2 ** over));
  }

  failed(email: string, ip: string): void {
    const now = this.now();
    const address = addressKey(ip);
    this.pairs.add(pairKey(email, address), now);
    this.addresses.add(address, now);
  }

  succeeded(email: string, ip: string): void {
    this.pairs.delete(pairKey(email, addressKey(ip)));
  }
}
