/**
 * Fixed-window rate limits, per credential for authenticated calls and per client IP otherwise, with the IETF
 * RateLimit-* headers on every API response and 429 rate_limited + Retry-After past the limit. Counters live in
 * this process's memory: with several API processes each enforces its own share.
 */
import type { NextFunction, Request, Response } from 'express';
import { ApiError } from '../errors';
import { credentialOf } from './auth';

export interface RateLimits {
  perCredential: number;
  perIp: number;
  windowMs: number;
}

interface Window {
  start: number;
  count: number;
}

export function rateLimit(limits: RateLimits) {
  const windows = new Map<string, Window>();
  let sweep = Date.now();
  return (req: Request, res: Response, next: NextFunction) => {
    const now = Date.now();
    if (now - sweep > limits.windowMs) {
      for (const [k, w] of windows) if (now - w.start >= limits.windowMs) windows.delete(k);
      sweep = now;
    }
    let cred: ReturnType<typeof credentialOf> = null;
    try {
      cred = credentialOf(req);
    } catch {
      /* a malformed Authorization header is refused later; count it by IP */
    }
    const key = cred ? `c:${cred.token}` : `ip:${req.ip}`; // in memory only, never stored
    const limit = cred ? limits.perCredential : limits.perIp;
    let w = windows.get(key);
    if (!w || now - w.start >= limits.windowMs) {
      w = { start: now, count: 0 };
      windows.set(key, w);
    }
    w.count++;
    const reset = Math.max(1, Math.ceil((w.start + limits.windowMs - now) / 1000));
    res.setHeader('RateLimit-Limit', String(limit));
    res.setHeader('RateLimit-Remaining', String(Math.max(0, limit - w.count)));
    res.setHeader('RateLimit-Reset', String(reset));
    res.setHeader('RateLimit-Policy', `${limit};w=${Math.round(limits.windowMs / 1000)}`);
    if (w.count > limit) {
      res.setHeader('Retry-After', String(reset));
      return next(new ApiError(429, 'rate_limited', `Too many requests; retry in ${reset} s`));
    }
    next();
  };
}
