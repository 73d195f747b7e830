import express, { type RequestHandler } from 'express';
import helmet, { type HelmetOptions } from 'helmet';
import type { AddressInfo } from 'node:net';
import { securityHeaders } from '../../services/http/security-headers';

/** The headers of GET /x from an app with `middleware` in front (the date, which changes, left out). */
async function headersWith(middleware: RequestHandler): Promise<Record<string, string>> {
  const app = express();
  app.use(middleware);
  app.get('/x', (_req, res) => void res.json({ ok: true }));
  const server = app.listen(0, '127.0.0.1');
  await new Promise((resolve) => server.once('listening', resolve));
  try {
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/x`);
    const headers = Object.fromEntries(res.headers);
    delete headers.date;
    return headers;
  } finally {
    server.close();
  }
}

describe('security headers', () => {
  const options: HelmetOptions = { contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:'] } } };

  it('are the headers helmet sets, worked out once', async () => {
    const expected = await headersWith(helmet(options));
    expect(expected['content-security-policy']).toContain("img-src 'self' data:");
    expect(await headersWith(securityHeaders(options))).toEqual(expected);
  });

  it('refuses a configuration whose headers depend on the request', () => {
    const nonce: HelmetOptions = {
      contentSecurityPolicy: { directives: { 'script-src': ["'self'", (_req, res) => `'nonce-${(res as { locals?: { n?: string } }).locals?.n}'`] } },
    };
    expect(() => securityHeaders(nonce)).toThrow();
  });
});
