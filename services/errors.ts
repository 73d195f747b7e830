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
/** The caller may see the thing but not do this to it (someone else's things are 404, never this). */
export const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
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

/** Errors a store's disk being full shows as, whichever engine: checked on an error and its causes. */
const FULL_CODES = new Set<unknown>(['SQLITE_FULL', 'ENOSPC', 14031 /* MongoDB OutOfDiskSpace */, 'OutOfDiskSpace']);
const FULL_TEXT = /No space left on device|ENOSPC|SQLITE_FULL|database or disk is full|OutOfDiskSpace/i;

/**
 * Whether a write failed for want of disk space: SQLite's SQLITE_FULL, the system's ENOSPC, MongoDB's OutOfDiskSpace,
 * or an engine's message saying so (EventStoreDB and FerretDB pass the system's on). The one place that knows.
 */
export function isStorageFull(err: unknown): boolean {
  let at: unknown = err;
  for (let depth = 0; depth < 5 && typeof at === 'object' && at !== null; depth++) {
    const e = at as { code?: unknown; codeName?: unknown; message?: unknown; cause?: unknown };
    if (FULL_CODES.has(e.code) || FULL_CODES.has(e.codeName)) return true;
    if (typeof e.message === 'string' && FULL_TEXT.test(e.message)) return true;
    at = e.cause;
  }
  return false;
}
