/**
 * The fetcher (dispatcher role): polls for subscriptions whose time has come, oldest due first, claims each by a
 * compare-and-set lease (two processes never both fetch one; a process that dies leaves the lease to expire), reads
 * the source and turns what it holds into one RefreshSubscription command of the Space schedule. Fetches run
 * concurrently, at most `maxInFlightPerUser` of one user's, so one user's many subscriptions take only their share
 * of the slots while everyone else's due ones go by in due order. docs/subscriptions.md.
 */
import type { Logger } from 'pino';
import { SOURCE_MAX_BYTES } from '../../contracts/subscriptions';
import type { AppContext } from '../app-context';
import { PollingWorker } from '../dispatcher/polling-worker';
import { deterministicUuid, newId } from '../ids';
import { eventCommands } from '../../write-api/events/event-commands';
import { importItemReader } from '../../write-api/calendars/import-items';
import { scheduleDecider, scheduleStream } from '../../write-api/schedule/schedule.decider';
import { recordFetch, type FetchOutcome } from './fetch-record';
import { readSource, type SourceLimits } from './read-source';
import type { SubscriptionDoc, SubscriptionStore } from './subscription-store';

export interface FetcherOptions extends SourceLimits {
  refreshMs: number;
  retryFirstMs: number;
  pollMs: number;
  maxInFlight?: number;
  maxInFlightPerUser?: number;
}

const PAGE = 100;
const MAX_PAGES = 10;
/** Beyond the request's deadline: how long a claim holds before another worker may take the fetch over. */
const LEASE_EXTRA_MS = 60_000;

const messageOf = (err: unknown) => (err instanceof Error ? err.message : String(err)).slice(0, 500);

export class SubscriptionWorker extends PollingWorker {
  private readonly events;
  private readonly readItems;

  constructor(
    private readonly app: AppContext,
    private readonly store: SubscriptionStore,
    private readonly options: FetcherOptions,
    log: Logger,
  ) {
    super({ pollMs: options.pollMs, maxInFlight: options.maxInFlight ?? 8, maxInFlightPerGroup: options.maxInFlightPerUser ?? 2 }, log, 'subscription fetcher');
    this.events = eventCommands(app);
    this.readItems = importItemReader(app);
  }

  protected async tick(): Promise<void> {
    const now = Date.now();
    const seen = new Set<string>();
    for (let page = 1; page <= MAX_PAGES && this.free > 0; page++) {
      const due = await this.read(() =>
        this.store.docs.find({ nextFetchMs: { $lte: now } }, { sort: [['nextFetchMs', 1], ['_id', 1]], limit: PAGE * page }));
      for (const doc of due) {
        if (this.free <= 0) return;
        if (seen.has(doc._id)) continue;
        seen.add(doc._id);
        if (this.mayStart(doc._id, doc.userId)) this.launch(doc._id, doc.userId, this.fetch(doc));
      }
      if (due.length < PAGE * page) return;
    }
  }

  private async fetch(doc: SubscriptionDoc): Promise<void> {
    const leasedUntil = Date.now() + this.options.timeoutMs + LEASE_EXTRA_MS;
    try {
      const claimed = await this.store.claim(doc, { leasedUntil, nextFetchMs: leasedUntil });
      if (!claimed) return;
      const outcome = await this.outcomeOf(claimed);
      await this.store.update(claimed._id, (d) => (d.leasedUntil !== leasedUntil ? null : {
        ...recordFetch(d, outcome, Date.now(), this.options),
        // A refresh asked for while this fetch was under way: fetch again at once.
        ...(d.dueAgain ? { nextFetchMs: Date.now(), dueAgain: false } : {}),
      }));
      this.app.metrics.subscriptionFetches.inc({ outcome: outcome.kind });
      this.log.info({ calendarId: doc.calendarId, outcome: outcome.kind, error: outcome.kind === 'failed' ? outcome.error : undefined }, 'subscription fetched');
    } catch (err) {
      this.log.warn({ err, calendarId: doc.calendarId }, 'subscription fetch not recorded; its lease will expire');
    }
  }

  /** Reads the source and applies it; a failure anywhere is the fetch's outcome, with its reason. */
  private async outcomeOf(doc: SubscriptionDoc): Promise<FetchOutcome> {
    try {
      const read = await readSource(doc.url, this.store.credentialsOf(doc), doc.validators, this.options);
      if (read.kind === 'not_modified') return { kind: 'not_modified' };
      const zone = (await this.events.profile(doc.userId)).timeZone;
      const { items } = await this.readItems(read.texts, doc.calendarId, zone, 'live');
      await this.app.commands.handle(scheduleStream(doc.spaceId), scheduleDecider, {
        type: 'RefreshSubscription', actorId: doc.userId, calendarId: doc.calendarId, items, now: new Date().toISOString(),
      }, {
        userId: doc.userId, commandId: deterministicUuid('subscription-fetch', doc._id, String(doc._pos)), correlationId: newId(), spaceId: doc.spaceId,
      });
      return { kind: 'changed', validators: read.validators };
    } catch (err) {
      return { kind: 'failed', error: messageOf(err) };
    }
  }
}

export async function startSubscriptionWorker(app: AppContext, store: SubscriptionStore, lookup?: SourceLimits['lookup']): Promise<SubscriptionWorker> {
  await store.ensureIndexes();
  const c = app.config;
  const worker = new SubscriptionWorker(app, store, {
    refreshMs: c.SUBSCRIPTION_REFRESH_MS, retryFirstMs: c.SUBSCRIPTION_RETRY_FIRST_MS, pollMs: c.SUBSCRIPTION_POLL_MS,
    timeoutMs: c.SUBSCRIPTION_TIMEOUT_MS, maxBytes: SOURCE_MAX_BYTES, allowPrivate: c.WEBHOOK_ALLOW_PRIVATE_URLS, lookup,
  }, app.log.child({ role: 'dispatcher', worker: 'subscriptions' }));
  worker.start();
  return worker;
}
