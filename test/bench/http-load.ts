/**
 * HTTP load runs with autocannon. A load is described by plain data (LoadSpec) so it can run in this process or be
 * sent to load-child.ts over IPC; every run uses the same connection count and duration.
 */
import autocannon from 'autocannon';
import { bookingBody } from './booking-bench';
import { eventBody, taskBody } from './util';

export const CONNECTIONS = 50;

export type LoadSpec =
  | { kind: 'hello'; url: string; seconds: number; connections?: number }
  /** POST /events: each request a new event in its own 30-minute slot; request i is sent as user tokens[i % n]. */
  | { kind: 'post-events'; url: string; seconds: number; tokens: string[]; baseMs: number; firstSlot?: number; connections?: number }
  /** GET of one path below the service URL (e.g. `/api/v1/events?from=…&to=…`) with a bearer token. */
  | { kind: 'get'; url: string; seconds: number; token: string; path: string; connections?: number }
  /**
   * GET /events of [fromMs, toMs), request i with `from` i ms earlier (modulo 10 minutes): the same events, but never an
   * answer the service kept from an earlier request.
   */
  | { kind: 'get-events-uncached'; url: string; seconds: number; token: string; fromMs: number; toMs: number; connections?: number }

  /** POST /tasks: request i goes to tokens[floor(i / perToken)], so no owner's board reaches its task limit. */
  | { kind: 'post-tasks'; url: string; seconds: number; tokens: string[]; perToken: number; connections?: number }
  /** POST of the same JSON body to one path below the service URL with a bearer token (a read asked by POST). */
  | { kind: 'post-json'; url: string; seconds: number; token: string; path: string; body: unknown; connections?: number }
  /** POST of a public booking (no credential): request i books slot firstSlot + i of the host's meeting type. */
  | { kind: 'post-bookings'; url: string; seconds: number; path: string; baseMs: number; firstSlot: number; connections?: number };

export interface LoadResult {
  label: string;
  seconds: number;
  connections: number;
  /** Successful (2xx) responses per second. */
  rps: number;
  p50: number;
  p90: number;
  p99: number;
  max: number;
  ok: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodes: Record<string, number>;
  /** POST runs: how many slots (events) were requested. */
  sent?: number;
  /**
   * Microseconds of CPU per successful response: the server's (a child process, every thread) and this process's,
   * which generates the load on the same cores. Set by the bench's runs; the server's is null where /proc is absent.
   */
  cpuPerRequest?: { server: number | null; client: number };
}

function options(spec: LoadSpec): { opts: autocannon.Options; sent: () => number } {
  const base = { url: spec.url, connections: spec.connections ?? CONNECTIONS, duration: spec.seconds, timeout: 30 };
  switch (spec.kind) {
    case 'hello':
      return { opts: { ...base, url: `${spec.url}/hello` }, sent: () => 0 };
    case 'get':
      return {
        opts: { ...base, method: 'GET', requests: [{ method: 'GET', path: spec.path, headers: { authorization: `Bearer ${spec.token}` } }] },
        sent: () => 0,
      };
    case 'get-events-uncached': {
      let n = 0;
      const headers = { authorization: `Bearer ${spec.token}` };
      const to = encodeURIComponent(new Date(spec.toMs).toISOString());
      const path = () => `/api/v1/events?from=${encodeURIComponent(new Date(spec.fromMs - (n++ % 600_000)).toISOString())}&to=${to}`;
      return { opts: { ...base, method: 'GET', requests: [{ method: 'GET', setupRequest: (req) => ({ ...req, path: path(), headers }) }] }, sent: () => 0 };
    }
    case 'post-events': {
      // A process-wide counter: every request (whatever its connection) gets the next free slot, so no two
      // events overlap and none conflicts. Tokens rotate per request (one user when there is one token).
      const first = spec.firstSlot ?? 0;
      return posting(base, '/api/v1/events', spec.tokens, (i) => ({ token: (first + i) % spec.tokens.length, body: eventBody(spec.baseMs, first + i) }));
    }
    case 'post-bookings':
      return posting(base, spec.path, [null], (i) => ({ token: 0, body: bookingBody(spec.baseMs, spec.firstSlot + i) }));
    case 'post-json':
      return posting(base, spec.path, [spec.token], () => ({ token: 0, body: spec.body }));
    case 'post-tasks':
      return posting(base, '/api/v1/tasks', spec.tokens, (i) => ({
        token: Math.min(Math.floor(i / spec.perToken), spec.tokens.length - 1),
        body: taskBody(i),
      }));
  }
}

/** A POST load whose request i (counted across all connections) is built by `make`: which token, what body. */
function posting(base: autocannon.Options, path: string, tokens: Array<string | null>, make: (i: number) => { token: number; body: unknown }) {
  let sent = 0;
  const headers = tokens.map((t) => ({ 'content-type': 'application/json', ...(t === null ? {} : { authorization: `Bearer ${t}` }) }));
  const opts: autocannon.Options = {
    ...base,
    requests: [
      {
        method: 'POST',
        path,
        setupRequest: (req) => {
          const { token, body } = make(sent++);
          return { ...req, headers: headers[token], body: JSON.stringify(body) };
        },
      },
    ],
  };
  return { opts, sent: () => sent };
}

export async function runLoad(label: string, spec: LoadSpec): Promise<LoadResult> {
  const { opts, sent } = options(spec);
  const r = await autocannon(opts);
  const statusCodes = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([k, v]) => [k, Number(v.count)]));
  return {
    label,
    seconds: r.duration,
    connections: opts.connections!,
    rps: r['2xx'] / r.duration,
    p50: r.latency.p50,
    p90: r.latency.p90,
    p99: r.latency.p99,
    max: r.latency.max,
    ok: r['2xx'],
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statusCodes,
    ...(spec.kind.startsWith('post-') && spec.kind !== 'post-json' ? { sent: sent() } : {}),
  };
}
