import express, { type Express } from 'express';
import helmet from 'helmet';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Operation } from '../../contracts/operation';
import type { AppContext } from '../app-context';
import { ApiError } from '../errors';
import { adminRouter } from './admin';
import { cors } from './cors';
import { Authenticator } from './auth';
import { errorHandler, notFoundRoute } from './errors';
import { Idempotency } from './idempotency';
import { requestLogging } from './logging';
import { rateLimit } from './rate-limit';
import { buildOpenApi } from './openapi';
import type { CredentialResolver } from './principal';
import { isLiteralPath, keepRawBody, mount, mountMethodNotAllowed, mountNotImplemented, routeKey, type Route } from './route';

export const BASE_PATH = '/api/v1';
const MAX_URL = 8192;

export interface HttpOptions {
  routes: Route[];
  operations: Operation[];
  resolvers: CredentialResolver[];
  /** True when the stores are reachable and the projections are close enough to the head of the log. */
  ready(): Promise<{ ready: boolean; details: Record<string, unknown> }>;
}

// No inline script: the Content-Security-Policy allows scripts from this origin only.
const DOCS_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>Calendar API</title>
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head><body><div id="ui"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script><script src="/docs/init.js"></script></body></html>`;
const DOCS_INIT = "SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui' });";

/** `GET /`: where to go from here, as JSON for programs and as a page for browsers. */
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
const HOME_PAGE = `<!doctype html><html><head><meta charset="utf-8"><title>${HOME.name}</title></head><body>
<h1>${HOME.name}</h1><p>The REST API lives under <code>${BASE_PATH}</code>.</p><ul>
<li><a href="/docs">API documentation</a> (try every call in the browser)</li>
<li><a href="/openapi.json">OpenAPI 3.1 document</a> (for client generators)</li>
<li>Start with <code>POST ${BASE_PATH}/auth/signup</code> {email, password, name}, then send the session token as
<code>Authorization: Bearer &lt;token&gt;</code></li>
<li><a href="/healthz">/healthz</a> and <a href="/readyz">/readyz</a></li></ul></body></html>`;

export function createHttpApp(app: AppContext, options: HttpOptions): Express {
  const http = express();
  http.disable('x-powered-by');
  http.set('etag', false); // ETags are ours (event versions), not hashes of every body
  const trust = app.config.TRUST_PROXY;
  http.set('trust proxy', trust === 'true' ? true : trust === 'false' ? false : /^\d+$/.test(trust) ? Number(trust) : trust);
  http.use(requestLogging(app.log));
  http.use((req, _res, next) =>
    next(req.originalUrl.length > MAX_URL ? new ApiError(414, 'uri_too_long', `URLs may be at most ${MAX_URL} characters`) : undefined),
  );
  // Swagger UI's stylesheet carries inline data: images; everything else keeps helmet's defaults.
  http.use(helmet({ contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:'] } } }));
  const webOrigins = app.config.WEB_ORIGIN ? app.config.WEB_ORIGIN.split(',').map((o) => o.trim()) : [];
  http.use(cors(webOrigins));

  const openapi = buildOpenApi(options.operations);
  http.get(['/openapi.json', `${BASE_PATH}/openapi.json`], (_req, res) => void res.json(openapi));
  const swaggerDir = path.dirname(createRequire(__filename).resolve('swagger-ui-dist/package.json'));
  http.use('/docs/assets', express.static(swaggerDir, { index: false }));
  http.get('/docs', (_req, res) => void res.type('html').send(DOCS_PAGE));
  http.get('/docs/init.js', (_req, res) => void res.type('js').send(DOCS_INIT));
  http.get('/', (req, res) => void (req.accepts(['json', 'html']) === 'html' ? res.type('html').send(HOME_PAGE) : res.json(HOME)));
  http.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  http.get('/readyz', async (_req, res, next) => {
    try {
      const r = await options.ready();
      res.status(r.ready ? 200 : 503).json({ status: r.ready ? 'ready' : 'not_ready', ...r.details });
    } catch (err) {
      next(err);
    }
  });

  const auth = new Authenticator(options.resolvers, webOrigins);
  const api = express.Router();
  const limits = { perCredential: app.config.RATE_LIMIT_PER_CREDENTIAL, perIp: app.config.RATE_LIMIT_PER_IP, windowMs: 60_000 };
  api.use(rateLimit(limits, (req) => auth.principal(req)));
  const json = express.json({ limit: '1mb', type: ['application/json', 'application/*+json'], verify: keepRawBody });
  // Only methods that carry a body parse one, so a stray body never masks a 405 or a GET's answer.
  api.use((req, res, next) => (['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method) ? json(req, res, next) : next()));
  // OAuth clients and the consent page's form post form-encoded bodies (RFC 6749); nothing else accepts them.
  api.use(['/oauth/token', '/oauth/authorize'], express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  const deps = {
    auth,
    idempotency: new Idempotency(app.store, app.serverKeys, (commandId, run) => app.commands.recovering(commandId, run)),
    waitForPosition: (p: number) => app.watermarks.waitFor(app.projectionNames, p, app.config.MIN_POSITION_WAIT_MS),
    writeWaitsForProjection: app.config.WRITE_WAITS_FOR_PROJECTION,
  };
  const served = new Set(options.routes.map((r) => routeKey(r.operation)));
  for (const literal of [true, false]) {
    const paths = (path: string) => isLiteralPath(path) === literal;
    for (const r of options.routes) if (paths(r.operation.path)) mount(api, deps, r);
    mountNotImplemented(api, deps, served, paths);
    mountMethodNotAllowed(api, paths);
  }
  http.use(BASE_PATH, api);
  http.use('/admin', express.json({ limit: '16kb' }), adminRouter(app));
  http.use(notFoundRoute);
  http.use(errorHandler);
  return http;
}
