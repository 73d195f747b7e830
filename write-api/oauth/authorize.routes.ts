/**
 * The authorization endpoint (RFC 6749 4.1): the consent page, and the decision its form posts back with the same
 * parameters. POST is cookie- or session-authenticated, and a cookie POST passes the Origin check (CSRF) before it
 * gets here. A browser without a session gets the sign-in page instead of the consent page (sign-in.routes.ts).
 */
import { oauthOperations, type AuthorizeDecisionBody, type AuthorizeParams } from '../../contracts/oauth';
import { findOperation } from '../../contracts/operation';
import { userById } from '../../read-api/profile/users.queries';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { checkAuthorizationRequest, errorRedirect, pageReply, redirect } from './authorization-request';
import { consentPage } from './consent-page';
import { pageHeaders } from './pages';

export function authorizeRoutes(app: AppContext) {
  const check = (p: AuthorizeParams) => checkAuthorizationRequest(app.oauth.applications, p);

  return [
    route<unknown, AuthorizeParams>(findOperation(oauthOperations, 'get', '/oauth/authorize'), async ({ query, principal }) => {
      const c = await check(query);
      if (c.kind === 'page') return pageReply(c.message);
      if (c.error) return errorRedirect(c, query.state, c.error, c.description);
      const user = await userById(app.readModels, principal!.userId);
      const html = consentPage({
        applicationName: c.application.name,
        userName: user ? `${user.name} (${user.email})` : 'you',
        scopes: c.scopes!,
        params: { ...query, scope: c.scopes!.join(' ') },
      });
      return { status: 200, html, headers: pageHeaders(new URL(c.redirectUri).origin) };
    }),

    route<AuthorizeDecisionBody>(findOperation(oauthOperations, 'post', '/oauth/authorize'), async ({ body, principal }) => {
      const c = await check(body);
      if (c.kind === 'page') return pageReply(c.message);
      if (body.decision === undefined) return pageReply('decision must be allow or deny.');
      if (body.decision === 'deny') return errorRedirect(c, body.state, 'access_denied', 'The user denied the request');
      if (c.error) return errorRedirect(c, body.state, c.error, c.description);
      const code = await app.oauth.grants.issueCode({
        clientId: c.application.clientId, userId: principal!.userId, redirectUri: c.redirectUri, scopes: c.scopes!,
        codeChallenge: body.code_challenge ?? null,
      });
      return redirect(c.redirectUri, { code, state: body.state });
    }),
  ];
}
