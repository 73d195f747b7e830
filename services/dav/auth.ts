/**
 * HTTP Basic for CalDAV clients (they speak nothing else): the user's email or username and an app password, which
 * is an API key (`ck_live_…`). The key must belong to the user named; anything else is 401 with a challenge, so
 * a client asks for the password again. Scopes are the REST ones: `events:read` to read, the write scopes to write.
 */
import type { Request } from 'express';
import type { UserRecord } from '../../contracts/domain-events';
import { userById } from '../../read-api/profile/users.queries';
import type { ReadModels } from '../../projections/read-models';
import { ApiError } from '../errors';
import type { CredentialResolver, Principal } from '../http/principal';

export const REALM = 'Calendar Service CalDAV';

export interface DavUser {
  principal: Principal;
  user: UserRecord;
}

/** 401 with `WWW-Authenticate: Basic` (services/dav/routes.ts writes the challenge for this code). */
export const unauthenticated = (message: string) => new ApiError(401, 'unauthenticated', message);

function basicOf(req: Request): { name: string; password: string } | null {
  const header = req.get('Authorization');
  if (!header) return null;
  const m = /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) throw unauthenticated('Authorization must be "Basic <base64 of user:app password>"');
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw unauthenticated('Basic credentials must be user:password');
  return { name: decoded.slice(0, colon).trim(), password: decoded.slice(colon + 1) };
}

const named = (user: UserRecord, name: string) =>
  user.email.toLowerCase() === name.toLowerCase() || user.username === name;

export async function davUserOf(req: Request, models: ReadModels, apiKeys: CredentialResolver): Promise<DavUser> {
  const basic = basicOf(req);
  if (!basic) throw unauthenticated('CalDAV needs HTTP Basic: your email or username and an app password (an API key)');
  const principal = basic.password.startsWith('ck_') ? await apiKeys(basic.password, '').catch(() => null) : null;
  const user = principal?.kind === 'api_key' ? await userById(models, principal.userId) : null;
  if (!principal || !user || !named(user, basic.name)) throw unauthenticated('Unknown user or app password');
  return { principal, user };
}

export type DavScope = 'events:read' | 'events:create' | 'events:update' | 'events:delete' | 'calendars:write';

export function requireScope(p: Principal, scope: DavScope): void {
  if (p.scopes !== 'all' && !p.scopes.has(scope)) {
    throw new ApiError(403, 'insufficient_scope', `This needs the ${scope} scope`, { required: scope });
  }
}
