/**
 * The API's operations as one router layer. A path without parameters is found in a map; one with parameters by
 * the patterns, tried in mounting order after the literal paths (so `/webhooks/event-types` is never an id). Express's
 * router tried every route's pattern in turn, then one 405 route per path (its router took about 14 % of a GET's
 * CPU; about 10 % with this layer). Matching keeps express's defaults: case-insensitive, one trailing slash allowed, HEAD served by GET,
 * parameters percent-decoded (a malformed one is a 400 here; express answered 500).
 */
import type { NextFunction, Request, RequestHandler, Response } from 'express';
import { ApiError } from '../errors';

/** Runs one operation for a request whose path matched; `params` are decoded. */
export type OperationHandler = (req: Request, res: Response, next: NextFunction, params: Record<string, string>) => void;

export interface DispatchedOperation {
  method: string;
  /** The contract's path template (`/events/{id}`). */
  path: string;
  handle: OperationHandler;
}

interface PathEntry {
  /** The template, as metrics label it. */
  template: string;
  handlers: Map<string, OperationHandler>;
  /** The Allow header of a 405: the path's methods in the order given. */
  allow: string;
}

interface Pattern extends PathEntry {
  regex: RegExp;
  names: string[];
}

const PARAM = /\{(\w+)\}/g;
const escapeRegex = (s: string) => s.replace(/[.*+?^$()|[\]\\]/g, '\\$&');

function compile(template: string): Pick<Pattern, 'regex' | 'names'> {
  const names = [...template.matchAll(PARAM)].map((m) => m[1]);
  const source = template.split(PARAM).map((part, i) => (i % 2 ? '([^/]+?)' : escapeRegex(part))).join('');
  return { regex: new RegExp(`^${source}/?$`, 'i'), names };
}

function decode(name: string, raw: string): string {
  try {
    return decodeURIComponent(raw);
  } catch {
    throw new ApiError(400, 'invalid_request', `Invalid path: ${name} is not valid percent-encoding`, {
      issues: [{ path: `path.${name}`, message: 'not valid percent-encoding' }],
    });
  }
}

/** `allowOrder`: every operation's `METHOD /path`, in the order an Allow header lists them. */
export function dispatcher(operations: readonly DispatchedOperation[], allowOrder: readonly string[]): RequestHandler {
  const entries = new Map<string, PathEntry>();
  for (const op of operations) {
    const entry = entries.get(op.path) ?? { template: op.path, handlers: new Map(), allow: '' };
    entry.handlers.set(op.method.toUpperCase(), op.handle);
    entries.set(op.path, entry);
  }
  for (const entry of entries.values()) {
    const methods = allowOrder.map((key) => key.split(' ')).filter(([, path]) => path === entry.template).map(([m]) => m);
    entry.allow = methods.join(', ');
  }
  const literal = new Map<string, PathEntry>();
  const patterns: Pattern[] = [];
  for (const entry of entries.values()) {
    if (entry.template.includes('{')) patterns.push({ ...entry, ...compile(entry.template) });
    else literal.set(entry.template.toLowerCase(), entry);
  }

  return (req, res, next) => {
    const path = req.path;
    let entry: PathEntry | undefined = literal.get((path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path).toLowerCase());
    let params: Record<string, string> = {};
    if (!entry) {
      for (const pattern of patterns) {
        const m = pattern.regex.exec(path);
        if (!m) continue;
        entry = pattern;
        try {
          params = Object.fromEntries(pattern.names.map((name, i) => [name, decode(name, m[i + 1])]));
        } catch (err) {
          return next(err);
        }
        break;
      }
    }
    if (!entry) return next();
    res.locals.route = entry.template;
    const handler = entry.handlers.get(req.method) ?? (req.method === 'HEAD' ? entry.handlers.get('GET') : undefined);
    if (handler) return handler(req, res, next, params);
    res.setHeader('Allow', entry.allow);
    next(new ApiError(405, 'method_not_allowed', `Use ${entry.allow} on this path`));
  };
}
