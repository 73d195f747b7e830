/**
 * Idempotency-Key on POST: a repeat by the same credential within 24 h with the same body gets the first answer
 * and writes nothing; with another body, 409 idempotency_key_reused. The command id (and so the event ids) derive
 * from the key, so even a repeat after a crash between append and answer appends nothing twice.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { ApiError } from '../errors';
import { deterministicUuid, sha256 } from '../ids';
import type { ReadStore } from '../readstore/read-store.port';
import type { Reply } from './route';

const TTL_MS = 24 * 3_600_000;
export const IDEMPOTENCY = '_idempotency';

interface Record {
  _id: string;
  bodyHash: string;
  state: 'pending' | 'done';
  /** The first answer, encrypted: it may hold secrets shown once (session tokens, keys). */
  reply?: string;
  createdAt: number;
  [k: string]: unknown;
}

export class Idempotency {
  private readonly key: Buffer;

  constructor(
    private readonly store: ReadStore,
    serverSecret: string,
  ) {
    this.key = createHash('sha256').update(`idempotency\u0000${serverSecret}`).digest();
  }

  private seal(reply: Reply): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(JSON.stringify(reply)), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
  }

  private open(sealed: string): Reply {
    const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return JSON.parse(Buffer.concat([decipher.update(data), decipher.final()]).toString()) as Reply;
  }

  async run(
    /** Whose key space: the credential, or for anonymous calls the client address (callers never share one). */
    owner: string,
    route: string,
    key: string,
    body: unknown,
    execute: (commandId: string) => Promise<Reply>,
  ): Promise<Reply> {
    if (key.length === 0 || key.length > 255) {
      throw new ApiError(400, 'invalid_request', 'Idempotency-Key must be 1-255 characters', {
        issues: [{ path: 'header.Idempotency-Key', message: 'must be 1-255 characters' }],
      });
    }
    const id = sha256(`${owner}\u0000${route}\u0000${key}`);
    const bodyHash = sha256(JSON.stringify(body ?? null));
    const docs = this.store.collection<Record>(IDEMPOTENCY);
    const existing = await docs.get(id);
    if (existing && Date.now() - existing.createdAt < TTL_MS) {
      if (existing.bodyHash !== bodyHash) {
        throw new ApiError(409, 'idempotency_key_reused', 'This Idempotency-Key was used with a different body');
      }
      if (existing.state === 'done' && existing.reply) return this.open(existing.reply);
      throw new ApiError(409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress');
    }
    if (existing) await docs.delete(id);
    if (!(await docs.insertNew({ _id: id, bodyHash, state: 'pending', createdAt: Date.now() }))) {
      throw new ApiError(409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress');
    }
    try {
      const reply = await execute(deterministicUuid('idempotency', id));
      if (reply.status >= 500) await docs.delete(id);
      else await docs.put({ _id: id, bodyHash, state: 'done', reply: this.seal({ ...reply, cookies: undefined }), createdAt: Date.now() });
      return reply;
    } catch (err) {
      await docs.delete(id);
      throw err;
    }
  }
}
