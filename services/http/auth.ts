import type { Request } from 'express';
import { ApiError } from '../errors';
import type { AccessRule } from './access';
import type { CredentialResolver, Principal } from './principal';

export const SESSION_COOKIE = 'session';
const UNSAFE = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const resolved = new WeakMap<Request, Promise<Principal | null>>();

function cookie(req: Request, name: string): string | undefined {
  for (const part of (req.headers.cookie ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return decodeURIComponent(part.slice(eq + 1).trim());
  }
  return undefined;
}

/** The token a request carries, and whether it came in the cookie. */
export function credentialOf(req: Request): { token: string; fromCookie: boolean } | null {
  const header = req.get('Authorization');
  if (header) {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!m) throw new ApiError(401, 'unauthenticated', 'Authorization must be "Bearer <token>"');
    return { token: m[1], fromCookie: false };
  }
  const fromCookie = cookie(req, SESSION_COOKIE);
  return fromCookie ? { token: fromCookie, fromCookie: true } : null;
}

/** This server's origin as the client reached it (behind a trusted proxy, the forwarded protocol). */
export const ownOrigin = (req: Request) => `${req.protocol}://${req.get('Host')}`;

export class Authenticator {
  constructor(
    private readonly resolvers: CredentialResolver[],
    /** Origins allowed to send cookie-authenticated unsafe requests, besides the service's own. */
    private readonly trustedOrigins: string[],
    /** PUBLIC_URL, where the operator set one. */
    private readonly publicUrl?: string,
  ) {}

  /**
   * The OAuth issuer discovery announces and access tokens carry (and must carry to be accepted): PUBLIC_URL when the
   * operator set it, so a deployment reached under several names has one issuer; else the origin the client reached.
   */
  issuer(req: Request): string {
    return this.publicUrl ?? ownOrigin(req);
  }

  /**
   * The verified caller of a request, resolved once per request (the rate limiter asks first, the route's access
   * check again); rejects when the credential is malformed, unknown or fails the cookie origin check.
   */
  principal(req: Request): Promise<Principal | null> {
    const cached = resolved.get(req);
    if (cached) return cached;
    const found = this.resolve(req);
    resolved.set(req, found);
    return found;
  }

  private async resolve(req: Request): Promise<Principal | null> {
    const cred = credentialOf(req);
    if (!cred) return null;
    if (cred.fromCookie && UNSAFE.has(req.method)) this.checkOrigin(req);
    for (const resolve of this.resolvers) {
      const p = await resolve(cred.token, this.issuer(req));
      if (p) return p;
    }
    throw new ApiError(401, 'unauthenticated', 'The credential is unknown, expired or revoked');
  }

  async authorize(req: Request, rule: AccessRule): Promise<Principal | null> {
    if (rule.kind === 'public') {
      if (rule.ownPagesOnly && UNSAFE.has(req.method)) this.checkOrigin(req);
      return (await this.principal(req).catch(() => null)) ?? null;
    }
    const p = await this.principal(req);
    if (!p) throw new ApiError(401, 'unauthenticated', 'Sign in or send a bearer token');
    if (rule.kind === 'session' && p.kind !== 'session') {
      throw new ApiError(403, 'session_required', 'This endpoint needs a signed-in session, not an API key or OAuth token');
    }
    if (rule.kind === 'scope' && p.scopes !== 'all' && !p.scopes.has(rule.scope)) {
      throw new ApiError(403, 'insufficient_scope', `This needs the ${rule.scope} scope`, { required: rule.scope });
    }
    return p;
  }

  /**
   * Cookie-authenticated writes, and the sign-in form, must come from our own pages (CSRF). Requests without Origin
   * are not browsers'; `Origin: null` (a page that hides where it is, a sandboxed frame) is refused like a foreign one.
   */
  private checkOrigin(req: Request): void {
    const origin = req.get('Origin');
    if (!origin) return;
    if (origin !== ownOrigin(req) && !this.trustedOrigins.includes(origin)) {
      throw new ApiError(403, 'origin_not_allowed', 'Cookie-authenticated requests must come from the web app');
    }
  }
}
