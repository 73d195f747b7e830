/**
 * The token endpoint (RFC 6749 sections 4.1.3, 6 and 5). Errors answer in the RFC's form `{error, error_description}`
 * rather than the API envelope, which is why the handler returns them instead of throwing.
 */
import { oauthOperations, type TokenRequest } from '../../contracts/oauth';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { route, type Reply } from '../../services/http/route';
import type { FamilyDoc } from './grants';

const NO_STORE = { 'Cache-Control': 'no-store', Pragma: 'no-cache' };

const oauthError = (status: number, error: string, description: string, headers: Record<string, string> = {}): Reply => ({
  status, body: { error, error_description: description }, headers: { ...NO_STORE, ...headers },
});

/** client_id and client_secret from HTTP Basic (each form-urlencoded, RFC 6749 2.3.1), or null. */
function basicCredentials(header: string | undefined): { id: string; secret: string } | null | 'malformed' {
  const m = header && /^Basic\s+([A-Za-z0-9+/=]+)\s*$/i.exec(header);
  if (!m) return header && /^Basic\b/i.test(header) ? 'malformed' : null;
  const decoded = Buffer.from(m[1], 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) return 'malformed';
  try {
    const unform = (s: string) => decodeURIComponent(s.replace(/\+/g, ' '));
    return { id: unform(decoded.slice(0, colon)), secret: unform(decoded.slice(colon + 1)) };
  } catch {
    return 'malformed';
  }
}

export function tokenRoutes(app: AppContext) {
  const tokens = async (family: FamilyDoc, scopes: string[], issuer: string): Promise<Reply> => ({
    status: 200,
    headers: NO_STORE,
    body: {
      access_token: app.oauth.accessTokens.sign(family, scopes, issuer),
      token_type: 'Bearer',
      expires_in: app.oauth.accessTokens.ttlSeconds,
      refresh_token: await app.oauth.grants.issueRefreshToken(family),
      scope: scopes.join(' '),
    },
  });

  return [
    route<TokenRequest>(findOperation(oauthOperations, 'post', '/oauth/token'), async (input) => {
      // RFC 6749 3.2: parameters sent without a value are treated as omitted.
      const p = Object.fromEntries(Object.entries(input.body).filter(([, v]) => v !== '')) as TokenRequest;
      if (!p.grant_type) return oauthError(400, 'invalid_request', 'grant_type is required');

      const basic = basicCredentials(input.header('Authorization'));
      if (basic === 'malformed') return oauthError(400, 'invalid_request', 'The Basic Authorization header is malformed');
      if (basic && (p.client_secret !== undefined || (p.client_id !== undefined && p.client_id !== basic.id))) {
        return oauthError(400, 'invalid_request', 'Send the client credentials once: in the Authorization header or in the body');
      }
      const clientId = basic?.id ?? p.client_id;
      const application = clientId ? await app.oauth.applications.authenticate(clientId, basic?.secret ?? p.client_secret) : null;
      if (!application) {
        return oauthError(401, 'invalid_client', 'Client authentication failed', basic ? { 'WWW-Authenticate': 'Basic realm="oauth"' } : {});
      }

      if (p.grant_type === 'authorization_code') {
        if (!p.code || !p.redirect_uri) return oauthError(400, 'invalid_request', 'code and redirect_uri are required');
        const redeemed = await app.oauth.grants.redeemCode(p.code, application.clientId, p.redirect_uri, p.code_verifier);
        if (!redeemed.ok) return oauthError(400, redeemed.error, redeemed.reason);
        return tokens(redeemed.value, redeemed.value.scopes, input.issuer);
      }

      if (p.grant_type === 'refresh_token') {
        if (!p.refresh_token) return oauthError(400, 'invalid_request', 'refresh_token is required');
        const requested = [...new Set((p.scope ?? '').split(' ').filter(Boolean))];
        const redeemed = await app.oauth.grants.redeemRefreshToken(p.refresh_token, application.clientId, requested);
        if (!redeemed.ok) return oauthError(400, redeemed.error, redeemed.reason);
        return tokens(redeemed.value, requested.length ? requested : redeemed.value.scopes, input.issuer);
      }

      return oauthError(400, 'unsupported_grant_type', 'grant_type must be authorization_code or refresh_token');
    }),
  ];
}
