/**
 * Checking an authorization request (RFC 6749 4.1.1, PKCE per RFC 7636) and the answers it leads to. Until the
 * client and its exact redirect URI are verified, problems get an error page, never a redirect; after that they go
 * back to the client as `error=…`.
 */
import type { AuthorizeParams } from '../../contracts/oauth';
import type { Reply } from '../../services/http/route';
import type { ApplicationDoc, OAuthApplications } from './applications';
import { errorPage, pageHeaders } from './pages';

const S256_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export type Checked =
  | { kind: 'page'; message: string }
  | { kind: 'client'; application: ApplicationDoc; redirectUri: string; error?: string; description?: string; scopes?: string[] };

export async function checkAuthorizationRequest(applications: OAuthApplications, p: AuthorizeParams): Promise<Checked> {
  const application = p.client_id ? await applications.byClientId(p.client_id) : null;
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
}

export function redirect(to: string, query: Record<string, string | undefined>): Reply {
  const url = new URL(to);
  for (const [k, v] of Object.entries(query)) if (v !== undefined) url.searchParams.set(k, v);
  return { status: 302, headers: { Location: url.toString(), 'Cache-Control': 'no-store' } };
}

export const errorRedirect = (c: Extract<Checked, { kind: 'client' }>, state: string | undefined, error: string, description?: string) =>
  redirect(c.redirectUri, { error, error_description: description, state });

export const pageReply = (message: string): Reply => ({ status: 400, html: errorPage(message), headers: pageHeaders(null) });
