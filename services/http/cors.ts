/**
 * CORS for the first-party web origins only (WEB_ORIGIN, comma list). Other origins get no CORS headers, so
 * browsers keep their pages from reading our answers; non-browser clients are unaffected.
 */
import type { NextFunction, Request, Response } from 'express';
import { CORS_ALLOWED_HEADERS, CORS_EXPOSED_HEADERS } from './headers';

const ALLOWED_HEADERS = CORS_ALLOWED_HEADERS.join(', ');
const EXPOSED_HEADERS = CORS_EXPOSED_HEADERS.join(', ');

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
