/**
 * The event store as the command handler uses it, timed and counted (calendar_eventstore_append_*), with a debug line
 * per append naming its correlation id (the request id of the command), so a request can be followed into the log.
 */
import type { Logger } from 'pino';
import type { Metrics } from '../http/metrics';
import { waitingFor, WrongExpectedRevisionError, type EventStore } from './event-store.port';

export function meteredEventStore(store: EventStore, metrics: Metrics, log: Logger): EventStore {
  return {
    async append(streamId, events, expected) {
      const started = process.hrtime.bigint();
      const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
      try {
        const result = await store.append(streamId, events, expected);
        metrics.appends.observe({ outcome: 'ok' }, seconds());
        metrics.appendedEvents.inc(events.length);
        if (log.isLevelEnabled('debug')) log.debug({
          correlationId: events[0]?.metadata.correlationId, streamId, eventIds: events.map((e) => e.id),
          types: events.map((e) => e.type), positions: result.positions,
        }, 'events appended');
        return result;
      } catch (err) {
        metrics.appends.observe({ outcome: err instanceof WrongExpectedRevisionError ? 'conflict' : 'error' }, seconds());
        throw err;
      }
    },
    readStream: (streamId, fromRevision, limit) => store.readStream(streamId, fromRevision, limit),
    readAll: (after, limit) => store.readAll(after, limit),
    ...(store.readAllOf ? { readAllOf: store.readAllOf.bind(store) } : {}),
    subscribeAll: (after, handler) => store.subscribeAll(after, handler),
    ...waitingFor(store),
    headPosition: () => store.headPosition(),
    close: () => store.close(),
  };
}
