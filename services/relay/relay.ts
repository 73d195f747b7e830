/**
 * The log is the outbox: the relay follows the event store into the bus, keyed by stream id (so one aggregate's
 * events stay in order), and moves its checkpoint only after the bus acknowledged. A crash re-publishes from the
 * checkpoint, so consumers see each event at least once and dedupe on the event id.
 */
import type { Logger } from 'pino';
import type { Bus, BusMessage } from '../bus/bus.port';
import { LOG_POSITION } from '../bus/log-backed-bus';
import type { EventStore, RecordedEvent } from '../eventstore/event-store.port';
import { followLog, type LogFollower } from '../eventstore/follow-log';
import type { ReadStore } from '../readstore/read-store.port';
import { Backoff } from '../backoff';
import { loadCheckpoint, saveCheckpoint } from '../readstore/checkpoints';

export const RELAY_CHECKPOINT = 'relay';

/** An event as the bus carries it: keyed by stream id, so one aggregate's events stay in order on one partition. */
export const busMessage = (e: RecordedEvent): BusMessage => ({
  key: e.streamId,
  value: JSON.stringify(e),
  headers: { 'event-id': e.id, 'event-type': e.type, [LOG_POSITION]: String(e.position) },
});

const MAX_BATCH = 500;
/** Events arriving within this window go to the bus together. */
const BATCH_WINDOW_MS = 5;
/** Pauses before a checkpoint that could not be saved is tried again. */
const FIRST_SAVE_PAUSE_MS = 500;
const LONGEST_SAVE_PAUSE_MS = 5_000;

export class Relay {
  private sub: LogFollower | null = null;
  private queuedUpTo = 0;
  private pending: RecordedEvent[] = [];
  private flushing: Promise<void> | null = null;
  private acked = 0;
  /** The position last saved as the checkpoint, and the save under way. */
  private saved = 0;
  private saving: Promise<void> = Promise.resolve();
  private saveTimer: NodeJS.Timeout | null = null;
  private readonly saveBackoff = new Backoff(FIRST_SAVE_PAUSE_MS, LONGEST_SAVE_PAUSE_MS);
  private stopped = false;

  constructor(
    private readonly events: EventStore,
    private readonly bus: Bus,
    private readonly store: ReadStore,
    private readonly topic: string,
    private readonly log: Logger,
  ) {}

  get position(): number {
    return this.acked;
  }

  async start(): Promise<void> {
    this.acked = this.saved = await loadCheckpoint(this.store, RELAY_CHECKPOINT);
    this.queuedUpTo = this.acked;
    const queue = async (e: RecordedEvent) => {
      this.pending.push(e);
      this.queuedUpTo = e.position;
      this.scheduleFlush();
      if (this.pending.length >= MAX_BATCH) await this.flushing;
    };
    // A resubscription continues after what is queued: queued events are published, none twice, none skipped.
    this.sub = followLog(this.events, () => this.queuedUpTo, queue, this.log, 'relay');
  }

  private scheduleFlush(): void {
    this.flushing ??= new Promise<void>((resolve) => setTimeout(resolve, BATCH_WINDOW_MS)).then(() => this.flush());
  }

  private async flush(): Promise<void> {
    try {
      while (this.pending.length > 0) {
        const batch = this.pending.splice(0, MAX_BATCH);
        await this.publishWithRetry(batch);
        if (this.log.isLevelEnabled('debug')) for (const e of batch) this.log.debug({ correlationId: e.metadata.correlationId, eventId: e.id, type: e.type, position: e.position }, 'event relayed');
        this.acked = batch[batch.length - 1].position;
        await this.saveCheckpoint();
      }
    } finally {
      this.flushing = null;
    }
  }

  /**
   * Saves how far the bus has everything, one save at a time (so a later position is never overwritten by an earlier
   * one). A save that fails only means a restart publishes a little again (consumers dedupe), but /readyz reads this
   * checkpoint: it is tried again after a pause until one lands, or the last events before a quiet spell would show
   * as never relayed for as long as nothing new comes.
   */
  private saveCheckpoint(): Promise<void> {
    this.saving = this.saving.then(async () => {
      const position = this.acked;
      if (position <= this.saved) return;
      try {
        await saveCheckpoint(this.store, RELAY_CHECKPOINT, position);
        this.saved = position;
        this.saveBackoff.reset();
      } catch (err) {
        const retryInMs = this.saveLater();
        this.log.warn({ err, position, retryInMs }, 'relay checkpoint not saved; trying again');
      }
    });
    return this.saving;
  }

  /** Saves again after the next pause, unless a save is already due; returns the pause (null: none scheduled). */
  private saveLater(): number | null {
    if (this.saveTimer || this.stopped) return null;
    const pause = this.saveBackoff.pause();
    this.saveTimer = setTimeout(() => {
      this.saveTimer = null;
      void this.saveCheckpoint();
    }, pause);
    this.saveTimer.unref();
    return pause;
  }

  private async publishWithRetry(batch: RecordedEvent[]): Promise<void> {
    const messages = batch.map(busMessage);
    for (const delay of new Backoff(100, 10_000)) {
      try {
        return await this.bus.publish(this.topic, messages);
      } catch (err) {
        this.log.warn({ err, delay }, 'bus publish failed; retrying');
        await new Promise((r) => setTimeout(r, delay));
      }
    }
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.saveTimer) clearTimeout(this.saveTimer);
    await this.sub?.stop();
    await this.flushing;
    await this.saving;
  }
}
