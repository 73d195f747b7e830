/**
 * API keys are state, not events (like sessions): a document per key in the read-model store keyed by the key's
 * SHA-256, read on every request, so a deleted key stops in every process at once. Last use is kept in a separate
 * collection: rewriting the key document could bring back a key deleted in between.
 */
import { randomBytes } from 'node:crypto';
import type { ApiKey } from '../../contracts/api-keys';
import type { Scope } from '../../contracts/scopes';
import type { Principal } from '../../services/http/principal';
import { newId, sha256 } from '../../services/ids';
import type { ReadStore } from '../../services/readstore/read-store.port';

export const API_KEYS = '_api_keys';
export const API_KEY_USAGE = '_api_key_usage';
const USAGE_INTERVAL_MS = 60_000;
const PREFIX_LENGTH = 12; // `ck_live_` and four random characters

interface ApiKeyDoc {
  _id: string;
  id: string;
  /** Who manages the key (the signed-in user). */
  userId: string;
  /** Whose data the key acts on: the user for live keys, the user's test-environment account for test keys. */
  actingUserId: string;
  name: string;
  prefix: string;
  scopes: Scope[];
  environment: 'live' | 'test';
  createdAt: string;
  [k: string]: unknown;
}

interface UsageDoc {
  _id: string;
  lastUsedAt: string;
  [k: string]: unknown;
}

export interface NewApiKey {
  name: string;
  scopes: Scope[];
  environment: 'live' | 'test';
  actingUserId: string;
}

const record = (doc: ApiKeyDoc, lastUsedAt: string | null): ApiKey => ({
  id: doc.id, name: doc.name, prefix: doc.prefix, scopes: doc.scopes, environment: doc.environment,
  createdAt: doc.createdAt, lastUsedAt,
});

export class ApiKeys {
  private indexes: Promise<unknown> | null = null;
  /** When this process last recorded each key's use. */
  private readonly usageWritten = new Map<string, number>();

  constructor(private readonly store: ReadStore) {}

  private async docs() {
    const docs = this.store.collection<ApiKeyDoc>(API_KEYS);
    this.indexes ??= Promise.all([docs.ensureIndex(['userId']), docs.ensureIndex(['id'])]);
    await this.indexes;
    return docs;
  }

  private get usage() {
    return this.store.collection<UsageDoc>(API_KEY_USAGE);
  }

  async create(userId: string, input: NewApiKey): Promise<{ apiKey: ApiKey; key: string }> {
    const key = `ck_${input.environment}_${randomBytes(32).toString('base64url')}`;
    const doc: ApiKeyDoc = {
      _id: sha256(key), id: newId(), userId, actingUserId: input.actingUserId, name: input.name,
      prefix: key.slice(0, PREFIX_LENGTH), scopes: [...new Set(input.scopes)], environment: input.environment,
      createdAt: new Date().toISOString(),
    };
    await (await this.docs()).put(doc);
    return { apiKey: record(doc, null), key };
  }

  async list(userId: string): Promise<ApiKey[]> {
    const docs = await (await this.docs()).find({ userId }, { sort: [['createdAt', 1], ['id', 1]] });
    if (docs.length === 0) return [];
    const used = await this.usage.find({ _id: { $in: docs.map((d) => d.id) } });
    const lastUsed = new Map(used.map((u) => [u._id, u.lastUsedAt]));
    return docs.map((d) => record(d, lastUsed.get(d.id) ?? null));
  }

  /** Deletes one of the user's keys; false when the user has no key with this id. */
  async revoke(userId: string, id: string): Promise<boolean> {
    const docs = await this.docs();
    const [doc] = await docs.find({ id, userId }, { limit: 1 });
    if (!doc) return false;
    await docs.delete(doc._id);
    await this.usage.delete(doc.id);
    this.usageWritten.delete(doc.id);
    return true;
  }

  readonly resolve = async (token: string): Promise<Principal | null> => {
    const environment = token.startsWith('ck_live_') ? 'live' : token.startsWith('ck_test_') ? 'test' : null;
    if (!environment) return null;
    const doc = await (await this.docs()).get(sha256(token));
    if (!doc || doc.environment !== environment) return null;
    await this.recordUse(doc.id);
    return {
      userId: doc.actingUserId, kind: 'api_key', credentialId: doc.id, scopes: new Set(doc.scopes), environment,
    };
  };

  private async recordUse(id: string): Promise<void> {
    const now = Date.now();
    if (now - (this.usageWritten.get(id) ?? 0) < USAGE_INTERVAL_MS) return;
    if (this.usageWritten.size > 10_000) this.usageWritten.clear();
    this.usageWritten.set(id, now);
    await this.usage.put({ _id: id, lastUsedAt: new Date(now).toISOString() });
  }
}
