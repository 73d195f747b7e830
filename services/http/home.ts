/** `GET /`: where a newcomer goes from here, as JSON for programs and as a page with links for browsers. */
import type { Request, Response } from 'express';

export const BASE_PATH = '/api/v1';

const HOME = {
  name: 'Calendar and planning service',
  api: BASE_PATH,
  links: {
    docs: '/docs',
    openapi: '/openapi.json',
    signup: `${BASE_PATH}/auth/signup`,
    health: '/healthz',
    ready: '/readyz',
  },
};

const PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>${HOME.name}</title></head><body>
<h1>${HOME.name}</h1><p>The REST API lives under <code>${BASE_PATH}</code>.</p><ul>
<li><a href="/docs">API documentation</a> (try every call in the browser)</li>
<li><a href="/openapi.json">OpenAPI 3.1 document</a> (for client generators)</li>
<li>Start with <code>POST ${BASE_PATH}/auth/signup</code> {email, password, name}, then send the session token as
<code>Authorization: Bearer &lt;token&gt;</code></li>
<li><a href="/healthz">/healthz</a> and <a href="/readyz">/readyz</a></li></ul></body></html>`;

export function home(req: Request, res: Response): void {
  if (req.accepts(['json', 'html']) === 'html') res.type('html').send(PAGE);
  else res.json(HOME);
}
