/**
 * Sessions are state, not events: a document per session in the read-model store, keyed by the token's hash,
 * written and deleted directly so that logout takes effect at once in every process.
 */
import { randomBytes } from 'node:crypto';
import type { Principal } from '../../services/http/principal';
import { sha256 } from '../../services/ids';
import type { ReadStore } from '../../services/readstore/read-store.port';

export const SESSIONS = '_sessions';

interface SessionDoc {
  _id: string;
  userId: string;
  createdAt: string;
  expiresAt: string;
  [k: string]: unknown;
}

export class Sessions {
  constructor(
    private readonly store: ReadStore,
    private readonly ttlDays: number,
  ) {}

  private get docs() {
    return this.store.collection<SessionDoc>(SESSIONS);
  }

  async create(userId: string): Promise<{ token: string; expiresAt: string }> {
    const token = `cs_${randomBytes(32).toString('base64url')}`;
    const now = Date.now();
    const expiresAt = new Date(now + this.ttlDays * 86_400_000).toISOString();
    await this.docs.put({ _id: sha256(token), userId, createdAt: new Date(now).toISOString(), expiresAt });
    return { token, expiresAt };
  }

  /** Ends a session at once; `id` is the principal's credentialId (the token's hash). */
  async revokeById(id: string): Promise<void> {
    await this.docs.delete(id);
  }

  readonly resolve = async (token: string): Promise<Principal | null> => {
    if (!token.startsWith('cs_')) return null;
    const id = sha256(token);
    const doc = await this.docs.get(id);
    if (!doc || Date.parse(doc.expiresAt) <= Date.now()) return null;
    return { userId: doc.userId, kind: 'session', credentialId: id, scopes: 'all', environment: 'live' };
  };
}
