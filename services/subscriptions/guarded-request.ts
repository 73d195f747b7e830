/**
 * One HTTP request to a subscribed source, as untrusted as a webhook receiver: private addresses are refused at
 * connect time through the guarded lookup (services/dispatcher/private-addresses.ts) and again at every redirect,
 * which is followed by hand (at most MAX_REDIRECTS, http(s) only, credentials sent to the first origin only); one
 * deadline covers the whole exchange, redirects and body included (a server that hangs is timed out); a body past
 * `maxBytes` is cut off and the request fails. Never throws for the server's sake: a `SourceError` says why.
 */
import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import { guardedLookup, literalRefusal } from '../dispatcher/private-addresses';

const MAX_REDIRECTS = 5;
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class SourceError extends Error {}

export interface RequestOptions {
  method: 'GET' | 'PROPFIND' | 'REPORT';
  headers: Record<string, string>;
  body?: string;
  /** Sent to the first URL's origin only. */
  authorization?: string;
  timeoutMs: number;
  maxBytes: number;
  allowPrivate: boolean;
  /** Replaces the guarded lookup (tests give a name a public-looking answer). */
  lookup?: LookupFunction;
}

export interface SourceAnswer {
  status: number;
  headers: IncomingMessage['headers'];
  body: string;
  /** Where the answer came from (after redirects). */
  url: string;
}

function once(url: URL, o: RequestOptions, origin: string, deadline: AbortSignal): Promise<{ response: IncomingMessage; body: Buffer | null }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string> = { ...o.headers, ...(o.body === undefined ? {} : { 'content-length': String(Buffer.byteLength(o.body)) }) };
    if (o.authorization && url.origin === origin) headers.authorization = o.authorization;
    const lookup = o.lookup ?? (o.allowPrivate ? undefined : (guardedLookup as unknown as LookupFunction));
    const request = (url.protocol === 'https:' ? https : http).request(url, { method: o.method, headers, ...(lookup ? { lookup } : {}) });
    let settled = false;
    const fail = (message: string) => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener('abort', timedOut);
      reject(new SourceError(message));
      request.destroy();
    };
    const timedOut = () => fail(`timed out after ${o.timeoutMs} ms`);
    if (deadline.aborted) return timedOut();
    deadline.addEventListener('abort', timedOut);
    const done = (response: IncomingMessage, body: Buffer | null) => {
      if (settled) return;
      settled = true;
      deadline.removeEventListener('abort', timedOut);
      resolve({ response, body });
    };
    request.on('error', (err) => fail(err.message || String(err)));
    request.on('response', (response) => {
      if (REDIRECTS.has(response.statusCode ?? 0)) {
        response.resume();
        return done(response, null);
      }
      const tooLarge = `the answer is larger than ${o.maxBytes} bytes: cut off`;
      if (Number(response.headers['content-length'] ?? 0) > o.maxBytes) return fail(tooLarge);
      const chunks: Buffer[] = [];
      let read = 0;
      response.on('data', (chunk: Buffer) => {
        read += chunk.length;
        if (read > o.maxBytes) fail(tooLarge);
        else chunks.push(chunk);
      });
      response.on('end', () => done(response, Buffer.concat(chunks)));
      response.on('error', (err) => fail(err.message));
      response.on('close', () => fail('the connection was closed mid-answer'));
    });
    request.end(o.body);
  });
}

/** The URL refused for the guard, or null. */
function refused(url: URL, allowPrivate: boolean): string | null {
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `unsupported protocol ${url.protocol}`;
  return allowPrivate ? null : literalRefusal(url);
}

export async function guardedRequest(rawUrl: string, o: RequestOptions): Promise<SourceAnswer> {
  let url = new URL(rawUrl);
  const origin = url.origin;
  const deadline = AbortSignal.timeout(o.timeoutMs);
  for (let hop = 0; ; hop++) {
    const why = refused(url, o.allowPrivate);
    if (why) throw new SourceError(hop === 0 ? why : `redirected to ${url.href}: ${why}`);
    const { response, body } = await once(url, o, origin, deadline).catch((err: Error) => {
      throw hop === 0 ? err : new SourceError(`redirected to ${url.href}: ${err.message}`);
    });
    if (body !== null) return { status: response.statusCode ?? 0, headers: response.headers, body: body.toString('utf8'), url: url.href };
    if (hop >= MAX_REDIRECTS) throw new SourceError(`more than ${MAX_REDIRECTS} redirects`);
    const location = response.headers.location;
    if (!location) throw new SourceError(`HTTP ${response.statusCode} without a Location`);
    url = new URL(location, url);
  }
}
