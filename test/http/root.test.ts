/** `GET /` points a newcomer somewhere (issue 8.10): JSON for programs, a page with links for browsers. */
import { useTestService, type TestService } from '../support/service';

let svc: TestService;
useTestService((s) => (svc = s));

describe('GET /', () => {
  it('answers programs with JSON links to the docs and the OpenAPI document', async () => {
    const res = await fetch(`${svc.service.url}/`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = (await res.json()) as { api: string; links: Record<string, string> };
    expect(body.api).toBe('/api/v1');
    expect(body.links).toMatchObject({ docs: '/docs', openapi: '/openapi.json', signup: '/api/v1/auth/signup' });
    for (const link of [body.links.docs, body.links.openapi]) expect((await fetch(`${svc.service.url}${link}`)).status).toBe(200);
  });

  it('answers a browser with a page linking to /docs and /openapi.json', async () => {
    const res = await fetch(`${svc.service.url}/`, { headers: { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const page = await res.text();
    expect(page).toContain('href="/docs"');
    expect(page).toContain('href="/openapi.json"');
  });
});
