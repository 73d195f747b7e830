/**
 * One signed HTTP POST to a receiver. node:http rather than fetch: it never follows redirects, lets the connect go
 * through the guarded lookup, and lets us stop reading a large answer.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import { performance } from 'node:perf_hooks';
import { signStandardWebhook, signWebhook } from '../../contracts/webhook-signature';
import { guardedLookup, refusedLiteral } from './private-addresses';

/** Receivers' answers are read up to this size, then the connection is dropped. */
const MAX_RESPONSE_BYTES = 64 * 1024;
const agents = {
  'http:': new http.Agent({ keepAlive: true, maxSockets: 128 }),
  'https:': new https.Agent({ keepAlive: true, maxSockets: 128 }),
};

export interface SendOptions {
  timeoutMs: number;
  allowPrivate: boolean;
}

export interface AttemptResult {
  ok: boolean;
  status: number | null;
  responseTimeMs: number;
  error: string | null;
}

export interface SignedDelivery {
  url: string;
  secret: string;
  deliveryId: string;
  type: string;
  body: string;
}

export function sendSigned(d: SignedDelivery, options: SendOptions): Promise<AttemptResult> {
  const timestamp = Math.floor(Date.now() / 1000);
  return post(d.url, d.body, {
    'content-type': 'application/json',
    'user-agent': 'Calendar-Webhooks/1.0',
    'x-calendar-signature': signWebhook(d.secret, timestamp, d.body),
    'x-calendar-event': d.type,
    'x-calendar-delivery': d.deliveryId,
    'x-calendar-timestamp': String(timestamp),
    // Standard Webhooks (standardwebhooks.com): the same delivery id and time, signed with the secret's bytes.
    'webhook-id': d.deliveryId,
    'webhook-timestamp': String(timestamp),
    'webhook-signature': signStandardWebhook(d.secret, d.deliveryId, timestamp, d.body),
  }, options);
}

/** One POST of `body` (also web pushes and push-gateway calls); never throws, the failure is in the result. */
export function post(rawUrl: string, body: string | Buffer, headers: Record<string, string>, options: SendOptions): Promise<AttemptResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const failed = (error: string, status: number | null = null): AttemptResult => ({ ok: false, status, responseTimeMs: elapsed(), error });
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    return Promise.resolve(failed('invalid URL'));
  }
  const agent = agents[url.protocol as keyof typeof agents];
  if (!agent) return Promise.resolve(failed(`unsupported protocol ${url.protocol}`));
  if (!options.allowPrivate && refusedLiteral(url)) return Promise.resolve(failed(`${url.hostname} is a private address`));

  return new Promise((resolve) => {
    let settled = false;
    /** Once the status line arrived, a stalled body no longer turns the answer into a time-out. */
    let answered: AttemptResult | null = null;
    const finish = (result: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'POST',
      agent,
      headers: { ...headers, 'content-length': String(Buffer.byteLength(body)) },
      ...(options.allowPrivate ? {} : { lookup: guardedLookup as never }),
    });
    const timer = setTimeout(() => {
      finish(answered ?? failed(`timed out after ${options.timeoutMs} ms`));
      request.destroy();
    }, options.timeoutMs);
    request.on('error', (err) => finish(failed(err.message || String(err))));
    request.on('response', (response: IncomingMessage) => {
      const status = response.statusCode ?? 0;
      const responseTimeMs = elapsed();
      const result: AttemptResult = (answered =
        status >= 200 && status < 300
          ? { ok: true, status, responseTimeMs, error: null }
          : { ok: false, status, responseTimeMs, error: status >= 300 && status < 400 ? 'redirect (not followed)' : `HTTP ${status}` });
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > MAX_RESPONSE_BYTES) {
          finish(result);
          response.destroy();
        }
      });
      response.on('end', () => finish(result));
      response.on('error', () => finish(result));
      response.on('close', () => finish(result));
    });
    request.end(body);
  });
}
