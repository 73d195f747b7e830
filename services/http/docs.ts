/**
 * The API documentation at /docs: swagger-ui (swagger-ui-dist) over /openapi.json. Its Authorize button runs the
 * OAuth authorization code flow with PKCE in a popup, which comes back to swagger-ui's own redirect page at
 * /docs/oauth2-redirect.html; that page hands the code to the docs page, which redeems it at the token endpoint.
 * Using it takes an application registered with that redirect URI (public: no secret to type into a web page).
 */
import express, { type Router } from 'express';
import { createRequire } from 'node:module';
import path from 'node:path';

export const DOCS_OAUTH_REDIRECT_PATH = '/docs/oauth2-redirect.html';

// No inline script: the Content-Security-Policy allows scripts from this origin only.
const DOCS_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Calendar API</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head><body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/init.js"></script></body></html>`;
// swagger-ui's default redirect URL is derived from the page's path (/oauth2-redirect.html here), which is not served.
const DOCS_INIT = `const ui = SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', oauth2RedirectUrl: location.origin + '${DOCS_OAUTH_REDIRECT_PATH}' });
ui.initOAuth({ usePkceWithAuthorizationCodeGrant: true });
`;

export function docsRoutes(): Router {
  const dist = path.dirname(createRequire(__filename).resolve('swagger-ui-dist/package.json'));
  const router = express.Router();
  router.use('/docs/assets', express.static(dist, { index: false }));
  router.get('/docs', (_req, res) => void res.type('html').send(DOCS_PAGE));
  router.get('/docs/init.js', (_req, res) => void res.type('js').send(DOCS_INIT));
  // The redirect page loads its script by a relative path, so the script is served beside it.
  router.get(DOCS_OAUTH_REDIRECT_PATH, (_req, res) => res.sendFile(path.join(dist, 'oauth2-redirect.html')));
  router.get('/docs/oauth2-redirect.js', (_req, res) => res.sendFile(path.join(dist, 'oauth2-redirect.js')));
  return router;
}
