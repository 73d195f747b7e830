/**
 * Signing a person in on the way to the consent page. A browser without a session at GET /oauth/authorize gets the
 * sign-in page (`signInGate`, which runs before that route would answer 401); its form posts to POST /oauth/sign-in,
 * which sets the session cookie and answers 303 to the same authorization URL. `return_to` can only name the
 * authorization endpoint (contracts/oauth.ts), so this never redirects anywhere else.
 */
import type { Request, RequestHandler } from 'express';
import { AuthorizeQuery, oauthOperations, type SignInBody } from '../../contracts/oauth';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { ApiError } from '../../services/errors';
import { BASE_PATH } from '../../services/http/home';
import type { Principal } from '../../services/http/principal';
import { route, sendReply, type Reply } from '../../services/http/route';
import { retryAfterOf, sessionCookie, type PasswordSignIn } from '../accounts/password-sign-in';
import { checkAuthorizationRequest, errorRedirect, pageReply } from './authorization-request';
import { pageHeaders } from './pages';
import { signInPage, type SignInView } from './sign-in-page';

const AUTHORIZE_PATH = `${BASE_PATH}/oauth/authorize`;

const signInReply = (status: number, view: SignInView): Reply => ({ status, html: signInPage(view), headers: pageHeaders(null) });

/** The request's authorization URL as `return_to` takes it: the endpoint's own path, whatever spelling reached it. */
function returnToOf(req: Request): string {
  const q = req.originalUrl.indexOf('?');
  return q < 0 ? AUTHORIZE_PATH : `${AUTHORIZE_PATH}${req.originalUrl.slice(q)}`;
}

/**
 * GET /oauth/authorize for a person (`Accept` prefers text/html) without a valid session: the sign-in page, once the
 * client and redirect URI are known to be right (otherwise the same error page or redirect the consent page gives).
 * Everyone else goes on to the route: a program without a session keeps its JSON 401.
 */
export function signInGate(app: AppContext, principalOf: (req: Request) => Promise<Principal | null>): RequestHandler {
  return async (req, res, next) => {
    try {
      if (req.accepts(['json', 'html']) !== 'html' || (await principalOf(req).catch(() => null))) return next();
      const query = AuthorizeQuery.parse(req.query);
      const c = await checkAuthorizationRequest(app.oauth.applications, query);
      if (c.kind === 'page') return sendReply(res, pageReply(c.message));
      if (c.error) return sendReply(res, errorRedirect(c, query.state, c.error, c.description));
      sendReply(res, signInReply(200, { applicationName: c.application.name, returnTo: returnToOf(req) }));
    } catch (err) {
      next(err);
    }
  };
}

export function signInRoutes(app: AppContext, passwords: PasswordSignIn) {
  return [
    route<SignInBody>(findOperation(oauthOperations, 'post', '/oauth/sign-in'), async (input) => {
      const { email, password, return_to: returnTo } = input.body;
      try {
        const { session } = await passwords.signIn(email, password, input.ip);
        return { status: 303, headers: { Location: returnTo, 'Cache-Control': 'no-store' }, cookies: [sessionCookie(input, session)] };
      } catch (err) {
        if (!(err instanceof ApiError) || (err.status !== 401 && err.status !== 429)) throw err;
        const clientId = new URL(returnTo, input.issuer).searchParams.get('client_id');
        const application = clientId ? await app.oauth.applications.byClientId(clientId) : null;
        const reply = signInReply(err.status, { applicationName: application?.name ?? null, returnTo, email, problem: `${err.message}.` });
        if (err.status === 429) reply.headers!['Retry-After'] = retryAfterOf(err);
        return reply;
      }
    }),
  ];
}
