/**
 * OAuth access tokens are short-lived JWTs signed with HS256 and the operator's OAUTH_JWT_SECRET (or one generated
 * once and kept in the read store, so every process shares it). Verification names the one accepted algorithm, so
 * `alg: none` and every other algorithm fail; a valid signature is not enough either: the token's family and its
 * application must still exist.
 */
import { randomBytes } from 'node:crypto';
import jwt from 'jsonwebtoken';
import type { Config } from '../../services/config';
import type { Principal } from '../../services/http/principal';
import { newId } from '../../services/ids';
import type { ReadStore } from '../../services/readstore/read-store.port';
import type { OAuthApplications } from './applications';
import type { FamilyDoc, OAuthGrants } from './grants';

const ALGORITHM = 'HS256';
const ISSUER = 'calendar-service';
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

interface Claims {
  sub: string;
  client_id: string;
  scope: string;
  /** The token family (authorization) the token belongs to. */
  fid: string;
}

export async function oauthSigningSecret(config: Config, store: ReadStore): Promise<string> {
  if (config.OAUTH_JWT_SECRET) return config.OAUTH_JWT_SECRET;
  const settings = store.collection('_settings');
  await settings.insertNew({ _id: 'oauth-jwt-secret', value: randomBytes(32).toString('base64url') });
  return (await settings.get('oauth-jwt-secret'))!.value as string;
}

export class AccessTokens {
  constructor(
    private readonly secret: string,
    readonly ttlSeconds: number,
    private readonly applications: OAuthApplications,
    private readonly grants: OAuthGrants,
  ) {}

  sign(family: FamilyDoc, scopes: string[]): string {
    const claims: Claims = { sub: family.userId, client_id: family.clientId, scope: scopes.join(' '), fid: family._id };
    return jwt.sign(claims, this.secret, { algorithm: ALGORITHM, expiresIn: this.ttlSeconds, issuer: ISSUER, jwtid: newId() });
  }

  readonly resolve = async (token: string): Promise<Principal | null> => {
    if (!JWT_SHAPE.test(token)) return null;
    let claims: Partial<Claims>;
    try {
      const verified = jwt.verify(token, this.secret, { algorithms: [ALGORITHM], issuer: ISSUER });
      if (typeof verified === 'string') return null;
      claims = verified as Partial<Claims>;
    } catch {
      return null;
    }
    const { sub, client_id: clientId, scope, fid } = claims;
    if (typeof sub !== 'string' || typeof clientId !== 'string' || typeof scope !== 'string' || typeof fid !== 'string') return null;
    const [application, family] = await Promise.all([this.applications.byClientId(clientId), this.grants.family(fid)]);
    if (!application || !family || family.clientId !== clientId || family.userId !== sub) return null;
    const granted = scope.split(' ').filter((s) => family.scopes.includes(s));
    return { userId: sub, kind: 'oauth', credentialId: fid, scopes: new Set(granted), environment: 'live' };
  };
}
