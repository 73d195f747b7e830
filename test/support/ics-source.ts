/** A calendar served elsewhere, for the subscription suites: a local HTTP server whose answers a test sets. */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';

export type Answer = (req: IncomingMessage, res: ServerResponse) => void;

export interface IcsSource {
  url(path: string): string;
  /** What `path` answers from now on. */
  serve(path: string, answer: Answer): void;
  /** Requests seen per path, with the conditional headers sent. */
  seen: Array<{ path: string; ifNoneMatch: string | undefined; ifModifiedSince: string | undefined; authorization: string | undefined }>;
  close(): Promise<void>;
}

/** An .ics text with an ETag; 304 when If-None-Match names it. */
export const icsAnswer = (text: string, etag: string): Answer => (req, res) => {
  if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
  res.writeHead(200, { 'content-type': 'text/calendar; charset=utf-8', etag }).end(text);
};

const stamp = (iso: string) => iso.replace(/[-:]/g, '').replace(/\.\d{3}/, '');

/** A VCALENDAR of single events (test data written out line by line). */
export function icsOf(events: Array<{ uid: string; summary: string; start: string; end: string; transparent?: boolean }>): string {
  const lines = ['BEGIN:VCALENDAR', 'VERSION:2.0', 'PRODID:-//Test//Source//EN'];
  for (const e of events) {
    lines.push('BEGIN:VEVENT', `UID:${e.uid}`, 'DTSTAMP:20260101T000000Z', `DTSTART:${stamp(e.start)}`, `DTEND:${stamp(e.end)}`,
      `SUMMARY:${e.summary}`, `TRANSP:${e.transparent ? 'TRANSPARENT' : 'OPAQUE'}`, 'END:VEVENT');
  }
  lines.push('END:VCALENDAR', '');
  return lines.join('\r\n');
}

export async function startIcsSource(): Promise<IcsSource> {
  const answers = new Map<string, Answer>();
  const seen: IcsSource['seen'] = [];
  const open = new Set<ServerResponse>();
  const server: Server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    seen.push({
      path, ifNoneMatch: req.headers['if-none-match'] as string | undefined, ifModifiedSince: req.headers['if-modified-since'],
      authorization: req.headers.authorization,
    });
    open.add(res);
    res.on('close', () => open.delete(res));
    const answer = answers.get(path);
    if (answer) answer(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    serve: (path, answer) => void answers.set(path, answer),
    seen,
    close: async () => {
      for (const res of open) res.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
