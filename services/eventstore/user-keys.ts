/**
 * The key store of crypto-shredding: one random AES-256 data key per user, kept in the read-model store
 * (`_user_keys`), never in the event log. Erasing a user overwrites their key with a tombstone: what was sealed under
 * it can never be read again, and no new key is ever made for them.
 *
 * Keys are cached in memory (at most `limit` users, each for `ttlMs`): another process's erasure is seen within
 * the time-to-live, and at once by a process that reads the `user.erased` event (decoding-event-store.ts).
 */
import { randomBytes } from 'node:crypto';
import type { ReadStore } from '../readstore/read-store.port';

export const USER_KEYS = '_user_keys';
const CACHE_LIMIT = 10_000;
const CACHE_TTL_MS = 30_000;

interface KeyDoc {
  _id: string;
  key?: string;
  erasedAt?: string;
  [field: string]: unknown;
}

export class UserErasedError extends Error {
  constructor(readonly userId: string) {
    super(`user ${userId} was erased: nothing more can be recorded for them`);
    this.name = 'UserErasedError';
  }
}

export class UserKeys {
  private readonly cache = new Map<string, { key: Promise<Buffer | null>; until: number }>();

  constructor(
    private readonly store: ReadStore,
    private readonly limit = CACHE_LIMIT,
    private readonly ttlMs = CACHE_TTL_MS,
  ) {}

  private get docs() {
    return this.store.collection<KeyDoc>(USER_KEYS);
  }

  /** The user's key, or null when it was destroyed (or never existed). */
  forReading(userId: string): Promise<Buffer | null> {
    const hit = this.cache.get(userId);
    if (hit && hit.until > Date.now()) {
      this.cache.delete(userId); // most recently used last
      this.cache.set(userId, hit);
      return hit.key;
    }
    const doc = this.docs.get(userId);
    const key = doc.then((d) => (d?.key ? Buffer.from(d.key, 'base64') : null));
    // A user without a key yet is not remembered: their key may be made any moment, by any process.
    void doc.then((d) => (d ? this.remember(userId, key) : undefined), () => undefined);
    return key;
  }

  /** The user's key, made on first use; throws UserErasedError once the user was erased. */
  async forWriting(userId: string): Promise<Buffer> {
    const known = await this.forReading(userId);
    if (known) return known;
    await this.docs.insertNew({ _id: userId, key: randomBytes(32).toString('base64'), createdAt: new Date().toISOString() });
    this.cache.delete(userId);
    const made = await this.forReading(userId); // whoever won a race, everyone uses the stored key
    if (!made) throw new UserErasedError(userId);
    return made;
  }

  /** Destroys the user's key for good. Returns false when it was already destroyed. */
  async destroy(userId: string, erasedAt = new Date().toISOString()): Promise<boolean> {
    const before = await this.docs.get(userId);
    this.forget(userId);
    if (before?.erasedAt) return false;
    await this.docs.put({ _id: userId, erasedAt });
    this.forget(userId);
    return true;
  }

  /** Drops the cached key (the user was erased, maybe by another process). */
  forget(userId: string): void {
    this.cache.delete(userId);
  }

  private remember(userId: string, key: Promise<Buffer | null>): void {
    this.cache.set(userId, { key, until: Date.now() + this.ttlMs });
    if (this.cache.size > this.limit) this.cache.delete(this.cache.keys().next().value as string);
  }
}
