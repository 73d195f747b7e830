/**
 * Which worker is firing which reminder: one state document per reminder in `_reminder_claims`, taken by insertNew
 * or, once its lease ran out, by compare-and-set on its revision (`_pos`), so two workers never fire one reminder at
 * the same time. A claim is not what makes a reminder fire once (the event store's "no stream" does that): it keeps
 * a second process from doing the same work while the first one's event reaches the read model. Claims whose lease
 * ran out long ago are deleted.
 */
import { newId } from '../ids';
import type { Collection, Doc, ReadStore } from '../readstore/read-store.port';

export const REMINDER_CLAIMS = '_reminder_claims';
/** A claim is kept this long after its lease ran out; the reminder has long been recorded by then. */
const KEEP_MS = 3_600_000;

interface ClaimDoc extends Doc {
  _pos: number;
  holder: string;
  leasedUntilMs: number;
}

export class ReminderClaims {
  private readonly claims: Collection<ClaimDoc>;

  constructor(store: ReadStore) {
    this.claims = store.collection<ClaimDoc>(REMINDER_CLAIMS);
  }

  ensureIndexes(): Promise<void> {
    return this.claims.ensureIndex(['leasedUntilMs']);
  }

  /** The holder's token when this caller now holds the reminder for `leaseMs`; null when someone else does. */
  async claim(reminderId: string, leaseMs: number, now = Date.now()): Promise<string | null> {
    const claim = { _id: reminderId, holder: newId(), leasedUntilMs: now + leaseMs };
    if (await this.claims.insertNew({ ...claim, _pos: 1 })) return claim.holder;
    const held = await this.claims.get(reminderId);
    if (!held || held.leasedUntilMs > now) return null;
    return (await this.claims.putIfNewer({ ...claim, _pos: held._pos + 1 })) ? claim.holder : null;
  }

  /** Gives the reminder back at once (its firing failed), if `holder` still holds it: a retry need not wait. */
  async release(reminderId: string, holder: string): Promise<void> {
    const held = await this.claims.get(reminderId);
    if (held?.holder === holder) await this.claims.putIfNewer({ ...held, _pos: held._pos + 1, leasedUntilMs: 0 });
  }

  prune(now = Date.now()): Promise<number> {
    return this.claims.deleteMany({ leasedUntilMs: { $lt: now - KEEP_MS } });
  }
}
