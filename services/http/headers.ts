/**
 * The headers the route machinery reads and writes, each with the operations that carry it: declared once, read by
 * route.ts (behaviour), openapi.ts (the document) and cors.ts. What an operation carries is derived from its method
 * and status codes, plus `etag` (contracts/operation.ts) for resources with versions.
 */
import type { Operation } from '../../contracts/operation';

export const IF_MATCH = 'If-Match';
export const IDEMPOTENCY_KEY = 'Idempotency-Key';
export const MIN_POSITION = 'X-Calendar-Min-Position';
export const POSITION = 'X-Calendar-Position';
export const STALE = 'X-Calendar-Stale';
export const REQUEST_ID = 'X-Request-Id';
export const ETAG = 'ETag';

const honoursIfMatch = (op: Operation) => Boolean(op.etag) && ['put', 'patch', 'delete'].includes(op.method);
const isSuccess = (status: string) => status.startsWith('2');

export interface RequestHeader {
  name: string;
  description: string;
  schema: Record<string, unknown>;
  applies(op: Operation): boolean;
}

export const REQUEST_HEADERS: RequestHeader[] = [
  {
    name: IF_MATCH,
    description: 'Optimistic concurrency: one ETag, a comma-separated list, or `*`. A stale one is 412 `version_mismatch`.',
    schema: { type: 'string', examples: ['"v3"'] },
    applies: honoursIfMatch,
  },
  {
    name: IDEMPOTENCY_KEY,
    description: 'A repeat by the same credential (without one: from the same address) to the same method and path ' +
      '(its parameters included, so one key never answers for another resource) within 24 h with the same body gets the ' +
      'first answer and writes nothing; with another body, 409 `idempotency_key_reused`.',
    schema: { type: 'string', minLength: 1, maxLength: 255, examples: ['7f0c9a3e-2d4b-4c1e-9f6a-1b2c3d4e5f60'] },
    applies: (op) => op.method === 'post',
  },
  {
    name: MIN_POSITION,
    description: 'Wait (bounded, 5 s by default) until the read models have reached this log position (an earlier ' +
      '`X-Calendar-Position`). A position past the end of the log is refused at once: 400 `position_beyond_log`. ' +
      'The answer carries `X-Calendar-Position` (the position it reflects) and, when the wait ran out first, ' +
      '`X-Calendar-Stale: true`.',
    // Only the log knows which positions exist: `x-checked-by-server` tells test tools to send the example (one
    // the log has reached as soon as anyone signed up) in cases meant to be valid.
    schema: { type: 'string', pattern: '^[0-9]{1,16}$', examples: ['1'], 'x-checked-by-server': true },
    applies: (op) => op.method === 'get',
  },
];

export interface ResponseHeader {
  name: string;
  description: string;
  schema: Record<string, unknown>;
  required: boolean;
  applies(op: Operation, status: string, hasBody: boolean): boolean;
}

/** Every API answer is counted, except a URL too long to route (414), refused before the count. */
const counted = (_op: Operation, status: string) => status !== '414';
const counter = (description: string): Omit<ResponseHeader, 'name'> => ({
  description, schema: { type: 'integer', minimum: 0 }, required: true, applies: counted,
});

export const RESPONSE_HEADERS: ResponseHeader[] = [
  {
    name: ETAG,
    description: 'The resource version (`"v<version>"`): send it back as `If-Match`.',
    schema: { type: 'string', pattern: '^"v[0-9]+"$' },
    required: true,
    applies: (op, status, hasBody) => Boolean(op.etag) && isSuccess(status) && hasBody,
  },
  {
    name: POSITION,
    description: 'On a write: the log position of the last event it appended (absent when it appended none); pass it ' +
      'as `X-Calendar-Min-Position` to read your own write. On a read sent with `X-Calendar-Min-Position`: the log ' +
      'position the read models had reached when it was read, at least the one asked for unless `X-Calendar-Stale`.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    required: false,
    applies: (_op, status) => isSuccess(status),
  },
  {
    name: STALE,
    description: '`true` when the read models did not reach `X-Calendar-Min-Position` within the bound: the answer ' +
      'reflects the older `X-Calendar-Position`. Absent when they did, or when no position was asked for.',
    schema: { type: 'string', enum: ['true'] },
    required: false,
    applies: (op, status) => op.method === 'get' && isSuccess(status),
  },
  {
    name: 'Location',
    description: 'Where the redirect goes',
    schema: { type: 'string' },
    required: true,
    applies: (_op, status) => status.startsWith('3'),
  },
  { name: 'RateLimit-Limit', ...counter('Requests allowed in the current window') },
  { name: 'RateLimit-Remaining', ...counter('Requests left in the current window') },
  { name: 'RateLimit-Reset', ...counter('Seconds until the window resets') },
  {
    name: 'RateLimit-Policy',
    description: 'The limit and the window in seconds, e.g. `3000;w=60`',
    schema: { type: 'string' },
    required: true,
    applies: counted,
  },
  {
    name: 'Retry-After',
    description: 'Seconds to wait before retrying',
    schema: { type: 'integer', minimum: 0 },
    required: true,
    applies: (_op, status) => status === '429' || status === '503',
  },
];

/** CORS: what browsers may send and read. */
export const CORS_ALLOWED_HEADERS = ['Authorization', 'Content-Type', ...REQUEST_HEADERS.map((h) => h.name), REQUEST_ID];
export const CORS_EXPOSED_HEADERS = [
  ...RESPONSE_HEADERS.filter((h) => h.name !== 'Location').map((h) => h.name),
  REQUEST_ID,
];
