/**
 * Sends due deliveries. Everything it needs is in the delivery documents, so a pending retry survives a restart:
 * the worker only polls for `pending` documents whose time has come.
 *
 * An attempt is claimed first (compare-and-set pushes its due time to the end of a lease), so concurrent workers
 * never send the same attempt twice; a worker that dies mid-attempt leaves the lease to expire and the attempt is
 * made again, with the same delivery id. Sends run concurrently, with a cap per webhook, so one slow receiver can
 * take only its own share of the slots.
 *
 * Deliveries of one stream (aggregate) to one webhook go in log order: while an earlier one is pending (due, in
 * flight or waiting for its retry), a later one is parked, and released at once when the earlier one is delivered
 * or has failed for good.
 */
import type { Logger } from 'pino';
import type { Metrics } from '../http/metrics';
import { PollingWorker } from './polling-worker';
import { sendSigned, type AttemptResult } from './send';
import { live, type DeliveryDoc, type WebhookStore } from './webhook-store';

export interface WorkerOptions {
  retryDelaysMs: readonly number[];
  timeoutMs: number;
  allowPrivate: boolean;
  maxInFlight?: number;
  maxInFlightPerWebhook?: number;
  pollMs?: number;
}

const PAGE = 100;
const MAX_PAGES = 10;
/** Beyond the request time-out: how long a claim holds before another worker may take the attempt over. */
const LEASE_EXTRA_MS = 30_000;
/**
 * A delivery parked right behind an earlier one is looked at again after this. The earlier one's end makes it due
 * at once (release), but an end that comes between the check and the parking misses it: this bounds that wait.
 * Deliveries further back in the same poll can miss no release (the one before them is not under way), so the
 * k-th one waits k times as long, up to PARK_RECHECK_MAX_MS: a long queue costs a few writes per minute, not one
 * per delivery every few seconds.
 */
const PARK_RECHECK_MS = 5_000;
const PARK_RECHECK_MAX_MS = 60_000;

export class DeliveryWorker extends PollingWorker {
  constructor(
    private readonly store: WebhookStore,
    private readonly options: WorkerOptions,
    log: Logger,
    private readonly metrics: Pick<Metrics, 'deliveryAttempts'>,
  ) {
    super({ pollMs: options.pollMs ?? 200, maxInFlight: options.maxInFlight ?? 128, maxInFlightPerGroup: options.maxInFlightPerWebhook ?? 16 }, log, 'webhook worker');
  }

  /**
   * Claims due deliveries, oldest first, until the slots are full. Deliveries of webhooks at their own cap are
   * skipped; when a whole page is skipped, a larger one is read (bounded), so the others are still reached.
   */
  protected async tick(): Promise<void> {
    const now = Date.now();
    const seen = new Set<string>();
    /** Per webhook and stream, the lowest position of a pending delivery met in this tick (the later ones wait) and
     * how many were met. */
    const first = new Map<string, { position: number; met: number }>();
    for (let page = 1; page <= MAX_PAGES && this.free > 0; page++) {
      const due = await this.read(() =>
        this.store.deliveries.find(
          { state: 'pending', nextAttemptMs: { $lte: now } },
          { sort: [['nextAttemptMs', 1], ['_id', 1]], limit: PAGE * page },
        ),
      );
      for (const doc of due) {
        if (this.free <= 0) return;
        if (seen.has(doc._id)) continue;
        seen.add(doc._id);
        const stream = doc.streamId === undefined || doc.position === undefined ? null : `${doc.webhookId} ${doc.streamId}`;
        const earlier = stream === null ? undefined : first.get(stream);
        const behind = earlier !== undefined && earlier.position < doc.position!;
        if (earlier) {
          earlier.met++;
          if (!behind) earlier.position = doc.position!;
        } else if (stream !== null) first.set(stream, { position: doc.position!, met: 1 });
        if (!this.mayStart(doc._id, doc.webhookId)) continue;
        if (behind || (await this.read(() => this.store.pendingBeside(doc, '$lt')))) {
          if (!this.mayStart(doc._id, doc.webhookId)) continue; // released and under way meanwhile
          const wait = Math.min(PARK_RECHECK_MS * (behind ? earlier.met - 1 : 1), PARK_RECHECK_MAX_MS);
          await this.store.claim(doc, { nextAttemptMs: Date.now() + wait });
          continue;
        }
        this.send(doc);
      }
      if (due.length < PAGE * page) return;
    }
  }

  /**
   * Leases the attempt and makes it, in the background. Its slot is taken before the lease is written, so no other
   * path of this worker claims the same delivery meanwhile (a compare-and-set alone is not enough on every
   * MongoDB-wire server). When someone wrote the delivery since `doc` was read, `lost` runs instead.
   */
  private send(doc: DeliveryDoc, lost?: () => Promise<unknown>): void {
    const leasedUntil = Date.now() + this.options.timeoutMs + LEASE_EXTRA_MS;
    this.launch(doc._id, doc.webhookId, (async () => {
      const claimed = await this.store.claim(doc, { nextAttemptMs: leasedUntil, leasedUntil });
      if (claimed) await this.attempt(claimed);
      else await lost?.();
    })().catch((err) => {
      this.log.warn({ err, delivery: doc._id }, 'webhook attempt not recorded; its lease will expire');
    }));
  }

  private async attempt(doc: DeliveryDoc): Promise<void> {
    const webhook = await this.store.webhooks.get(doc.webhookId);
    if (!webhook || !live(webhook)) return void (await this.store.deliveries.delete(doc._id));
    if (!webhook.enabled) {
      const failed = await this.store.updateDelivery(doc._id, () => ({ state: 'failed', nextAttemptMs: null, leasedUntil: null }));
      if (failed) await this.release(failed);
      return;
    }
    const at = new Date().toISOString();
    const result = await sendSigned(
      { url: webhook.url, secret: this.store.open(webhook.sealedSecret), deliveryId: doc._id, type: doc.type, body: doc.body },
      { timeoutMs: this.options.timeoutMs, allowPrivate: this.options.allowPrivate },
    );
    const recorded = await this.store.updateDelivery(doc._id, (d) => this.outcome(d, at, result));
    if (!recorded) return;
    const outcome = recorded.state === 'pending' ? 'retrying' : recorded.state;
    this.metrics.deliveryAttempts.inc({ outcome });
    this.log.info({
      correlationId: doc.correlationId, delivery: doc._id, webhookId: doc.webhookId, eventId: doc.eventId, type: doc.type,
      status: result.status, outcome,
    }, 'webhook delivery attempted');
    if (recorded.state !== 'pending') await this.release(recorded);
  }

  /**
   * Now that this one is done, the next delivery of the same stream and webhook goes: sent from here when a slot is
   * free, else made due at once for the next poll.
   */
  private async release(doc: DeliveryDoc): Promise<void> {
    const next = await this.store.pendingBeside(doc, '$gt');
    if (!next) return;
    const waiting = (d: DeliveryDoc) => d.state === 'pending' && d.leasedUntil === null && d.attempts.length === d.roundStart;
    // Retried on a concurrent write: a poll parking it at the same moment must not win over this.
    const due = () => this.store.updateDelivery(next._id, (d) => (waiting(d) ? { nextAttemptMs: Date.now() } : null));
    if (waiting(next) && this.free > 0 && this.mayStart(next._id, next.webhookId)) this.send(next, due);
    else await due();
  }

  private outcome(doc: DeliveryDoc, at: string, r: AttemptResult): Partial<DeliveryDoc> {
    const attempts = [...doc.attempts, { at, status: r.status, responseTimeMs: r.responseTimeMs, error: r.error }];
    if (r.ok) return { attempts, state: 'delivered', nextAttemptMs: null, leasedUntil: null };
    const made = attempts.length - doc.roundStart;
    const delay = this.options.retryDelaysMs[made - 1];
    if (delay === undefined) return { attempts, state: 'failed', nextAttemptMs: null, leasedUntil: null };
    return { attempts, state: 'pending', nextAttemptMs: Date.now() + delay, leasedUntil: null };
  }
}
