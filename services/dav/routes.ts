/**
 * The CalDAV server (RFC 4791, RFC 6578, RFC 6764) under /dav/: one router mapping each DAV method on each kind of
 * resource (paths.ts) to our queries and commands. Bodies are bounded as JSON bodies are (1 MB); errors answer with
 * the usual envelope, a failed CalDAV/WebDAV precondition with its XML element, a 401 with a Basic challenge.
 */
import express, { type NextFunction, type Request, type Response, type Router } from 'express';
import type { AppContext } from '../app-context';
import { ApiError } from '../errors';
import { rateLimit } from '../http/rate-limit';
import { davUserOf, REALM } from './auth';
import { davShared, notFound, type DavContext } from './context';
import { mkcalendar, proppatch } from './mkcalendar';
import { deleteObject, getObject, Precondition, preconditionReply, putObject, type DavReply } from './objects';
import { DAV_ROOT, targetOf, type DavTarget } from './paths';
import { propfind } from './propfind';
import { report } from './report';

export const DAV_BODY_LIMIT = '1mb';
const ALLOW = 'OPTIONS, GET, HEAD, PUT, DELETE, PROPFIND, PROPPATCH, REPORT, MKCALENDAR, MKCOL';
const XML = 'application/xml; charset=utf-8';

const forbidden = (message: string) => new ApiError(403, 'forbidden', message);
const notAllowed = (message: string) => new ApiError(405, 'method_not_allowed', message);

const conflict = () => new ApiError(409, 'conflict', 'The parent collection does not exist');

/**
 * MKCOL (RFC 4918 9.3): in the calendar home it makes a calendar, as MKCALENDAR does; a calendar collection holds no
 * collections (RFC 4791 4.2): 403; where something is already: 405; below a missing parent: 409; a body: 415.
 */
function mkcol(ctx: DavContext, target: DavTarget, body: string): Promise<DavReply> {
  if (body.length) throw new ApiError(415, 'unsupported_media_type', 'MKCOL takes no body here');
  if (target.kind === 'collection') return mkcalendar(ctx, target, '');
  if (target.kind === 'nested') throw conflict();
  if (target.kind === 'home' || target.kind === 'root' || target.kind === 'principal' || target.kind === 'object') throw notAllowed('Something is already there');
  throw forbidden('Calendar collections hold calendar objects only: make calendars in your calendar home');
}

async function answer(ctx: DavContext, req: Request, target: DavTarget, body: string): Promise<DavReply> {
  switch (req.method) {
    case 'PROPFIND':
      return { status: 207, type: XML, body: await propfind(ctx, target, req.get('Depth'), body) };
    case 'PROPPATCH':
      // What the caller cannot see is 404 before anything is refused.
      await propfind(ctx, target, '0', '');
      return proppatch(body);
    case 'REPORT':
      if (target.kind !== 'collection') throw new Precondition('{DAV:}supported-report', 'REPORTs are answered on calendar collections');
      return report(ctx, target, body);
    case 'MKCALENDAR':
      if (target.kind !== 'collection') throw forbidden('Calendars are made in your calendar home');
      return mkcalendar(ctx, target, body);
    case 'MKCOL':
      return mkcol(ctx, target, body);
  }
  if (target.kind === 'object') {
    if (req.method === 'GET' || req.method === 'HEAD') return getObject(ctx, target, req.method === 'HEAD');
    if (req.method === 'PUT') return putObject(ctx, target, req, body);
    if (req.method === 'DELETE') return deleteObject(ctx, target, req);
  }
  if (target.kind === 'nested' && req.method === 'PUT') throw conflict();
  if (target.kind === 'unknown' && req.method === 'PUT') throw forbidden('A calendar collection holds calendar objects only, named {UID}.ics');
  if (target.kind === 'unknown' || target.kind === 'nested') throw notFound();
  if (req.method === 'GET' || req.method === 'HEAD') return { status: 200, type: 'text/plain; charset=utf-8', body: 'CalDAV: use PROPFIND\n' };
  if (req.method === 'DELETE') throw forbidden('Collections are deleted in the app, not over CalDAV');
  if (req.method === 'PUT') throw notAllowed('PUT calendar objects (name.ics) into a calendar collection');
  throw notAllowed(`${req.method} is not supported here`);
}

function send(res: Response, reply: DavReply): void {
  for (const [k, v] of Object.entries(reply.headers ?? {})) res.setHeader(k, v);
  res.status(reply.status);
  if (reply.type) res.type(reply.type);
  if (reply.body === undefined) return void res.end();
  res.send(reply.body);
}

export function davRouter(app: AppContext): Router {
  const shared = davShared(app);
  const router = express.Router();
  // The caller, verified once per request: the rate limiter (the API's limits, per app password or address) asks first.
  const callers = new WeakMap<Request, ReturnType<typeof davUserOf>>();
  const callerOf = (req: Request) => callers.get(req) ?? callers.set(req, davUserOf(req, app.readModels, app.apiKeys.resolve)).get(req)!;
  const limits = { perCredential: app.config.RATE_LIMIT_PER_CREDENTIAL, perIp: app.config.RATE_LIMIT_PER_IP, windowMs: 60_000 };
  router.use(rateLimit(limits, async (req) => (await callerOf(req)).principal));
  router.use(express.text({ type: () => true, limit: DAV_BODY_LIMIT }));
  router.use(async (req, res, next) => {
    try {
      res.setHeader('DAV', '1, 3, calendar-access');
      if (req.method === 'OPTIONS') {
        res.setHeader('Allow', ALLOW);
        return void res.status(200).end();
      }
      const who = await callerOf(req);
      const ctx: DavContext = { ...shared, ...who };
      const body = typeof req.body === 'string' ? req.body : '';
      send(res, await answer(ctx, req, targetOf(req.path), body));
    } catch (err) {
      next(err);
    }
  });
  router.use((err: unknown, _req: Request, res: Response, next: NextFunction) => {
    if (err instanceof Precondition) return send(res, preconditionReply(err));
    if (err instanceof ApiError && err.status === 401) res.setHeader('WWW-Authenticate', `Basic realm="${REALM}", charset="UTF-8"`);
    next(err);
  });
  return router;
}

/** RFC 6764 5: `/.well-known/caldav` leads to the context path. */
export function wellKnownCaldav(_req: Request, res: Response): void {
  res.redirect(301, DAV_ROOT);
}
