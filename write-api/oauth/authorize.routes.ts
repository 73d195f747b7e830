/**
 * The authorization endpoint (RFC 6749 4.1, PKCE per RFC 7636). Until the client and its exact redirect URI are
 * verified, problems get an error page, never a redirect; after that they go back to the client as `error=…`.
 * The consent form posts the same parameters back; POST is cookie- or session-authenticated, and a cookie POST
 * passes the Origin check (CSRF) before it gets here.
 */
import { oauthOperations, type AuthorizeDecisionBody, type AuthorizeParams } from '../../contracts/oauth';
import { findOperation } from '../../contracts/operation';
import { userById } from '../../read-api/profile/users.queries';
import type { AppContext } from '../../services/app-context';
import { route, type Reply } from '../../services/http/route';
import type { ApplicationDoc } from './applications';
import { consentPage, errorPage, pageHeaders } from './consent-page';

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

type Checked =
  | { kind: 'page'; message: string }
  | { kind: 'client'; application: ApplicationDoc; redirectUri: string; error?: string; description?: string; scopes?: string[] };

function redirect(to: string, query: Record<string, string | undefined>): Reply {
  const url = new URL(to);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  return { status: 302, headers: { Location: url.toString(), 'Cache-Control': 'no-store' } };
}

const errorRedirect = (c: Extract<Checked, { kind: 'client' }>, state: string | undefined, error: string, description?: string) =>
  redirect(c.redirectUri, { error, error_description: description, state });

const pageReply = (message: string): Reply => ({ status: 400, html: errorPage(message), headers: pageHeaders(null) });

export function authorizeRoutes(app: AppContext) {
  const check = async (p: AuthorizeParams): Promise<Checked> => {
    const application = p.client_id ? await app.oauth.applications.byClientId(p.client_id) : null;
    if (!application) return { kind: 'page', message: 'The application (client_id) is unknown or was deleted.' };
    if (p.redirect_uri !== application.redirectUri) {
      return { kind: 'page', message: 'redirect_uri is missing or is not the one registered for this application.' };
    }
    const client = { kind: 'client' as const, application, redirectUri: application.redirectUri };
    if (p.response_type !== 'code') return { ...client, error: 'unsupported_response_type', description: 'response_type must be code' };
    const requested = [...new Set((p.scope ?? '').split(' ').filter(Boolean))];
    const scopes: string[] = requested.length ? requested : application.scopes;
    const allowed: readonly string[] = application.scopes;
    const refused = scopes.filter((s) => !allowed.includes(s));
    if (refused.length) return { ...client, error: 'invalid_scope', description: `Not allowed for this application: ${refused.join(' ')}` };
    if (p.code_challenge === undefined) {
      if (p.code_challenge_method !== undefined) return { ...client, error: 'invalid_request', description: 'code_challenge is missing' };
      if (application.secretHash === null) return { ...client, error: 'invalid_request', description: 'Public clients must use PKCE (S256)' };
    } else if (p.code_challenge_method !== 'S256') {
      return { ...client, error: 'invalid_request', description: 'code_challenge_method must be S256' };
    } else if (!S256_CHALLENGE.test(p.code_challenge)) {
      return { ...client, error: 'invalid_request', description: 'code_challenge must be 43 base64url characters' };
    }
    return { ...client, scopes };
  };

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
