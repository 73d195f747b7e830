/**
 * OAuth 2.0 Authorization Server Metadata (RFC 8414), served at /.well-known/oauth-authorization-server so clients
 * such as openid-client's `discovery()` find the endpoints. This is OAuth 2.0, not OpenID Connect: no ID tokens, so
 * there is no /.well-known/openid-configuration.
 */
import { GRANT_TYPES } from '../../contracts/oauth';
import { SCOPES } from '../../services/http/access';

export const DISCOVERY_PATH = '/.well-known/oauth-authorization-server';

/**
 * `issuer`: PUBLIC_URL, or this server's origin as the client reached it (services/http/auth.ts `issuer`); the access
 * tokens the token endpoint signs carry it as `iss`.
 */
export function authorizationServerMetadata(issuer: string, basePath: string) {
  return {
    issuer,
    authorization_endpoint: `${issuer}${basePath}/oauth/authorize`,
    token_endpoint: `${issuer}${basePath}/oauth/token`,
    scopes_supported: SCOPES,
    response_types_supported: ['code'],
    response_modes_supported: ['query'],
    grant_types_supported: GRANT_TYPES,
    code_challenge_methods_supported: ['S256'],
    // Confidential clients send their secret by HTTP Basic or in the form; public clients send none (PKCE instead).
    token_endpoint_auth_methods_supported: ['client_secret_basic', 'client_secret_post', 'none'],
    service_documentation: `${issuer}/docs`,
  };
}
