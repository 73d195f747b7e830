/**
 * OAuth access tokens are short-lived JWTs signed with HS256 and the first key of the operator's OAUTH_JWT_SECRET
 * (or one generated once and kept in the read store, so every process shares it); every key of the list verifies.
 * Verification names the one accepted algorithm, so `alg: none` and every other algorithm fail. `iss` is the issuer
 * discovery announces, the origin the token endpoint was reached at (RFC 9068 2.2), and a token is accepted only at
 * that origin (RFC 9068 4). A valid signature is not enough either: the token's family and its application must
 * still exist.
 */
import jwt from 'jsonwebtoken';
import type { Principal } from '../../services/http/principal';
import { newId } from '../../services/ids';
import type { Keyring } from '../../services/keyring';
import type { OAuthApplications } from './applications';
import type { FamilyDoc, OAuthGrants } from './grants';

const ALGORITHM = 'HS256';
const JWT_SHAPE = /^[\w-]+\.[\w-]+\.[\w-]*$/;

interface Claims {
  sub: string;
  client_id: string;
  scope: string;
  /** The token family (authorization) the token belongs to. */
  fid: string;
}

export class AccessTokens {
  constructor(
    private readonly keys: Keyring,
    readonly ttlSeconds: number,
    private readonly applications: OAuthApplications,
    private readonly grants: OAuthGrants,
  ) {}

  sign(family: FamilyDoc, scopes: string[], issuer: string): string {
    const claims: Claims = { sub: family.userId, client_id: family.clientId, scope: scopes.join(' '), fid: family._id };
    return jwt.sign(claims, this.keys.current, { algorithm: ALGORITHM, expiresIn: this.ttlSeconds, issuer, jwtid: newId() });
  }

  readonly resolve = async (token: string, issuer: string): Promise<Principal | null> => {
    if (!JWT_SHAPE.test(token)) return null;
    const claims = this.verified(token, issuer);
    if (!claims) return null;
    const { sub, client_id: clientId, scope, fid } = claims;
    if (typeof sub !== 'string' || typeof clientId !== 'string' || typeof scope !== 'string' || typeof fid !== 'string') return null;
    const [application, family] = await Promise.all([this.applications.byClientId(clientId), this.grants.family(fid)]);
    if (!application || !family || family.clientId !== clientId || family.userId !== sub) return null;
    const granted = scope.split(' ').filter((s) => family.scopes.includes(s));
    return { userId: sub, kind: 'oauth', credentialId: fid, scopes: new Set(granted), environment: 'live' };
  };

  /** The claims of a token signed by any key of the ring (a token expired or signed otherwise: null). */
  private verified(token: string, issuer: string): Partial<Claims> | null {
    for (const secret of this.keys.verifying) {
      try {
        const verified = jwt.verify(token, secret, { algorithms: [ALGORITHM], issuer });
        return typeof verified === 'string' ? null : (verified as Partial<Claims>);
      } catch (err) {
        if (!(err instanceof jwt.JsonWebTokenError) || err.message !== 'invalid signature') return null;
      }
    }
    return null;
  }
}
