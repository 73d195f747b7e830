/**
 * What the fetcher keeps per subscription, beside the log (`_calendar_subscriptions`, one document per calendar):
 * the address, its credentials sealed with the server keyring, the validators of the last answer (conditional GET),
 * when it is due, its lease and its failures. Fetch bookkeeping, not changes: the log records the subscription
 * (`calendar.created` with `source`) and what each fetch changed in the events, nothing else. Changes are
 * compare-and-set on `_pos` (services/readstore/revisions.ts), so two dispatcher processes never both claim one fetch.
 * An erased user's documents are deleted with their other state (services/history/erasure.ts).
 */
import type { Keyring, Sealer } from '../keyring';
import type { Collection, Doc, ReadStore } from '../readstore/read-store.port';
import { changeByRevision } from '../readstore/revisions';

export const SUBSCRIPTIONS = '_calendar_subscriptions';

export interface Credentials {
  username: string;
  password: string;
}

/** What tells the source's next answer whether anything changed since. */
export interface Validators {
  etag: string | null;
  lastModified: string | null;
  /** A CalDAV collection's CS:getctag (or DAV:sync-token). */
  ctag: string | null;
}

export interface SubscriptionDoc extends Doc {
  _pos: number;
  /** The subscriber: the owner of the calendar's Space. */
  userId: string;
  spaceId: string;
  calendarId: string;
  url: string;
  /** `{username, password}` as JSON, AES-256-GCM sealed; null without credentials. */
  sealedCredentials: string | null;
  validators: Validators;
  /** Due (ms) when idle; while a fetch is under way, the end of its lease. */
  nextFetchMs: number;
  leasedUntil: number | null;
  /** A refresh was asked for while a fetch was under way: due again once it is recorded. */
  dueAgain: boolean;
  /** Failed fetches in a row (the backoff). */
  failures: number;
  lastFetchedAt: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

export const noValidators = (): Validators => ({ etag: null, lastModified: null, ctag: null });

export class SubscriptionStore {
  readonly docs: Collection<SubscriptionDoc>;
  private readonly secrets: Sealer;

  constructor(store: Pick<ReadStore, 'collection'>, keys: Keyring) {
    this.docs = store.collection<SubscriptionDoc>(SUBSCRIPTIONS);
    this.secrets = keys.sealer('subscription-credentials');
  }

  async ensureIndexes(): Promise<void> {
    await this.docs.ensureIndex(['nextFetchMs']);
    await this.docs.ensureIndex(['userId']);
  }

  sealCredentials(credentials: Credentials | null): string | null {
    return credentials ? this.secrets.seal(JSON.stringify(credentials)) : null;
  }

  credentialsOf(doc: SubscriptionDoc): Credentials | null {
    return doc.sealedCredentials ? (JSON.parse(this.secrets.open(doc.sealedCredentials)) as Credentials) : null;
  }

  /** Fetch it as soon as a worker looks (a fetch under way finishes first). */
  async makeDue(calendarId: string): Promise<SubscriptionDoc | null> {
    const { after } = await changeByRevision(this.docs, calendarId, (doc) =>
      (doc ? { ...doc, ...(doc.leasedUntil === null ? { nextFetchMs: Date.now() } : { dueAgain: true }), updatedAt: new Date().toISOString() } : null));
    return after;
  }

  /** The next revision if nobody wrote since `doc` was read, else null. */
  async claim(doc: SubscriptionDoc, fields: Partial<SubscriptionDoc>): Promise<SubscriptionDoc | null> {
    const next: SubscriptionDoc = { ...doc, ...fields, _pos: doc._pos + 1 };
    return (await this.docs.putIfNewer(next)) ? next : null;
  }

  /** Applies `change` to the current revision (again on a fresh read when someone wrote in between). */
  async update(calendarId: string, change: (doc: SubscriptionDoc) => Partial<SubscriptionDoc> | null): Promise<SubscriptionDoc | null> {
    const { after } = await changeByRevision(this.docs, calendarId, (doc) => {
      const fields = doc && change(doc);
      return fields ? { ...doc, ...fields, updatedAt: new Date().toISOString() } : null;
    });
    return after;
  }
}
