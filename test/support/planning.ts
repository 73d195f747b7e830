/** Helpers of the planning suites (goals, insights): domain events appended straight to the log, weeks in a zone. */
import { randomUUID } from 'node:crypto';
import { schemaVersionOf } from '../../contracts/domain-events';
import { wallClock } from '../../services/time/zone';
import { useTestService, type TestService } from './service';

/** Starts the service for a file's tests; `head()` is the log's head, to show that a refused request wrote nothing. */
export function usePlanningService() {
  const api = { svc: undefined as unknown as TestService, base: '', head: (): Promise<number> => api.svc.service.context.events.headPosition() };
  useTestService((started) => {
    api.svc = started;
    api.base = started.base;
  });
  return api;
}

/**
 * Appends one domain event to the log as another slice (or an earlier moment) would have, and returns its position:
 * pass it as X-Calendar-Min-Position to read after it.
 */
export async function appendDomainEvent(svc: TestService, type: string, data: unknown, userId: string, stream = `test-${randomUUID()}`) {
  const result = await svc.service.context.events.append(stream, [{
    id: randomUUID(), type, data,
    metadata: { userId, correlationId: randomUUID(), causationId: randomUUID(), occurredAt: new Date().toISOString(), schemaVersion: schemaVersionOf(type) },
  }], 'any');
  return result.position;
}

const HOUR = 3_600_000;
const WEEK = 7 * 24 * HOUR;

/** Milliseconds since the local week began (Monday 00:00) in a fixed-offset zone. */
function intoWeek(now: number, timeZone: string): number {
  const { local } = wallClock(now, timeZone);
  const weekday = new Date(`${local.slice(0, 10)}T00:00:00Z`).getUTCDay() || 7;
  return (weekday - 1) * 24 * HOUR + (Date.parse(`${local}Z`) - Date.parse(`${local.slice(0, 10)}T00:00:00Z`));
}

/**
 * A zone without DST where `now` is at least `margin` hours away from both ends of the local week, so a test can
 * place things a few hours before or after now and stay inside this week. The two zones are 24 hours apart: at
 * any moment at least one of them qualifies for margins up to 11 hours.
 */
export function midWeekZone(now = Date.now(), margin = 4): string {
  for (const zone of ['Pacific/Honolulu', 'Pacific/Kiritimati']) {
    const into = intoWeek(now, zone);
    if (into >= margin * HOUR && WEEK - into >= margin * HOUR) return zone;
  }
  throw new Error('no zone found (cannot happen for margins up to 11 hours)');
}
