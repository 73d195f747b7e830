import type { NextFunction, Request, Response } from 'express';
import type { Logger } from 'pino';
import { ApiError, isStorageFull, StoreUnavailable } from '../errors';

/** How soon a client may try again when a store is unreachable. */
const UNAVAILABLE_RETRY_AFTER_S = 5;

export const errorBody = (err: ApiError) => ({
  error: { code: err.code, message: err.message, ...(err.details === undefined ? {} : { details: err.details }) },
});

/** Unknown routes answer in the envelope too. */
export function notFoundRoute(req: Request, _res: Response, next: NextFunction): void {
  next(new ApiError(404, 'not_found', `No route for ${req.method} ${req.path}`));
}

/** The one place where failures become the error envelope. */
export function errorHandler(err: unknown, req: Request, res: Response, _next: NextFunction): void {
  const log = res.locals.log as Logger | undefined;
  let api: ApiError;
  if (err instanceof ApiError) api = err;
  else if (isBodyParserError(err)) api = bodyParserError(err);
  else if (isStorageFull(err)) {
    log?.warn({ err }, 'storage full');
    api = new ApiError(507, 'insufficient_storage', 'The service\'s storage is full; try again later');
  } else if (err instanceof StoreUnavailable) {
    log?.warn({ err }, 'store unavailable');
    api = new ApiError(503, 'store_unavailable', `The service cannot use ${err.store} right now; try again shortly`);
  } else {
    log?.error({ err }, 'unhandled error');
    api = new ApiError(500, 'internal_error', 'Something went wrong on our side');
  }
  if (res.headersSent) return void res.end();
  if (api.status === 503) res.setHeader('Retry-After', String(UNAVAILABLE_RETRY_AFTER_S));
  if (req.path.endsWith('/oauth/token')) {
    // OAuth clients read RFC 6749 errors there, whatever went wrong.
    const error = api.status === 401 ? 'invalid_client' : api.status === 429 ? 'rate_limited' : api.status >= 500 ? 'server_error' : 'invalid_request';
    return void res.status(api.status).json({ error, error_description: api.message });
  }
  res.status(api.status).json(errorBody(api));
}

interface BodyParserError {
  type: string;
  status: number;
  message: string;
}

function isBodyParserError(err: unknown): err is BodyParserError {
  return typeof err === 'object' && err !== null && typeof (err as BodyParserError).type === 'string' && 'status' in err;
}

function bodyParserError(err: BodyParserError): ApiError {
  switch (err.type) {
    case 'entity.parse.failed':
      return new ApiError(400, 'invalid_request', 'The body is not valid JSON', { issues: [{ path: 'body', message: 'not valid JSON' }] });
    case 'entity.too.large':
      return new ApiError(413, 'payload_too_large', 'The body is too large');
    case 'encoding.unsupported':
    case 'charset.unsupported':
      return new ApiError(415, 'unsupported_media_type', err.message);
    default:
      return new ApiError(err.status >= 400 && err.status < 500 ? err.status : 400, 'invalid_request', err.message);
  }
}
