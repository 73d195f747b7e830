/**
 * A projection whose applied events are counted (calendar_projection_events_applied_total) and logged at debug with
 * the event's correlation id, so a request can be followed into the read models. The composition root wraps each one.
 */
import type { Logger } from 'pino';
import type { Metrics } from '../services/http/metrics';
import type { Projection } from './projection';

export function observed(p: Projection, metrics: Metrics, log: Logger): Projection {
  const applied = metrics.projectedEvents.labels({ projection: p.name });
  return {
    ...p,
    async apply(e, docs) {
      await p.apply(e, docs);
      applied.inc();
      if (log.isLevelEnabled('debug')) log.debug({ correlationId: e.metadata.correlationId, eventId: e.id, type: e.type, position: e.position, projection: p.name }, 'event projected');
    },
  };
}
