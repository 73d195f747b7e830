/**
 * Fires due reminders: polls the reminders projection for waiting documents whose instant has come (oldest first),
 * claims each (claims.ts) and records it in the log (reminder-event.ts); the notification, push and mail come from
 * that event, through the notifications projection and the bus consumers. Before it fires anything it waits until
 * the projection has applied the log as it was at that moment, so an event cancelled or moved just before its
 * reminder's time reminds no one at the old time; while the projection is first built (it has no active storage
 * yet, and a partly built one is not waited for) it fires nothing. A reminder another process recorded first is left.
 */
import type { Logger } from 'pino';
import { type DueDoc, REMINDERS, type SeriesDoc } from '../../projections/reminder-docs';
import type { ReadModels } from '../../projections/read-models';
import { registryDocs } from '../../projections/registry';
import type { Watermarks } from '../../projections/watermarks';
import { PollingWorker } from '../dispatcher/polling-worker';
import { type EventStore, WrongExpectedRevisionError } from '../eventstore/event-store.port';
import type { Collection, ReadStore } from '../readstore/read-store.port';
import type { ReminderClaims } from './claims';
import { reminderEvent, reminderStream } from './reminder-event';

export interface ReminderWorkerOptions {
  pollMs: number;
  leaseMs: number;
  /** How long a poll waits for the projection to reach the log's head before it fires anything. */
  catchUpWaitMs: number;
  maxInFlight?: number;
  /** Reminders of one owner fired at once: a person with thousands due at one instant never takes every slot. */
  maxInFlightPerOwner?: number;
  /** The clock deciding what is due and what was missed (Date.now; a test sets it ahead to stand for downtime). */
  now?: () => number;
}

export interface ReminderSources {
  events: EventStore;
  readModels: ReadModels;
  watermarks: Watermarks;
  claims: ReminderClaims;
  /** Where the projection registry says whether the reminders projection is built. */
  store: Pick<ReadStore, 'collection'>;
}

/** Due documents read per free slot, beyond those under way (which come first): room to pass over owners at their cap. */
const READ_AHEAD = 2;
/**
 * A poll while reminders are under way waits until this share of the slots is free: every finished one wakes the
 * worker, and a poll reads past all those under way, so one poll per finished reminder would read the burst over
 * and over.
 */
const FREE_SHARE_TO_POLL = 0.5;
/** Polls between two prunings of old claims. */
const PRUNE_EVERY = 1000;

export class ReminderWorker extends PollingWorker {
  private polls = 0;
  private readonly now: () => number;

  constructor(
    private readonly sources: ReminderSources,
    private readonly options: ReminderWorkerOptions,
    log: Logger,
    private readonly onRecorded: (type: string) => void = () => undefined,
  ) {
    super({ pollMs: options.pollMs, maxInFlight: options.maxInFlight ?? 256, maxInFlightPerGroup: options.maxInFlightPerOwner ?? 32 }, log, 'reminders');
    this.now = options.now ?? Date.now;
  }

  private async collections() {
    const docs = await this.sources.readModels.docs(REMINDERS);
    return { due: docs<DueDoc>('due'), series: docs<SeriesDoc>('series') };
  }

  private dueNow(due: Collection<DueDoc>, limit: number): Promise<DueDoc[]> {
    return this.read(() => due.find({ state: 'pending', dueMs: { $lte: this.now() } }, { sort: [['dueMs', 1], ['_id', 1]], limit }));
  }

  protected async tick(): Promise<void> {
    if (++this.polls % PRUNE_EVERY === 0) await this.sources.claims.prune(this.now());
    if (this.free <= 0 || (this.inFlight.size > 0 && this.free < this.limits.maxInFlight * FREE_SHARE_TO_POLL)) return;
    const { due, series } = await this.collections();
    if ((await this.dueNow(due, 1)).length === 0) return;
    if (!(await registryDocs(this.sources.store).get(REMINDERS))?.active) return;
    const head = await this.sources.events.headPosition();
    if (!(await this.sources.watermarks.waitFor([REMINDERS], head, this.options.catchUpWaitMs))) {
      this.log.warn({ head }, 'reminders: the reminders read model has not reached the log head; nothing fired this poll');
      return;
    }
    for (const doc of await this.dueNow(due, this.inFlight.size + this.free * READ_AHEAD)) {
      if (this.free <= 0) return;
      if (!this.mayStart(doc._id, doc.ownerId)) continue;
      this.launch(doc._id, doc.ownerId, this.fire(doc, series).catch((err: unknown) => {
        this.log.warn({ err, reminder: doc._id }, 'reminder not recorded; it is tried again');
      }));
    }
  }

  private async fire(doc: DueDoc, series: Collection<SeriesDoc>): Promise<void> {
    const holder = await this.sources.claims.claim(doc._id, this.options.leaseMs, this.now());
    if (!holder) return;
    const event = await series.get(doc.eventId);
    if (!event) return; // the event is gone, and its documents go with it
    const recorded = reminderEvent(doc, event, this.now());
    try {
      await this.sources.events.append(reminderStream(doc._id), [recorded], 'no_stream');
    } catch (err) {
      if (err instanceof WrongExpectedRevisionError) return; // another process recorded it first
      await this.sources.claims.release(doc._id, holder);
      throw err;
    }
    this.onRecorded(recorded.type);
  }
}
