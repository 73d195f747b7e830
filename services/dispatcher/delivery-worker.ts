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
import type { DeliveryDoc, WebhookStore } from './webhook-store';

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
 * A delivery parked behind an earlier one is looked at again after this. The earlier one's end makes it due at once
 * (release), but an end that comes between the check and the parking misses it: this bounds that wait. Each look
 * costs a query and a write per parked delivery (within one poll, the later ones of a stream are parked without one).
 */
const PARK_RECHECK_MS = 5_000;

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
    /** Per webhook and stream, the lowest position of a pending delivery met in this tick: the later ones wait. */
    const first = new Map<string, number>();
    for (let page = 1; page <= MAX_PAGES && this.free > 0; page++) {
      const due = await this.store.deliveries.find(
        { state: 'pending', nextAttemptMs: { $lte: now } },
        { sort: [['nextAttemptMs', 1], ['_id', 1]], limit: PAGE * page },
      );
      for (const doc of due) {
        if (this.free <= 0) return;
        if (seen.has(doc._id)) continue;
        seen.add(doc._id);
        const stream = doc.streamId === undefined || doc.position === undefined ? null : `${doc.webhookId} ${doc.streamId}`;
        const behind = stream !== null && (first.get(stream) ?? Infinity) < doc.position!;
        if (stream !== null && !behind) first.set(stream, doc.position!);
        if (!this.mayStart(doc._id, doc.webhookId)) continue;
        if (behind || (await this.store.pendingBeside(doc, '$lt'))) {
          await this.store.claim(doc, { nextAttemptMs: Date.now() + PARK_RECHECK_MS });
          continue;
        }
        const leasedUntil = Date.now() + this.options.timeoutMs + LEASE_EXTRA_MS;
        const claimed = await this.store.claim(doc, { nextAttemptMs: leasedUntil, leasedUntil });
        if (claimed) {
          this.launch(claimed._id, claimed.webhookId, this.attempt(claimed).catch((err) => {
            this.log.warn({ err, delivery: claimed._id }, 'webhook attempt not recorded; its lease will expire');
          }));
        }
      }
      if (due.length < PAGE * page) return;
    }
  }

  private async attempt(doc: DeliveryDoc): Promise<void> {
    const webhook = await this.store.webhooks.get(doc.webhookId);
    if (!webhook) return void (await this.store.deliveries.delete(doc._id));
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

  /** Makes the next delivery of the same stream and webhook due at once, now that this one is done. */
  private async release(doc: DeliveryDoc): Promise<void> {
    const next = await this.store.pendingBeside(doc, '$gt');
    if (!next) return;
    // Retried on a concurrent write: a poll parking it at the same moment must not win over this.
    await this.store.updateDelivery(next._id, (d) =>
      d.state === 'pending' && d.leasedUntil === null && d.attempts.length === d.roundStart ? { nextAttemptMs: Date.now() } : null);
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
