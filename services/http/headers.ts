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
    description: 'Wait (bounded) until the read models have reached this log position (an earlier `X-Calendar-Position`).',
    schema: { type: 'string', pattern: '^[0-9]{1,16}$', examples: ['42'] },
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
    description: 'Log position of the last event this write appended (absent when it appended none); pass it as ' +
      '`X-Calendar-Min-Position` to read your own write.',
    schema: { type: 'string', pattern: '^[0-9]+$' },
    required: false,
    applies: (op, status) => op.method !== 'get' && isSuccess(status),
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
