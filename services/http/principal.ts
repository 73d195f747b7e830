/** The authenticated caller, whatever credential it came with. */
export interface Principal {
  userId: string;
  kind: 'session' | 'api_key' | 'oauth';
  /** Id of the credential record (session, key or token family): idempotency keys and rate limits hang on it. */
  credentialId: string;
  /** 'all' for sessions; tokens carry what they were granted. */
  scopes: ReadonlySet<string> | 'all';
  environment: 'live' | 'test';
}

/**
 * Turns a bearer or cookie token into a principal, or null if this resolver does not know it. `issuer` is this
 * deployment's OAuth issuer as the request sees it (services/http/auth.ts `issuer`): access tokens must name it.
 */
export type CredentialResolver = (token: string, issuer: string) => Promise<Principal | null>;
