/**
 * Fixed-window rate limits, with the IETF RateLimit-* headers on every API response and 429 rate_limited +
 * Retry-After past the limit. Only a verified credential gets a bucket of its own; every other call (no token, an
 * unknown or forged one) counts against its client address (an IPv6 address by its /64). Counters live in this
 * process's memory: with several API processes each enforces its own share.
 *
 * Memory is bounded: at most `maxBuckets` windows. The map is kept in order of window start, so expired windows are
 * dropped from its front; when every slot holds a live window, a newcomer shares one overflow bucket (per-address
 * limit) rather than evicting anyone, so flooding the table can never reset another client's count.
 */
import type { NextFunction, Request, Response } from 'express';
import { isIPv6 } from 'node:net';
import { ApiError } from '../errors';
import type { Principal } from './principal';

export interface RateLimits {
  perCredential: number;
  perIp: number;
  windowMs: number;
  /** Most windows kept at once (default 100,000). */
  maxBuckets?: number;
}

interface Window {
  start: number;
  count: number;
}

/** The shared bucket of newcomers while every other slot holds a live window (one slot is kept for it). */
const OVERFLOW = 'overflow';

/** The first four groups of an IPv6 address (its /64); IPv4 and IPv4-mapped addresses as they are. */
export function addressKey(ip: string): string {
  if (!isIPv6(ip) || /^::ffff:\d/i.test(ip)) return ip.replace(/^::ffff:/i, '');
  const [head, tail = ''] = ip.split('::');
  const left = head ? head.split(':') : [];
  const right = ip.includes('::') && tail ? tail.split(':') : [];
  const groups = [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups.slice(0, 4).map((g) => g.toLowerCase().replace(/^0+(?=.)/, '')).join(':')}::/64`;
}

export class RateLimiter {
  private readonly windows = new Map<string, Window>();
  private readonly maxBuckets: number;

  constructor(private readonly limits: RateLimits) {
    this.maxBuckets = limits.maxBuckets ?? 100_000;
  }

  get size(): number {
    return this.windows.size;
  }

  /** Counts one call against `key` and tells whether it is within `limit`. */
  hit(key: string, limit: number, now = Date.now()): { limit: number; remaining: number; resetS: number; allowed: boolean } {
    this.dropExpired(now);
    let w = this.windows.get(key);
    if (!w && key !== OVERFLOW && this.windows.size >= this.maxBuckets - 1) {
      return this.hit(OVERFLOW, Math.min(limit, this.limits.perIp), now);
    }
    if (!w) {
      w = { start: now, count: 0 };
      this.windows.set(key, w);
    }
    w.count++;
    const resetS = Math.max(1, Math.ceil((w.start + this.limits.windowMs - now) / 1000));
    return { limit, remaining: Math.max(0, limit - w.count), resetS, allowed: w.count <= limit };
  }

  private dropExpired(now: number): void {
    for (const [key, w] of this.windows) {
      if (now - w.start < this.limits.windowMs) return;
      this.windows.delete(key);
    }
  }
}

export function rateLimit(limits: RateLimits, identify: (req: Request) => Promise<Principal | null>) {
  const limiter = new RateLimiter(limits);
  return async (req: Request, res: Response, next: NextFunction) => {
    // A credential that fails verification is refused later by the route; here it counts as no credential.
    const principal = await identify(req).catch(() => null);
    const r = principal
      ? limiter.hit(`credential:${principal.credentialId}`, limits.perCredential)
      : limiter.hit(`address:${addressKey(req.ip ?? 'unknown')}`, limits.perIp);
    res.setHeader('RateLimit-Limit', String(r.limit));
    res.setHeader('RateLimit-Remaining', String(r.remaining));
    res.setHeader('RateLimit-Reset', String(r.resetS));
    res.setHeader('RateLimit-Policy', `${r.limit};w=${Math.round(limits.windowMs / 1000)}`);
    if (!r.allowed) {
      res.setHeader('Retry-After', String(r.resetS));
      return next(new ApiError(429, 'rate_limited', `Too many requests; retry in ${r.resetS} s`));
    }
    next();
  };
}
