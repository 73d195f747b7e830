import { z } from 'zod';
import { DateTime, ErrorEnvelope, IdParams, NonBlankText, Uuid } from './common';
import * as examples from './examples';
import { op } from './operation';
import { SCOPES } from '../services/http/access';
import { BASE_PATH } from '../services/http/home';
import { Scope, ScopeList } from './scopes';

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https anywhere, plain http only back to the user's own machine; no fragment, no credentials in the URL. */
export function isAllowedRedirectUri(value: string): boolean {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  if (value.includes('#') || url.username || url.password || !url.hostname) return false;
  return url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK.has(url.hostname));
}

const HOST = '(?:[A-Za-z0-9-]+\\.)*[A-Za-z][A-Za-z0-9-]*';
const PORT = '(?::(?:6553[0-5]|655[0-2][0-9]|65[0-4][0-9]{2}|6[0-4][0-9]{3}|[1-5][0-9]{4}|[1-9][0-9]{0,3}))?';
const LOOPBACK_HOST = '(?:localhost|127\\.0\\.0\\.1|\\[::1\\])';
/** The shape isAllowedRedirectUri accepts, for the document (and the tools that generate requests from it). */
const REDIRECT_URI_PATTERN = `^(?:https://${HOST}|http://${LOOPBACK_HOST})${PORT}(?:[/?][^#\\s]*)?$`;

export const RedirectUri = z
  .string()
  .max(2048)
  .regex(new RegExp(REDIRECT_URI_PATTERN), 'must be an https URL (or http on localhost / 127.0.0.1 / [::1]) without a fragment')
  .refine(isAllowedRedirectUri, 'must be an https URL (or http on localhost / 127.0.0.1 / [::1]) without a fragment')
  .describe('https, or http back to the user\'s own machine (localhost, 127.0.0.1, [::1]); no fragment, no credentials');

export const OAuthApplication = z
  .object({
    id: Uuid,
    name: z.string(),
    clientId: z.string(),
    redirectUri: z.string().describe('Matched exactly (character for character) at /oauth/authorize and /oauth/token'),
    scopes: z.array(Scope).describe('The most an authorization may grant'),
    public: z.boolean().describe('Public clients have no secret and must use PKCE (S256)'),
    createdAt: DateTime,
  })
  .meta({
    id: 'OAuthApplication',
    examples: [{
      id: examples.ids.oauthApplication, name: 'Acme Planner', clientId: examples.secrets.clientId, redirectUri: 'https://planner.example/callback',
      scopes: ['events:read', 'calendars:read'], public: false, createdAt: examples.at.created,
    }],
  });
export type OAuthApplication = z.infer<typeof OAuthApplication>;

export const CreateOAuthApplicationBody = z
  .object({
    name: NonBlankText(200),
    redirectUri: RedirectUri,
    scopes: ScopeList,
    public: z.boolean().default(false).describe('A client that cannot keep a secret (mobile, single-page): no secret, PKCE required'),
  })
  .meta({
    id: 'CreateOAuthApplicationBody',
    examples: [{ name: 'Acme Planner', redirectUri: 'https://planner.example/callback', scopes: ['events:read', 'calendars:read'] }],
  });
export type CreateOAuthApplicationBody = z.infer<typeof CreateOAuthApplicationBody>;

export const OAuthApplicationCreated = z
  .object({
    application: OAuthApplication,
    clientId: z.string().meta({ examples: [examples.secrets.clientId] }),
    clientSecret: z.string().nullable().meta({ description: 'Shown only in this answer; null for public clients', examples: [examples.secrets.clientSecret] }),
  })
  .meta({ id: 'OAuthApplicationCreated' });

/** Authorization parameters are checked by the handler, so a bad client or redirect URI gets an HTML page. */
/**
 * A parameter checked by the handler, never by validation (it answers problems with a page, a redirect or an RFC 6749
 * error). The document publishes what the value must be (`rule`: enum, pattern) and whether it is required.
 */
const lenient = (max: number, description: string, rule: Record<string, unknown> = {}, required = false) =>
  (required ? z.string().max(max).catch(undefined as never) : z.string().max(max).optional().catch(undefined)).meta({ description, ...rule });

const SCOPE_NAME = `(?:${SCOPES.join('|')})`;

const authorizeFields = {
  response_type: lenient(32, 'Must be `code`', { enum: ['code'] }, true),
  client_id: lenient(200, 'The application\'s client ID', {}, true),
  redirect_uri: lenient(2048, 'Exactly the application\'s registered redirect URI', {}, true),
  scope: lenient(2000, 'Space-separated scopes, each among the application\'s; defaults to all of them', { pattern: `^${SCOPE_NAME}(?: ${SCOPE_NAME})*$` }),
  state: lenient(1024, 'Returned unchanged with the answer'),
  code_challenge: lenient(128, 'PKCE: BASE64URL(SHA-256(code_verifier)); required for public clients', { pattern: '^[A-Za-z0-9_-]{43}$' }),
  code_challenge_method: lenient(16, 'PKCE: only `S256`, and only with code_challenge', { enum: ['S256'] }),
};

export const AuthorizeQuery = z.object(authorizeFields).meta({ id: 'AuthorizeQuery' });
export type AuthorizeParams = z.infer<typeof AuthorizeQuery>;

/** Its fields never fail validation either: unknown parameters are ignored (RFC 6749 3.1), problems get the HTML page. */
export const AuthorizeDecisionBody = z
  .looseObject({
    ...authorizeFields,
    decision: z.enum(['allow', 'deny']).catch(undefined as never).describe('The user\'s answer; anything else gets the 400 page'),
  })
  .meta({
    id: 'AuthorizeDecisionBody',
    description: 'The consent page\'s parameters plus the decision (form or JSON)',
    examples: [{
      response_type: 'code', client_id: examples.secrets.clientId, redirect_uri: 'https://planner.example/callback', scope: 'events:read',
      state: 'af0ifjsldkj', code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM', code_challenge_method: 'S256', decision: 'allow',
    }],
  });
export type AuthorizeDecisionBody = z.infer<typeof AuthorizeDecisionBody>;

/** Printable ASCII without `#`: the path and query of a URL, nothing a header could not carry. */
const RETURN_TO_PATTERN = `^${BASE_PATH}/oauth/authorize(?:\\?[!"$-~]*)?$`;

export const SignInBody = z
  .object({
    email: z.string().max(254),
    password: z.string().max(512),
    return_to: z.string().max(8192).regex(new RegExp(RETURN_TO_PATTERN), 'must be the authorization endpoint (path and query)')
      .describe('Where to go once signed in: the authorization request (path and query) the sign-in page was shown for; nothing else is accepted, so it can never redirect elsewhere'),
  })
  .meta({
    id: 'SignInBody',
    description: 'The sign-in page\'s form (application/x-www-form-urlencoded)',
    examples: [{
      email: 'ada@example.com', password: 'correct horse battery',
      return_to: `${BASE_PATH}/oauth/authorize?response_type=code&client_id=${examples.secrets.clientId}&redirect_uri=https%3A%2F%2Fplanner.example%2Fcallback&state=af0ifjsldkj`,
    }],
  });
export type SignInBody = z.infer<typeof SignInBody>;

const tokenParam = (description: string) => lenient(4096, description);
export const GRANT_TYPES = ['authorization_code', 'refresh_token'] as const;

export const TokenRequest = z
  .looseObject({
    grant_type: lenient(4096, 'Any other value is `unsupported_grant_type`', { enum: GRANT_TYPES }, true),
    code: tokenParam('authorization_code: the code from the redirect'),
    redirect_uri: tokenParam('authorization_code: the same redirect URI as in the authorization request'),
    code_verifier: tokenParam('authorization_code: the PKCE verifier, when a code_challenge was sent'),
    refresh_token: tokenParam('refresh_token: the latest refresh token (`cr_…`); each is single-use'),
    scope: tokenParam('refresh_token: optionally fewer scopes than were granted'),
    client_id: tokenParam('Or HTTP Basic authentication'),
    client_secret: tokenParam('Confidential clients: the client secret (or HTTP Basic authentication)'),
  })
  .meta({
    id: 'TokenRequest',
    description: 'application/x-www-form-urlencoded (RFC 6749) or JSON',
    examples: [
      { grant_type: 'authorization_code', code: 'SplxlOBeZQQYbYS6WxSbIA', redirect_uri: 'https://planner.example/callback',
        code_verifier: 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk', client_id: examples.secrets.clientId },
      { grant_type: 'refresh_token', refresh_token: examples.secrets.refreshToken, client_id: examples.secrets.clientId },
    ],
  });
export type TokenRequest = z.infer<typeof TokenRequest>;

export const TokenResponse = z
  .object({
    access_token: z.string().describe('A JWT (HS256), valid for expires_in seconds'),
    token_type: z.literal('Bearer'),
    expires_in: z.number().int(),
    refresh_token: z.string().describe('`cr_…`; rotates on every use'),
    scope: z.string().describe('Space-separated granted scopes'),
  })
  .meta({
    id: 'TokenResponse',
    examples: [{
      access_token: examples.secrets.accessToken, token_type: 'Bearer', expires_in: 900, refresh_token: examples.secrets.refreshToken, scope: 'events:read',
    }],
  });

export const OAuthError = z
  .object({
    error: z.enum(['invalid_request', 'invalid_client', 'invalid_grant', 'unsupported_grant_type', 'invalid_scope', 'rate_limited', 'server_error']),
    error_description: z.string().optional(),
  })
  .meta({ id: 'OAuthError', description: 'RFC 6749 section 5.2', examples: [{ error: 'invalid_grant', error_description: 'The code was already used or has expired' }] });

const html = (description: string) => ({ description, schema: z.string(), contentType: 'text/html' });

export const oauthOperations = [
  op({ method: 'get', path: '/oauth/applications', tag: 'OAuth', summary: 'The caller\'s OAuth applications (never the secrets)',
    responses: { 200: { description: 'Applications', schema: z.object({ applications: z.array(OAuthApplication) }).meta({ id: 'OAuthApplicationList' }) } } }),
  op({ method: 'post', path: '/oauth/applications', tag: 'OAuth', summary: 'Register an OAuth application; the client secret is shown once',
    body: CreateOAuthApplicationBody,
    responses: { 201: { description: 'Registered', schema: OAuthApplicationCreated } } }),
  op({ method: 'delete', path: '/oauth/applications/{id}', tag: 'OAuth', summary: 'Delete an application; its tokens stop working at once',
    params: IdParams,
    responses: { 204: { description: 'Deleted' }, 404: { description: 'No such application of the caller\'s', schema: ErrorEnvelope } } }),
  op({ method: 'get', path: '/oauth/authorize', tag: 'OAuth', summary: 'Consent page: the application\'s name and the requested scopes',
    description: 'A bad client_id or redirect_uri gets an error page (never a redirect); other problems redirect with `error`. ' +
      'A browser without a session (`Accept` preferring `text/html`) gets a sign-in page instead, which posts to ' +
      '`POST /oauth/sign-in` and comes back to this same URL; other callers without a session get 401 `unauthenticated`.',
    query: AuthorizeQuery,
    responses: { 200: html('Consent page; for a browser without a session, the sign-in page'), 302: { description: 'To redirect_uri with `error` (invalid_scope, invalid_request, unsupported_response_type)' },
      400: html('Unknown client or redirect URI') } }),
  op({ method: 'post', path: '/oauth/authorize', tag: 'OAuth', summary: 'Allow or deny: redirects with `code` and `state`, or `error=access_denied`',
    body: AuthorizeDecisionBody, bodyContentTypes: ['application/x-www-form-urlencoded', 'application/json'],
    responses: { 302: { description: 'To redirect_uri with `code` and `state` (or `error`)' }, 400: html('Unknown client or redirect URI, or no decision') } }),
  op({ method: 'post', path: '/oauth/sign-in', tag: 'OAuth', summary: 'The sign-in page\'s form: sign in, then back to the consent page',
    description: 'For people, from the sign-in page of `GET /oauth/authorize` (programs sign in with `POST /auth/login`). ' +
      'It goes through the same throttle as `POST /auth/login`. A browser\'s `Origin` must be this service\'s own ' +
      '(or a `WEB_ORIGIN`): the form of another site, or one sent with `Origin: null`, is refused.',
    body: SignInBody, bodyContentTypes: ['application/x-www-form-urlencoded'],
    responses: {
      303: { description: 'Signed in: to `return_to` (the consent page), with the `session` cookie (HttpOnly, SameSite=Lax, Secure outside localhost)' },
      401: html('Wrong email or password: the sign-in page again, saying so'),
      403: { description: '`origin_not_allowed`: posted from another site', schema: ErrorEnvelope },
      429: html('Too many failed sign-ins for this email: the sign-in page again, saying when to retry'),
    } }),
  op({ method: 'post', path: '/oauth/token', tag: 'OAuth', summary: 'Exchange a code or a refresh token for tokens (RFC 6749)',
    errorSchema: OAuthError,
    body: TokenRequest, bodyContentTypes: ['application/x-www-form-urlencoded', 'application/json'],
    responses: {
      200: { description: 'Tokens', schema: TokenResponse },
      400: { description: 'invalid_request, invalid_grant, unsupported_grant_type, invalid_scope', schema: OAuthError },
      401: { description: 'invalid_client', schema: OAuthError },
    } }),
];
