/**
 * Counts every HTTP request by method, route template and status (calendar_http_request_duration_seconds). The
 * route is the template express matched (`/api/v1/events/{id}`, as the OpenAPI document writes it), never the URL:
 * a request that matched no route is `unmatched`, so ids and probes of random paths never become labels.
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import type { Metrics } from './metrics';

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/**
 * Put before a router mounted under `prefix`: the prefix is kept for the label, since express forgets a router's
 * base once an error leaves it.
 */
export const routePrefix = (prefix: string): RequestHandler => (_req, res, next) => {
  res.locals.routePrefix = prefix;
  next();
};

function routeOf(req: Request, res: Response): string {
  // The API's dispatcher names the operation's template; express's routes (admin, pages) have req.route.
  const path: unknown = res.locals.route ?? req.route?.path;
  // A route on several paths (['/openapi.json', '/api/v1/openapi.json']) is labelled with all of them.
  const paths = Array.isArray(path) ? path.filter((p): p is string => typeof p === 'string') : typeof path === 'string' ? [path] : [];
  if (paths.length === 0) return 'unmatched';
  const template = paths.join('|').replace(/:(\w+)/g, '{$1}');
  return `${(res.locals.routePrefix as string | undefined) ?? ''}${template}` || '/';
}

export function requestMetrics(metrics: Metrics): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = process.hrtime.bigint();
    res.on('finish', () => {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      const method = METHODS.has(req.method) ? req.method : 'other';
      metrics.httpRequests.observe({ method, route: routeOf(req, res), status: String(res.statusCode) }, seconds);
    });
    next();
  };
}
