/**
 * Idempotency-Key on POST: a repeat by the same credential (anonymous callers: the same address) to the same method
 * and path within 24 h with the same body gets the first answer
 * and writes nothing; with another body, 409 idempotency_key_reused. The command id (and so the event ids) derive
 * from the key, so even a repeat after a crash between append and answer appends nothing twice.
 *
 * A request in progress holds a lease on its key (LEASE_MS, renewed while it runs). A repeat meanwhile is 409
 * idempotency_key_in_use with Retry-After. When the process running it dies, the lease runs out and the next repeat
 * takes the key over (compare-and-set on the record's `_pos`) and runs the request again in recovery: commands whose
 * events the first run already stored are answered from those events instead of being decided again.
 */
import { ApiError } from '../errors';
import { deterministicUuid, newId, sha256 } from '../ids';
import type { Keyring, Sealer } from '../keyring';
import type { Collection, ReadStore } from '../readstore/read-store.port';
import { errorBody } from './errors';
import type { Reply } from './reply';

const TTL_MS = 24 * 3_600_000;
export const LEASE_MS = 10_000;
const RENEW_EVERY_MS = LEASE_MS / 4;
export const IDEMPOTENCY = '_idempotency';

interface Record {
  _id: string;
  /** Revision of the record: every change is a compare-and-set on it. */
  _pos: number;
  bodyHash: string;
  state: 'pending' | 'done';
  /** While pending: who runs the request, and until when its lease holds. */
  owner?: string;
  leaseUntil?: number;
  /** The first answer, encrypted: it may hold secrets shown once (session tokens, keys). */
  reply?: string;
  createdAt: number;
  [k: string]: unknown;
}

/** Runs a command again after a crash: commands already stored under `commandId` are answered from the log. */
export type Recovery = <T>(commandId: string, run: () => Promise<T>) => Promise<T>;

/**
 * A reply as kept for its key: without cookies, and with a serialized JSON answer (heavy reads answer in Buffers) as
 * its text, which JSON.stringify would otherwise turn into an object of bytes.
 */
function storedReply({ cookies: _cookies, json, ...reply }: Reply): string {
  const jsonText = json === undefined ? undefined : (Buffer.isBuffer(json) ? json : Buffer.concat(json)).toString('utf8');
  return JSON.stringify({ ...reply, jsonText });
}

function replayedReply(stored: string): Reply {
  const { jsonText, ...reply } = JSON.parse(stored) as Reply & { jsonText?: string };
  return jsonText === undefined ? reply : { ...reply, json: Buffer.from(jsonText, 'utf8') };
}

const inUse = (leaseUntil: number): Reply => {
  const err = new ApiError(409, 'idempotency_key_in_use', 'A request with this Idempotency-Key is still in progress');
  const retryAfter = Math.max(1, Math.ceil((leaseUntil - Date.now()) / 1000));
  return { status: 409, body: errorBody(err), headers: { 'Retry-After': String(retryAfter) } };
};

export class Idempotency {
  private readonly replies: Sealer;
  /** This process, as the owner of the leases it takes. */
  private readonly owner = newId();

  constructor(
    private readonly store: ReadStore,
    keys: Keyring,
    private readonly recovery: Recovery,
  ) {
    this.replies = keys.sealer('idempotency');
  }

  async run(
    /** Whose key space: the credential, or for anonymous calls the client address (callers never share one). */
    owner: string,
    /** The method and concrete path (`POST /bookings/<id>/cancel`): one key never answers for another resource. */
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
    const claimed = await this.claim(docs, id, bodyHash);
    if ('status' in claimed) return claimed;
    let { held } = claimed;

    const commandId = deterministicUuid('idempotency', id);
    let renewal = Promise.resolve();
    const renewing = setInterval(() => {
      renewal = renewal.then(async () => {
        const renewed = { ...held, _pos: held._pos + 1, leaseUntil: Date.now() + LEASE_MS };
        if (await docs.putIfNewer(renewed)) held = renewed;
        else clearInterval(renewing); // taken over: the process was stalled past its lease
      }).catch(() => undefined);
    }, RENEW_EVERY_MS);
    const settle = async () => {
      clearInterval(renewing);
      await renewal;
    };
    // A failed run may have appended its events before failing (say, the read store refused the reply): the key is
    // released rather than forgotten, so the repeat runs in recovery and answers from those events instead of
    // deciding again under the same command id (which would be 409 duplicate_id, or a second write).
    const release = () => docs.putIfNewer({ ...held, _pos: held._pos + 1, leaseUntil: 0 }).catch(() => undefined);
    try {
      const reply = claimed.recovering ? await this.recovery(commandId, () => execute(commandId)) : await execute(commandId);
      await settle();
      if (reply.status >= 500) await release();
      else {
        const sealed = this.replies.seal(storedReply(reply));
        await docs.putIfNewer({ _id: id, _pos: held._pos + 1, bodyHash, state: 'done', reply: sealed, createdAt: held.createdAt });
      }
      return reply;
    } catch (err) {
      await settle();
      await release();
      throw err;
    }
  }

  /** Takes the key for this process: its record, held; or the answer to give instead (the first reply, or in use). */
  private async claim(docs: Collection<Record>, id: string, bodyHash: string): Promise<{ held: Record; recovering: boolean } | Reply> {
    const now = Date.now();
    const lease = { owner: this.owner, leaseUntil: now + LEASE_MS };
    let existing = await docs.get(id);
    if (existing && now - existing.createdAt >= TTL_MS) {
      await docs.delete(id);
      existing = null;
    }
    if (existing) {
      if (existing.bodyHash !== bodyHash) {
        throw new ApiError(409, 'idempotency_key_reused', 'This Idempotency-Key was used with a different body');
      }
      if (existing.state === 'done' && existing.reply) return replayedReply(this.replies.open(existing.reply));
      const leaseUntil = existing.leaseUntil ?? existing.createdAt + LEASE_MS;
      if (leaseUntil > now) return inUse(leaseUntil);
      if (typeof existing._pos === 'number') {
        const held = { ...existing, _pos: existing._pos + 1, ...lease };
        return (await docs.putIfNewer(held)) ? { held, recovering: true } : inUse(now + LEASE_MS);
      }
      await docs.delete(id); // pending since before records had revisions: no compare-and-set on it
    }
    const held: Record = { _id: id, _pos: 1, bodyHash, state: 'pending', createdAt: now, ...lease };
    return (await docs.insertNew(held)) ? { held, recovering: existing !== null } : inUse(now + LEASE_MS);
  }
}
