/**
 * Webhooks and their deliveries are state documents in the read store (`_webhooks`, `_webhook_deliveries`), not
 * events: they are configuration and delivery bookkeeping, not changes a webhook or /sync speaks of.
 *
 * Both use `_pos` as a revision: every change is a `putIfNewer` with `_pos + 1`, an atomic compare-and-set on both
 * adapters, so two dispatcher processes never both claim one attempt, and two PATCHes of one webhook never lose one.
 * A deleted webhook stays as a tombstone (`deletedAt`): a change that read it before the delete then finds a newer
 * revision instead of an empty id it would write the webhook back into.
 */
import type { Delivery, Webhook } from '../../contracts/webhooks';
import type { Keyring, Sealer } from '../keyring';
import type { Collection, Doc, ReadStore } from '../readstore/read-store.port';
import { changeByRevision } from '../readstore/revisions';

export const WEBHOOKS = '_webhooks';
export const DELIVERIES = '_webhook_deliveries';

export interface WebhookDoc extends Doc {
  /** The revision; absent on webhooks made before revisions were kept (their first change gives them one). */
  _pos?: number;
  /** When it was deleted: such a webhook is found by nobody and delivers nothing. */
  deletedAt?: string | null;
  userId: string;
  name: string;
  url: string;
  events: string[];
  enabled: boolean;
  /** The signing secret, AES-256-GCM sealed with a key derived from SERVER_SECRET. */
  sealedSecret: string;
  /** Head of the log when it was created: only later changes are delivered to it. */
  fromPosition: number;
  createdAt: string;
  updatedAt: string;
}

export interface AttemptDoc {
  at: string;
  status: number | null;
  responseTimeMs: number | null;
  error: string | null;
}

export interface DeliveryDoc extends Doc {
  _pos: number;
  webhookId: string;
  userId: string;
  eventId: string;
  /** The domain event's stream (aggregate) and log position: deliveries of one stream to one webhook go in log order. */
  streamId?: string;
  position?: number;
  type: string;
  /** The domain event's correlation id (the request that caused it), for the logs; absent on older deliveries. */
  correlationId?: string;
  /** The JSON body, fixed at creation: every attempt sends the same bytes. */
  body: string;
  state: 'pending' | 'delivered' | 'failed';
  attempts: AttemptDoc[];
  /** Attempts before the current round (a redelivery starts a new round of retries). */
  roundStart: number;
  /** Due time (ms) while pending; while an attempt is in flight, the end of its lease. */
  nextAttemptMs: number | null;
  /** Set while an attempt is in flight: the end of the claim. */
  leasedUntil: number | null;
  createdAt: string;
  updatedAt: string;
}

export class WebhookStore {
  readonly webhooks: Collection<WebhookDoc>;
  readonly deliveries: Collection<DeliveryDoc>;
  private readonly secrets: Sealer;

  constructor(store: Pick<ReadStore, 'collection'>, keys: Keyring) {
    this.webhooks = store.collection<WebhookDoc>(WEBHOOKS);
    this.deliveries = store.collection<DeliveryDoc>(DELIVERIES);
    this.secrets = keys.sealer('webhook-secret');
  }

  async ensureIndexes(): Promise<void> {
    await this.webhooks.ensureIndex(['userId']);
    await this.deliveries.ensureIndex(['state', 'nextAttemptMs']);
    await this.deliveries.ensureIndex(['webhookId', 'createdAt']);
    await this.deliveries.ensureIndex(['webhookId', 'streamId', 'state', 'position']);
  }

  /** The first delivery still pending on the same webhook and stream, before (`$lt`) or after (`$gt`) this one. */
  async pendingBeside(doc: DeliveryDoc, side: '$lt' | '$gt'): Promise<DeliveryDoc | null> {
    if (doc.streamId === undefined || doc.position === undefined) return null; // made before deliveries were ordered
    const [found] = await this.deliveries.find(
      { webhookId: doc.webhookId, streamId: doc.streamId, state: 'pending', position: { [side]: doc.position } },
      { sort: [['position', 1]], limit: 1 },
    );
    return found ?? null;
  }

  seal(secret: string): string {
    return this.secrets.seal(secret);
  }

  open(sealed: string): string {
    return this.secrets.open(sealed);
  }

  async ownedWebhook(userId: string, id: string): Promise<WebhookDoc | null> {
    const doc = await this.webhooks.get(id);
    return ownedBy(userId, doc) ? doc : null;
  }

  /** The user's webhooks, oldest first. */
  async webhooksOf(userId: string): Promise<WebhookDoc[]> {
    return (await this.webhooks.find({ userId }, { sort: [['createdAt', 1], ['_id', 1]] })).filter(live);
  }

  /**
   * Applies `change` to the current revision of one of the user's webhooks and stores it as the next revision, again
   * on a fresh read when someone else wrote in between; null when the user has no such webhook (or it was deleted).
   */
  async updateWebhook(userId: string, id: string, change: (doc: WebhookDoc) => Partial<WebhookDoc>): Promise<WebhookDoc | null> {
    const { before, after } = await changeByRevision(this.webhooks, id, (doc) =>
      ownedBy(userId, doc) ? { ...doc, ...change(doc), updatedAt: new Date().toISOString() } : null,
    );
    return ownedBy(userId, before) ? after : null;
  }

  /**
   * Applies `change` to the current revision of a delivery and stores it as the next revision, again on a fresh
   * read when someone else wrote in between. `change` returns null to leave the document alone.
   */
  async updateDelivery(id: string, change: (doc: DeliveryDoc) => Partial<DeliveryDoc> | null): Promise<DeliveryDoc | null> {
    const { after } = await changeByRevision(this.deliveries, id, (doc) => {
      const fields = doc && change(doc);
      return fields ? { ...doc, ...fields, updatedAt: new Date().toISOString() } : null;
    });
    return after;
  }

  /** The next revision if nobody wrote since `doc` was read, else null. */
  async claim(doc: DeliveryDoc, fields: Partial<DeliveryDoc>): Promise<DeliveryDoc | null> {
    const next: DeliveryDoc = { ...doc, ...fields, _pos: doc._pos + 1 };
    return (await this.deliveries.putIfNewer(next)) ? next : null;
  }
}

/** Not deleted. */
export const live = (doc: WebhookDoc): boolean => !doc.deletedAt;

/** A webhook of this user's that is not deleted. */
const ownedBy = (userId: string, doc: WebhookDoc | null): doc is WebhookDoc => doc !== null && live(doc) && doc.userId === userId;

export const webhookView = (d: WebhookDoc): Webhook => ({
  id: d._id, name: d.name, url: d.url, events: d.events, enabled: d.enabled, createdAt: d.createdAt, updatedAt: d.updatedAt,
});

export const deliveryView = (d: DeliveryDoc): Delivery => ({
  id: d._id,
  webhookId: d.webhookId,
  eventId: d.eventId,
  type: d.type,
  state: d.state,
  attempts: d.attempts,
  nextAttemptAt: d.state === 'pending' && d.nextAttemptMs !== null ? new Date(d.nextAttemptMs).toISOString() : null,
  payload: JSON.parse(d.body) as unknown,
  createdAt: d.createdAt,
  updatedAt: d.updatedAt,
});
