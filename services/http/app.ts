import express, { type Express, type Router } from 'express';
import { IMPORT_MAX_BYTES } from '../../contracts/ical';
import type { Operation } from '../../contracts/operation';
import { authorizationServerMetadata, DISCOVERY_PATH } from '../../write-api/oauth/discovery';
import { signInGate } from '../../write-api/oauth/sign-in.routes';
import type { AppContext } from '../app-context';
import { davRouter, wellKnownCaldav } from '../dav/routes';
import { ApiError } from '../errors';
import { access } from './access';
import { adminRouter } from './admin';
import { cors } from './cors';
import { docsRoutes } from './docs';
import { Authenticator } from './auth';
import { errorHandler, notFoundRoute } from './errors';
import { BASE_PATH, home } from './home';
import { FairShare } from './fair-share';
import { Idempotency } from './idempotency';
import type { Metrics } from './metrics';
import type { Readiness } from './readiness';
import { requestMetrics, routePrefix } from './request-metrics';
import { requestLogging } from './logging';
import { securityHeaders } from './security-headers';
import { rateLimit } from './rate-limit';
import { buildOpenApi } from './openapi';
import type { CredentialResolver } from './principal';
import { dispatcher } from './dispatch';
import { keepRawBody, operationHandler, routeKey, type Route } from './route';

export { BASE_PATH };
const MAX_URL = 8192;

export interface HttpOptions {
  routes: Route[];
  operations: Operation[];
  resolvers: CredentialResolver[];
  /** Pages served beside the API (the booking pages). */
  pages?: Router;
  /** Whether the stores answer and the roles keep up (services/http/readiness.ts). */
  ready(): Promise<Readiness>;
  /** Served on GET /metrics (Prometheus text format). */
  metrics: Metrics;
}

export function createHttpApp(app: AppContext, options: HttpOptions): Express {
  const http = express();
  http.disable('x-powered-by');
  http.set('etag', false); // ETags are ours (event versions), not hashes of every body
  const trust = app.config.TRUST_PROXY;
  http.set('trust proxy', trust === 'true' ? true : trust === 'false' ? false : /^\d+$/.test(trust) ? Number(trust) : trust);
  http.use(requestMetrics(options.metrics));
  http.use(requestLogging(app.log));
  http.use((req, _res, next) =>
    next(req.originalUrl.length > MAX_URL ? new ApiError(414, 'uri_too_long', `URLs may be at most ${MAX_URL} characters`) : undefined),
  );
  // Swagger UI's stylesheet carries inline data: images; everything else keeps helmet's defaults.
  http.use(securityHeaders({ contentSecurityPolicy: { directives: { 'img-src': ["'self'", 'data:'] } } }));
  const webOrigins = app.config.WEB_ORIGIN ? app.config.WEB_ORIGIN.split(',').map((o) => o.trim()) : [];
  http.use(cors(webOrigins));

  const openapi = buildOpenApi(options.operations);
  http.get(['/openapi.json', `${BASE_PATH}/openapi.json`], (_req, res) => void res.json(openapi));

  const auth = new Authenticator(options.resolvers, webOrigins, app.config.PUBLIC_URL);
  const api = express.Router();
  const limits = { perCredential: app.config.RATE_LIMIT_PER_CREDENTIAL, perIp: app.config.RATE_LIMIT_PER_IP, windowMs: 60_000 };
  api.use(rateLimit(limits, (req) => auth.principal(req)));
  const json = express.json({ limit: '1mb', type: ['application/json', 'application/*+json'], verify: keepRawBody });
  // Only methods that carry a body parse one, so a stray body never masks a 405 or a GET's answer.
  api.use((req, res, next) => (['POST', 'PUT', 'PATCH', 'DELETE'].includes(req.method) ? json(req, res, next) : next()));
  // An iCalendar import is the file itself (contracts/ical.ts), up to 10 MB.
  api.post('/calendars/:id/import', express.text({ type: 'text/calendar', limit: IMPORT_MAX_BYTES }));
  // OAuth clients and the sign-in and consent pages' forms post form-encoded bodies (RFC 6749); nothing else accepts them.
  api.use(['/oauth/token', '/oauth/authorize', '/oauth/sign-in'], express.urlencoded({ extended: false, limit: '16kb', parameterLimit: 50 }));
  const deps = {
    auth,
    idempotency: new Idempotency(app.store, app.serverKeys, (commandId, run) => app.commands.recovering(commandId, run)),
    waitForPosition: (p: number) => app.watermarks.waitFor(app.projectionNames, p, app.config.MIN_POSITION_WAIT_MS),
    headPosition: () => app.events.headPosition(),
    readPosition: () => app.watermarks.reached(app.projectionNames),
    writeWaitsForProjection: app.config.WRITE_WAITS_FOR_PROJECTION,
    fairShare: new FairShare({
      perCaller: app.config.HEAVY_READS_PER_CALLER, total: app.config.HEAVY_READS_TOTAL,
      queuePerCaller: app.config.HEAVY_READS_QUEUE, maxWaitMs: app.config.HEAVY_READS_MAX_WAIT_MS,
    }),
  };
  const served = new Set(options.routes.map((r) => routeKey(r.operation)));
  const unserved = Object.keys(access).filter((row) => !served.has(row));
  if (unserved.length) throw new Error(`access table rows without a route: ${unserved.join(', ')}`);
  const operations = options.routes.map((r) => ({ method: r.operation.method, path: r.operation.path, handle: operationHandler(deps, r) }));
  api.get('/oauth/authorize', signInGate(app, (req) => auth.principal(req)));
  api.use(dispatcher(operations, Object.keys(access)));
  http.use(BASE_PATH, routePrefix(BASE_PATH), api);
  // Feed addresses are `{PUBLIC_URL}/ical/{token}.ics` (addendum): the same operation as under the base path.
  http.use('/ical', (req, res, next) => {
    req.url = `/ical${req.url}`;
    api(req, res, next);
  });
  // Everything else comes after the API, so that an API request passes as few layers as it can.
  // CalDAV (services/dav): its own methods, HTTP Basic with app passwords, XML bodies.
  http.all('/.well-known/caldav', wellKnownCaldav);
  http.use('/dav', routePrefix('/dav'), davRouter(app));
  http.use(docsRoutes());
  http.get(DISCOVERY_PATH, (req, res) => {
    res.setHeader('Cache-Control', 'public, max-age=3600');
    res.json(authorizationServerMetadata(auth.issuer(req), BASE_PATH));
  });
  http.get('/', home);
  http.get('/healthz', (_req, res) => void res.json({ status: 'ok' }));
  http.get('/readyz', async (_req, res, next) => {
    try {
      const r = await options.ready();
      res.status(r.status === 'not_ready' ? 503 : 200).json(r);
    } catch (err) {
      next(err);
    }
  });
  http.get('/metrics', async (_req, res, next) => {
    try {
      const { contentType, text } = await options.metrics.render();
      res.type(contentType).send(text);
    } catch (err) {
      next(err);
    }
  });

  if (options.pages) http.use(options.pages);
  http.use('/admin', routePrefix('/admin'), express.json({ limit: '16kb' }), adminRouter(app));
  http.use(notFoundRoute);
  http.use(errorHandler);
  return http;
}
