/**
 * CORS for the first-party web origins only (WEB_ORIGIN, comma list). Other origins get no CORS headers, so
 * browsers keep their pages from reading our answers; non-browser clients are unaffected.
 */
import type { NextFunction, Request, Response } from 'express';

const ALLOWED_HEADERS = 'Authorization, Content-Type, Idempotency-Key, If-Match, X-Calendar-Min-Position, X-Request-Id';
const EXPOSED_HEADERS = 'ETag, X-Calendar-Position, X-Request-Id, RateLimit-Limit, RateLimit-Remaining, RateLimit-Reset, Retry-After';

export function cors(origins: readonly string[]) {
  const allowed = new Set(origins);
  return (req: Request, res: Response, next: NextFunction) => {
    const origin = req.get('Origin');
    if (!origin || !allowed.has(origin)) return next();
    res.vary('Origin');
    res.setHeader('Access-Control-Allow-Origin', origin);
    res.setHeader('Access-Control-Allow-Credentials', 'true');
    res.setHeader('Access-Control-Expose-Headers', EXPOSED_HEADERS);
    if (req.method !== 'OPTIONS' || !req.get('Access-Control-Request-Method')) return next();
    res.setHeader('Access-Control-Allow-Methods', 'GET, POST, PUT, PATCH, DELETE');
    res.setHeader('Access-Control-Allow-Headers', ALLOWED_HEADERS);
    res.setHeader('Access-Control-Max-Age', '600');
    res.status(204).end();
  };
}
