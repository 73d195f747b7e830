/**
 * Time travel: an answer as it was at an instant, from the history of the streams it depends on, never from the
 * read models' present state. The streams are read through the decoding store (opened, upcast; redacted events are
 * skipped) up to their last event with occurredAt <= the instant, at most MAX_REPLAYED_EVENTS in one request.
 *
 * An aggregate's state is its decider's `evolve` over those events. A read answer replays the same events through
 * the read model's own projection into a throwaway in-memory store, then runs the live query on it: the documents
 * and the rendering are the live code's. Which streams belong to the caller (their Spaces, the boards that assigned
 * them tasks) is decided as it is now.
 */
import type { Projection } from '../../projections/projection';
import { ReadModels } from '../../projections/read-models';
import type { AppContext } from '../app-context';
import type { RecordedEvent } from '../eventstore/event-store.port';
import { invalid } from '../errors';
import { openEmbeddedReadStore } from '../readstore/embedded-read-store';
import type { Doc, ReadStore } from '../readstore/read-store.port';
import { erasable } from './erasable-projection';

export const MAX_REPLAYED_EVENTS = 20_000;

/** What reading the past needs: the decoded log and the read models (the API's context, or the CLI's). */
export type HistoryReader = Pick<AppContext, 'events' | 'readModels'>;

/** The instant of an `asOf` query: 400 when it lies in the future. */
export function pastInstant(asOf: string, path = 'query.asOf'): string {
  const at = Date.parse(asOf);
  if (at > Date.now()) throw invalid('asOf must not be in the future', [{ path, message: 'in the future' }]);
  return new Date(at).toISOString();
}

/** Events of these streams that occurred at or before `instant`, in log order; refused beyond the bound. */
export async function historyUpTo(app: HistoryReader, streams: readonly string[], instant: string, max = MAX_REPLAYED_EVENTS): Promise<RecordedEvent[]> {
  const out: RecordedEvent[] = [];
  for (const stream of streams) {
    const room = max - out.length;
    const read = await app.events.readStream(stream, 0, room + 1);
    const upTo = read.findIndex((e) => e.metadata.occurredAt > instant);
    const kept = upTo < 0 ? read : read.slice(0, upTo);
    if (kept.length > room) {
      throw invalid(`The history up to asOf holds more than ${max} events: too long to replay in one request`, [
        { path: 'query.asOf', message: `more than ${max} events to replay` },
      ]);
    }
    out.push(...kept.filter((e) => !e.redacted));
  }
  return out.sort((a, b) => a.position - b.position);
}

/** Read models that answer from a throwaway store: the live queries run on them unchanged. */
class ReplayedModels extends ReadModels {
  constructor(private readonly memory: ReadStore) {
    super(memory, undefined as never);
  }

  override async docs(name: string) {
    return <T extends Doc = Doc>(logical: string) => this.memory.collection<T>(`${name}/${logical}`);
  }
}

export interface Replayed {
  models: ReadModels;
  close(): Promise<void>;
}

/**
 * The projection's documents as `events` leave them, in memory; `seed` documents (by collection) are written first
 * (the caller's memberships as they are now).
 */
export async function replay(projection: Projection, events: RecordedEvent[], seed: Record<string, Doc[]> = {}): Promise<Replayed> {
  const memory = await openEmbeddedReadStore(':memory:');
  const models = new ReplayedModels(memory);
  try {
    const docs = await models.docs(projection.name);
    for (const [logical, rows] of Object.entries(seed)) for (const row of rows) await docs(logical).put(row);
    const applying = erasable(projection, memory);
    const handled = new Set(applying.handles);
    for (const e of events) if (handled.has(e.type)) await applying.apply(e, docs);
  } catch (err) {
    await memory.close();
    throw err;
  }
  return { models, close: () => memory.close() };
}

/** Runs `answer` on the read models as the streams' history up to `instant` leaves them. */
export async function answerAsOf<T>(
  app: HistoryReader,
  projection: Projection,
  streams: readonly string[],
  instant: string,
  answer: (models: ReadModels) => Promise<T>,
  seed?: Record<string, Doc[]>,
): Promise<T> {
  const replayed = await replay(projection, await historyUpTo(app, streams, instant), seed);
  try {
    return await answer(replayed.models);
  } finally {
    await replayed.close();
  }
}
