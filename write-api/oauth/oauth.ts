/** The OAuth state the routes and the credential resolver share: applications, grants and access tokens. */
import type { Config } from '../../services/config';
import type { Keyring } from '../../services/keyring';
import type { ReadStore } from '../../services/readstore/read-store.port';
import { AccessTokens } from './access-tokens';
import { OAuthApplications } from './applications';
import { OAuthGrants } from './grants';

export class OAuth {
  readonly applications: OAuthApplications;
  readonly grants: OAuthGrants;
  readonly accessTokens: AccessTokens;

  constructor(store: ReadStore, signingKeys: Keyring, config: Pick<Config, 'OAUTH_ACCESS_TOKEN_TTL_SECONDS' | 'OAUTH_REFRESH_TOKEN_TTL_DAYS'>) {
    this.applications = new OAuthApplications(store);
    this.grants = new OAuthGrants(store, config.OAUTH_REFRESH_TOKEN_TTL_DAYS * 86_400_000);
    this.accessTokens = new AccessTokens(signingKeys, config.OAUTH_ACCESS_TOKEN_TTL_SECONDS, this.applications, this.grants);
  }
}
