/** Typed failures: thrown anywhere, turned into the error envelope in one place (services/http/errors.ts). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

export const notFound = (what = 'Resource') => new ApiError(404, 'not_found', `${what} not found`);
export const conflict = (code: string, message: string, details?: unknown) => new ApiError(409, code, message, details);
export const invalid = (message: string, issues: Array<{ path: string; message: string }>) =>
  new ApiError(400, 'invalid_request', message, { issues });
export const versionMismatch = () =>
  new ApiError(412, 'version_mismatch', 'The resource changed since you read it (If-Match did not match)');

/**
 * A store did not answer (stopped, unreachable, or slower than its bound): adapters throw it so that a request
 * answers 503 at once rather than hanging or looking like a bug. Workers treat it like any failure: they retry.
 */
export class StoreUnavailable extends Error {
  override name = 'StoreUnavailable';
  constructor(
    readonly store: string,
    reason: string,
  ) {
    super(`${store}: ${reason}`);
  }
}
