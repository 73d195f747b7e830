/**
 * How far the relay, the dispatcher and the automations runner are behind, read from the state they share (the log,
 * the relay checkpoint, delivery and run documents), so any process can tell, whichever process does the work:
 * /readyz names the role that lags, /metrics exports the same figures.
 */
import { RUNS } from '../automations/run-store';
import { DELIVERIES } from '../dispatcher/webhook-store';
import type { EventStore } from '../eventstore/event-store.port';
import type { ReadStore } from '../readstore/read-store.port';
import { CHECKPOINTS } from '../readstore/checkpoints';
import { RELAY_CHECKPOINT } from '../relay/relay';

export interface RelayHealth {
  position: number;
  /** Events of the log not yet acknowledged by the bus. */
  lagPositions: number;
  /** Age of the oldest of them; 0 when the relay is caught up. */
  lagSeconds: number;
}

export async function relayHealth(events: EventStore, store: ReadStore, now = Date.now()): Promise<RelayHealth> {
  const [head, checkpoint] = await Promise.all([events.headPosition(), store.collection(CHECKPOINTS).get(RELAY_CHECKPOINT)]);
  const position = (checkpoint?.position as number | undefined) ?? 0;
  const [next] = position < head ? await events.readAll(position, 1) : [];
  return {
    position,
    lagPositions: Math.max(0, head - position),
    lagSeconds: next ? Math.max(0, (now - Date.parse(next.metadata.occurredAt)) / 1000) : 0,
  };
}

export interface QueueHealth {
  /** Waiting work (pending deliveries, running runs), due or not. */
  waiting: number;
  /** Of those, due now. */
  due: number;
  /** How long the longest-due one has been due, in seconds (0 when none is due). */
  oldestDueSeconds: number;
}

async function queueHealth(store: ReadStore, collection: string, waiting: Record<string, string>, dueField: string, now: number): Promise<QueueHealth> {
  const docs = store.collection(collection);
  const dueFilter = { ...waiting, [dueField]: { $lte: now } };
  const [all, due, [oldest]] = await Promise.all([
    docs.count(waiting),
    docs.count(dueFilter),
    docs.find(dueFilter, { sort: [[dueField, 1]], limit: 1 }),
  ]);
  return { waiting: all, due, oldestDueSeconds: oldest ? Math.max(0, (now - (oldest[dueField] as number)) / 1000) : 0 };
}

/** The dispatcher's queue: pending webhook deliveries (an attempt in flight is due at the end of its lease). */
export const deliveryQueue = (store: ReadStore, now = Date.now()) =>
  queueHealth(store, DELIVERIES, { state: 'pending' }, 'nextAttemptMs', now);

/** The automations runner's queue: runs not finished (a run being carried is due at the end of its lease). */
export const runQueue = (store: ReadStore, now = Date.now()) => queueHealth(store, RUNS, { status: 'running' }, 'dueMs', now);
