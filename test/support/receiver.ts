/**
 * A real webhook receiver on 127.0.0.1 for the tests: records every request (path, headers, raw body) and answers
 * with what the responder for that path says (default 200).
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { startTestService, type TestService } from './service';

export interface Received {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
  /** The body's bytes (binary bodies such as encrypted Web Push payloads). */
  raw: Buffer;
  json: any;
  at: number;
}

/** Status to answer with, or a function that writes the answer itself (redirects, hanging, ...). */
export type Responder = (request: Received, nth: number) => number | ((res: ServerResponse) => void);

export interface Receiver {
  /** A URL on this receiver; each test uses its own path. */
  url(path: string): string;
  on(path: string, responder: Responder): void;
  received(path: string): Received[];
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const all: Received[] = [];
  const responders = new Map<string, Responder>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks);
      const body = raw.toString('utf8');
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const path = (req.url ?? '/').split('?')[0];
      const r: Received = { path, headers: req.headers, body, raw, json, at: Date.now() };
      all.push(r);
      const answer = (responders.get(path) ?? (() => 200))(r, all.filter((x) => x.path === path).length);
      if (typeof answer === 'function') return answer(res);
      res.writeHead(answer, { 'content-type': 'text/plain' }).end(answer < 300 ? 'ok' : 'no');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    on: (path, responder) => void responders.set(path, responder),
    received: (path) => all.filter((r) => r.path === path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Polls until `check` holds (or throws after `ms`). */
export async function until(check: () => boolean | Promise<boolean>, ms = 20_000, what = 'condition'): Promise<void> {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`${what} not met within ${ms} ms`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

export const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/** Service settings for suites that receive webhooks on 127.0.0.1: private URLs allowed, quick retries. */
export const RECEIVING_ENV = { WEBHOOK_ALLOW_PRIVATE_URLS: 'true', WEBHOOK_RETRY_DELAYS_MS: '50,50,50,50,50', WEBHOOK_TIMEOUT_MS: '2000' };
/** How long a suite waits for deliveries: Kafka needs seconds for a consumer group to join; everything else is quick. */
export const DELIVERY_WAIT_MS = 45_000;

/** Starts a service and a receiver for the file's tests (beforeAll) and stops both after them (afterAll). */
export function useServiceAndReceiver(onStart: (svc: TestService, receiver: Receiver) => void): void {
  let svc: TestService | undefined;
  let receiver: Receiver | undefined;
  beforeAll(async () => {
    [svc, receiver] = await Promise.all([startTestService(RECEIVING_ENV), startReceiver()]);
    onStart(svc, receiver);
  });
  afterAll(async () => {
    await svc?.stop();
    await receiver?.close();
  });
}
