/**
 * A route = one contract operation + a handler that returns a Reply. Mounting does, in order: authenticate and
 * check the access table, validate params/query/body with the operation's zod schemas (a body is required where the
 * operation takes one; fields declared with laterThan in order), honour
 * X-Calendar-Min-Position and Idempotency-Key (POST), run the handler, wait for the projections to reach
 * the write's position, and answer with X-Calendar-Position.
 */
import type { Request, Response } from 'express';
import type { Logger } from 'pino';
import { z } from 'zod';
import { MAX_JSON_DEPTH, tooDeepAt } from '../../contracts/free-form';
import type { Operation } from '../../contracts/operation';
import { ApiError } from '../errors';
import { newId } from '../ids';
import { access } from './access';
import type { Authenticator } from './auth';
import type { OperationHandler } from './dispatch';
import { fieldOrderIssues } from './field-order';
import { errorBody } from './errors';
import { etagOfAnswer } from './etag';
import type { FairShare } from './fair-share';
import { ETAG, IDEMPOTENCY_KEY, MIN_POSITION, POSITION, STALE } from './headers';
import type { Idempotency } from './idempotency';
import type { Principal } from './principal';
import type { Reply } from './reply';

export type { Reply };

export interface Input<B, Q, P> {
  body: B;
  query: Q;
  params: P;
  principal: Principal | null;
  requestId: string;
  /** The client's address (behind a loopback proxy: the forwarded one). */
  ip: string;
  /** The OAuth issuer (services/http/auth.ts `issuer`): PUBLIC_URL, or this server's origin as the client reached it. */
  issuer: string;
  /** Unique per command; derived from the Idempotency-Key when there is one, so retries append nothing twice. */
  commandId: string;
  header(name: string): string | undefined;
  /** The JSON body's bytes as received (for signatures computed over the raw body). */
  rawBody: Buffer | undefined;
  log: Logger;
}

export type Handler<B, Q, P> = (input: Input<B, Q, P>) => Promise<Reply>;

/** Runs before validation and idempotency: for callers proven by a signature over the raw body, not a credential. */
export type Gate = (request: { header(name: string): string | undefined; rawBody: Buffer | undefined }) => void;

export interface Route {
  operation: Operation;
  handler: Handler<any, any, any>;
  gate?: Gate;
}

export const route = <B = unknown, Q = unknown, P = unknown>(
  operation: Operation,
  handler: Handler<B, Q, P>,
  gate?: Gate,
): Route => ({ operation, handler, gate });

export interface RouteDeps {
  auth: Authenticator;
  idempotency: Idempotency;
  /** Waits until every projection reached a position; false on timeout. */
  waitForPosition(position: number): Promise<boolean>;
  /** The position of the log's last event. */
  headPosition(): Promise<number>;
  /** The least position the read models have reached (null while none is followed yet). */
  readPosition(): Promise<number | null>;
  writeWaitsForProjection: boolean;
  /** Shares of the operations marked `heavy`. */
  fairShare: FairShare;
}

/** `verify` hook of express.json: keeps the bytes it parsed, for handlers that check a signature over them. */
export const keepRawBody = (req: unknown, _res: unknown, buf: Buffer): void => {
  (req as { rawBody?: Buffer }).rawBody = buf;
};

export const routeKey = (op: Pick<Operation, 'method' | 'path'>) => `${op.method.toUpperCase()} ${op.path}`;

/**
 * `POST /public/mia/intro/bookings`: the method and the path with its parameters (decoded), the scope of an
 * Idempotency-Key. Two resources behind one template never share an answer; spelling variants of one path
 * (percent-encoding, a trailing slash) do.
 */
const concretePath = (op: Pick<Operation, 'method' | 'path'>, params: Record<string, string>) =>
  routeKey(op).replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));

/** Object bodies refuse fields they do not know, unless declared loose (RFC 6749 token requests ignore them). */
export const refusesUnknownFields = (schema: z.ZodType): schema is z.ZodObject =>
  schema instanceof z.ZodObject && !(schema._zod.def.catchall instanceof z.ZodUnknown);

/** Body fields the operation does not know: refused, so a typo or a hostile key (`__proto__`) never passes silently. */
function unknownFields(schema: z.ZodType, value: unknown): string[] {
  if (!refusesUnknownFields(schema) || typeof value !== 'object' || value === null || Array.isArray(value)) return [];
  return Object.keys(value).filter((key) => !Object.hasOwn(schema.shape, key));
}

const invalid = (where: string, issues: { path: string; message: string }[]) =>
  new ApiError(400, 'invalid_request', `Invalid ${where}: ${issues[0].path} ${issues[0].message}`, { issues });

function parse<T>(schema: z.ZodType<T> | undefined, value: unknown, where: string): T {
  if (!schema) return undefined as T;
  if (where === 'body') {
    const unknown = unknownFields(schema, value);
    if (unknown.length) throw invalid(where, unknown.map((key) => ({ path: `body.${key}`, message: 'unknown field' })));
  }
  const result = schema.safeParse(value);
  if (!result.success) {
    throw invalid(where, result.error.issues.map((i) => ({ path: [where, ...i.path.map(String)].join('.'), message: i.message })));
  }
  const order = fieldOrderIssues(schema, result.data, where);
  if (order.length) throw invalid(where, order);
  return result.data;
}

/** A PATCH changes something: its object body needs at least one field (the document says `minProperties: 1`). */
export const patchNeedsAField = (op: Operation) => op.method === 'patch' && op.body instanceof z.ZodObject;

/**
 * Any body's nesting, checked before anything reads it (the JSON parser itself does not recurse; JSON.stringify of
 * an idempotent body's hash would): room for a free-form object's own levels inside the deepest contract.
 */
const MAX_BODY_DEPTH = 2 * MAX_JSON_DEPTH;

function refuseDeepBody(body: unknown): void {
  const deep = tooDeepAt(body, MAX_BODY_DEPTH);
  if (deep) throw invalid('body', [{ path: ['body', ...deep].join('.'), message: `nested more than ${MAX_BODY_DEPTH} levels` }]);
}

/**
 * An operation with a body needs one: no body (or an empty one) is 400, never read as `{}`, unless the operation
 * says its body is optional.
 */
function bodyOf(req: Request, op: Operation): unknown {
  if (req.body === undefined || req.get('Content-Length') === '0') {
    if (op.bodyOptional) return {};
    throw invalid('body', [{ path: 'body', message: 'a request body is required' }]);
  }
  const empty = typeof req.body === 'object' && req.body !== null && !Array.isArray(req.body) && Object.keys(req.body).length === 0;
  // A PATCH whose schema requires a field lets the schema name it (`body.action`); otherwise `{}` changes nothing.
  if (empty && patchNeedsAField(op) && (op.body as z.ZodObject).safeParse({}).success) {
    throw invalid('body', [{ path: 'body', message: 'must change at least one field' }]);
  }
  return req.body;
}

/** Operations on a resource with a version (`etag`) answer its ETag with every 2xx body that holds it. */
function withEtag(op: Operation, reply: Reply): Reply {
  if (!op.etag || reply.status >= 300 || reply.headers?.[ETAG]) return reply;
  const etag = etagOfAnswer(reply.body);
  return etag ? { ...reply, headers: { ...reply.headers, [ETAG]: etag } } : reply;
}

/**
 * Serialized JSON, written straight to the response: pieces in turn rather than copied into one buffer first (a cached
 * head is large), corked so they leave in one write. Express's send would only add what these answers never use
 * (generated ETags are off; a 304 needs an ETag these answers do not carry) for about 7 % of a cached GET /events.
 */
function sendJson(res: Response, json: Buffer | readonly Buffer[]): void {
  sendPieces(res, 'application/json; charset=utf-8', Buffer.isBuffer(json) ? [json] : json);
}

function sendPieces(res: Response, type: string, pieces: readonly Buffer[]): void {
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', String(pieces.reduce((n, piece) => n + piece.length, 0)));
  if (res.req.method === 'HEAD') return void res.end();
  res.cork();
  for (const piece of pieces.slice(0, -1)) res.write(piece);
  res.end(pieces[pieces.length - 1]);
}

export function sendReply(res: Response, reply: Reply): void {
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  if (reply.position != null) res.setHeader(POSITION, String(reply.position));
  if (reply.cookies?.length) res.setHeader('Set-Cookie', reply.cookies);
  res.status(reply.status);
  if (reply.json !== undefined) sendJson(res, reply.json);
  else if (reply.text !== undefined) sendPieces(res, reply.text.type, [reply.text.body]);
  else if (reply.html !== undefined) res.type('html').send(reply.html);
  else if (reply.body === undefined) res.end();
  else res.json(reply.body);
}

/** What runs an operation once its path matched (services/http/dispatch.ts). */
export function operationHandler(deps: RouteDeps, r: Route): OperationHandler {
  const key = routeKey(r.operation);
  const rule = access[key];
  if (!rule) throw new Error(`route ${key} has no entry in the access table`);
  const method = r.operation.method;

  return async (req, res, next, pathParams) => {
    try {
      const principal = await deps.auth.authorize(req, rule);
      r.gate?.({ header: (name) => req.get(name), rawBody: (req as { rawBody?: Buffer }).rawBody });
      refuseDeepBody(req.body);
      const params = parse(r.operation.params, pathParams, 'path');
      const query = parse(r.operation.query, req.query, 'query');
      const body = r.operation.body ? parse(r.operation.body, bodyOf(req, r.operation), 'body') : undefined;
      // Every request may ask to see the log up to a position: GETs, and POSTs that read (POST /planner/plan).
      const readHeaders = await waitForMinPosition(req, deps);

      const run = async (commandId: string): Promise<Reply> => {
        try {
          return await r.handler({
            body, query, params, principal, commandId,
            requestId: res.locals.requestId as string,
            ip: req.ip ?? 'unknown',
            issuer: deps.auth.issuer(req),
            header: (name) => req.get(name),
            rawBody: (req as { rawBody?: Buffer }).rawBody,
            log: res.locals.log as Logger,
          });
        } catch (err) {
          if (err instanceof ApiError) return { status: err.status, body: errorBody(err) };
          throw err;
        }
      };
      const caller = principal?.credentialId ?? `address:${req.ip}`;
      const idemKey = method === 'post' ? req.get(IDEMPOTENCY_KEY) : undefined;
      const scope = concretePath(r.operation, pathParams);
      const answer = () => (idemKey !== undefined ? deps.idempotency.run(caller, scope, idemKey, req.body, run) : run(newId()));
      const reply: Reply = r.operation.heavy ? await deps.fairShare.run(caller, answer) : await answer();
      if (reply.position != null && deps.writeWaitsForProjection && reply.status < 300) {
        await deps.waitForPosition(reply.position);
      }
      sendReply(res, withEtag(r.operation, readHeaders ? { ...reply, headers: { ...readHeaders, ...reply.headers } } : reply));
    } catch (err) {
      next(err);
    }
  };
}

/**
 * X-Calendar-Min-Position: a position past the log's end is refused at once (no write has reached it, so waiting
 * could only time out); otherwise the read waits, bounded. A read (GET) answers with the position its read models
 * reflect; any answer whose wait ran out says it is stale. Returns the headers to add, if any.
 */
async function waitForMinPosition(req: Request, deps: RouteDeps): Promise<Record<string, string> | undefined> {
  const raw = req.get(MIN_POSITION);
  if (raw === undefined) return undefined;
  if (!/^\d{1,16}$/.test(raw)) {
    throw new ApiError(400, 'invalid_request', `${MIN_POSITION} must be a log position (digits)`, {
      issues: [{ path: `header.${MIN_POSITION}`, message: 'must be digits' }],
    });
  }
  const wanted = Number(raw);
  if (wanted > (await deps.headPosition())) {
    throw new ApiError(400, 'position_beyond_log', `${MIN_POSITION} ${wanted} is past the end of the log: no write has reached it`, {
      issues: [{ path: `header.${MIN_POSITION}`, message: 'past the end of the log' }],
    });
  }
  const caughtUp = await deps.waitForPosition(wanted);
  const headers: Record<string, string> = caughtUp ? {} : { [STALE]: 'true' };
  if (req.method === 'GET' || req.method === 'HEAD') {
    // A projection on its first build is not waited for: a read that caught up reflects at least what was asked.
    const reached = (await deps.readPosition()) ?? 0;
    headers[POSITION] = String(caughtUp ? Math.max(reached, wanted) : reached);
  }
  return headers;
}
