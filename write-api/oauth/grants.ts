/**
 * What an authorization leaves behind, as state documents holding only hashes of the secrets:
 * - a code (single-use, ~60 s), which already names the token family it will start;
 * - the family (one per authorization): while it exists its access tokens work; revoking deletes it;
 * - refresh tokens of the family, each single-use: rotation hands out the next one.
 * "Used" is an insert-if-absent marker, so of two concurrent redemptions exactly one wins, and the loser is
 * treated as reuse of a stolen code or token: the whole family is revoked.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { newId, sha256 } from '../../services/ids';
import type { ReadStore } from '../../services/readstore/read-store.port';

export const OAUTH_CODES = '_oauth_codes';
export const OAUTH_FAMILIES = '_oauth_families';
export const OAUTH_REFRESH_TOKENS = '_oauth_refresh_tokens';
export const OAUTH_USED = '_oauth_used';
export const CODE_TTL_MS = 60_000;
const SWEEP_EVERY_MS = 60_000;

export interface CodeDoc {
  _id: string;
  clientId: string;
  userId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | null;
  familyId: string;
  expiresAt: number;
  [k: string]: unknown;
}

export interface FamilyDoc {
  _id: string;
  clientId: string;
  userId: string;
  /** What the user granted: a refresh may ask for less, never more. */
  scopes: string[];
  createdAt: string;
  [k: string]: unknown;
}

interface RefreshDoc {
  _id: string;
  familyId: string;
  clientId: string;
  expiresAt: number;
  [k: string]: unknown;
}

interface UsedDoc {
  _id: string;
  familyId: string;
  expiresAt: number;
  [k: string]: unknown;
}

export interface NewCode {
  clientId: string;
  userId: string;
  redirectUri: string;
  scopes: string[];
  codeChallenge: string | null;
}

export type Redeemed<T> = { ok: true; value: T } | { ok: false; error: 'invalid_grant' | 'invalid_scope'; reason: string };
const refused = (reason: string, error: 'invalid_grant' | 'invalid_scope' = 'invalid_grant') => ({ ok: false as const, error, reason });

const PKCE_VERIFIER = /^[A-Za-z0-9._~-]{43,128}$/;

/** RFC 7636 S256: BASE64URL(SHA-256(verifier)) must equal the challenge. */
export function pkceMatches(verifier: string, challenge: string): boolean {
  if (!PKCE_VERIFIER.test(verifier)) return false;
  const computed = Buffer.from(createHash('sha256').update(verifier).digest('base64url'));
  const expected = Buffer.from(challenge);
  return computed.length === expected.length && timingSafeEqual(computed, expected);
}

export class OAuthGrants {
  private indexes: Promise<unknown> | null = null;
  private lastSweep = 0;

  constructor(
    private readonly store: ReadStore,
    private readonly refreshTtlMs: number,
  ) {}

  private async col<T extends { _id: string; [k: string]: unknown }>(name: string) {
    this.indexes ??= Promise.all([
      this.store.collection(OAUTH_CODES).ensureIndex(['clientId']),
      this.store.collection(OAUTH_CODES).ensureIndex(['expiresAt']),
      this.store.collection(OAUTH_FAMILIES).ensureIndex(['clientId']),
      this.store.collection(OAUTH_REFRESH_TOKENS).ensureIndex(['familyId']),
      this.store.collection(OAUTH_REFRESH_TOKENS).ensureIndex(['clientId']),
      this.store.collection(OAUTH_REFRESH_TOKENS).ensureIndex(['expiresAt']),
      this.store.collection(OAUTH_USED).ensureIndex(['familyId']),
      this.store.collection(OAUTH_USED).ensureIndex(['expiresAt']),
    ]);
    await this.indexes;
    return this.store.collection<T>(name);
  }

  async issueCode(input: NewCode): Promise<string> {
    await this.sweep();
    const code = randomBytes(32).toString('base64url');
    const codes = await this.col<CodeDoc>(OAUTH_CODES);
    await codes.put({ _id: sha256(code), ...input, familyId: newId(), expiresAt: Date.now() + CODE_TTL_MS });
    return code;
  }

  /** Checks the code against the client, redirect URI and PKCE verifier, uses it up and starts its token family. */
  async redeemCode(code: string, clientId: string, redirectUri: string, verifier: string | undefined): Promise<Redeemed<FamilyDoc>> {
    const doc = await (await this.col<CodeDoc>(OAUTH_CODES)).get(sha256(code));
    if (!doc || doc.clientId !== clientId) return refused('The code is unknown');
    const used = `code:${doc._id}`;
    if (await (await this.col(OAUTH_USED)).get(used)) return this.reused(doc.familyId, 'code');
    if (doc.expiresAt <= Date.now()) return refused('The code has expired');
    if (doc.redirectUri !== redirectUri) return refused('redirect_uri differs from the authorization request');
    if (doc.codeChallenge === null && verifier !== undefined) return refused('No code_challenge was sent for this code');
    if (doc.codeChallenge !== null && (verifier === undefined || !pkceMatches(verifier, doc.codeChallenge))) {
      return refused('code_verifier does not match the code_challenge');
    }
    if (!(await this.markUsed(used, doc.familyId, doc.expiresAt))) return this.reused(doc.familyId, 'code');
    const family: FamilyDoc = {
      _id: doc.familyId, clientId: doc.clientId, userId: doc.userId, scopes: doc.scopes, createdAt: new Date().toISOString(),
    };
    const families = await this.col<FamilyDoc>(OAUTH_FAMILIES);
    await families.put(family);
    // A replay of the code may have revoked the family just before it existed: its tombstone says so.
    if (await (await this.col(OAUTH_USED)).get(`revoked:${family._id}`)) {
      await families.delete(family._id);
      return refused('The code was already used; every token of this grant is revoked');
    }
    return { ok: true, value: family };
  }

  async family(id: string): Promise<FamilyDoc | null> {
    return (await this.col<FamilyDoc>(OAUTH_FAMILIES)).get(id);
  }

  async issueRefreshToken(family: FamilyDoc): Promise<string> {
    const token = `cr_${randomBytes(32).toString('base64url')}`;
    await (await this.col<RefreshDoc>(OAUTH_REFRESH_TOKENS)).put({
      _id: sha256(token), familyId: family._id, clientId: family.clientId, expiresAt: Date.now() + this.refreshTtlMs,
    });
    return token;
  }

  /**
   * The live family of a refresh token, which is used up; reuse of a used one revokes the family. Scopes asked
   * beyond the grant are refused before the token is used, so the client keeps it.
   */
  async redeemRefreshToken(token: string, clientId: string, scopes: string[]): Promise<Redeemed<FamilyDoc>> {
    const doc = await (await this.col<RefreshDoc>(OAUTH_REFRESH_TOKENS)).get(sha256(token));
    if (!doc || doc.clientId !== clientId) return refused('The refresh token is unknown');
    const family = await this.family(doc.familyId);
    if (!family) return refused('The refresh token was revoked');
    if (doc.expiresAt <= Date.now()) return refused('The refresh token has expired');
    const beyond = scopes.filter((s) => !family.scopes.includes(s));
    if (beyond.length) return refused(`Not granted: ${beyond.join(' ')}`, 'invalid_scope');
    if (!(await this.markUsed(`refresh:${doc._id}`, doc.familyId, doc.expiresAt))) return this.reused(doc.familyId, 'refresh token');
    return { ok: true, value: family };
  }

  async revokeFamily(familyId: string): Promise<void> {
    await this.markUsed(`revoked:${familyId}`, familyId, Date.now() + CODE_TTL_MS);
    await (await this.col<FamilyDoc>(OAUTH_FAMILIES)).delete(familyId); // this alone stops the family's tokens
    await (await this.col<RefreshDoc>(OAUTH_REFRESH_TOKENS)).deleteMany({ familyId });
  }

  /** Forgets everything of a deleted application (its tokens already fail: the application is gone). */
  async revokeClient(clientId: string): Promise<void> {
    const families = await (await this.col<FamilyDoc>(OAUTH_FAMILIES)).find({ clientId });
    for (const f of families) await this.revokeFamily(f._id);
    await (await this.col<CodeDoc>(OAUTH_CODES)).deleteMany({ clientId });
    await (await this.col<RefreshDoc>(OAUTH_REFRESH_TOKENS)).deleteMany({ clientId });
  }

  private async reused(familyId: string, what: string) {
    await this.revokeFamily(familyId);
    return refused(`The ${what} was already used; every token of this grant is revoked`);
  }

  private async markUsed(id: string, familyId: string, expiresAt: number): Promise<boolean> {
    return (await this.col<UsedDoc>(OAUTH_USED)).insertNew({ _id: id, familyId, expiresAt });
  }

  /** Drops expired codes, refresh tokens and markers, at most once a minute per process. */
  private async sweep(): Promise<void> {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_EVERY_MS) return;
    this.lastSweep = now;
    // Codes stay a while past expiry so a late replay is still recognised as reuse.
    await (await this.col(OAUTH_CODES)).deleteMany({ expiresAt: { $lt: now - 10 * CODE_TTL_MS } });
    await (await this.col(OAUTH_REFRESH_TOKENS)).deleteMany({ expiresAt: { $lt: now } });
    await (await this.col(OAUTH_USED)).deleteMany({ expiresAt: { $lt: now - 10 * CODE_TTL_MS } });
  }
}
