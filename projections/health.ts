/**
 * How each projection stands against the head of the log: its position, how far behind it is in log positions and
 * in time (the age of the oldest event it has not applied, which is how stale its readers are), and how many events
 * it dead-lettered. Read by /readyz, /metrics and /admin in any role: where no runner runs in the process, positions
 * come from the checkpoints.
 */
import type { EventStore } from '../services/eventstore/event-store.port';
import type { ReadStore } from '../services/readstore/read-store.port';
import { DeadLetters } from './dead-letters';
import type { Watermarks } from './watermarks';

export interface ProjectionHealth {
  name: string;
  position: number;
  /** Log positions between the projection and the head (events on the embedded log, bytes on EventStoreDB). */
  lagPositions: number;
  /** Age of the oldest event not applied yet; 0 when caught up. */
  lagSeconds: number;
  /** The oldest event not applied yet, when there is one. */
  next: { position: number; type: string } | null;
  deadLetters: number;
}

export interface LogHealth {
  head: number;
  projections: ProjectionHealth[];
}

export interface HealthSources {
  events: EventStore;
  store: ReadStore;
  watermarks: Watermarks;
  projectionNames: readonly string[];
}

export async function projectionHealth(sources: HealthSources, now = Date.now()): Promise<LogHealth> {
  const { events, watermarks } = sources;
  const deadLetters = new DeadLetters(sources.store);
  const head = await events.headPosition();
  const projections = await Promise.all(
    sources.projectionNames.map(async (name): Promise<ProjectionHealth> => {
      const position = await watermarks.position(name);
      const [next] = position < head ? await events.readAll(position, 1) : [];
      const storage = await watermarks.activeKey(name);
      return {
        name,
        position,
        lagPositions: Math.max(0, head - position),
        lagSeconds: next ? Math.max(0, (now - Date.parse(next.metadata.occurredAt)) / 1000) : 0,
        next: next ? { position: next.position, type: next.type } : null,
        deadLetters: storage ? await deadLetters.count(storage) : 0,
      };
    }),
  );
  return { head, projections };
}

export interface ReadinessLimits {
  maxLagSeconds: number;
  maxLagPositions: number;
}

/** Why the projections are not ready to serve, one line per problem naming the projection; empty when they are. */
export function readinessProblems(health: LogHealth, limits: ReadinessLimits): string[] {
  const problems: string[] = [];
  for (const p of health.projections) {
    if (p.next && p.lagSeconds > limits.maxLagSeconds) {
      problems.push(
        `${p.name}: stuck or lagging: the oldest event it has not applied (position ${p.next.position}, ${p.next.type}) ` +
          `is ${Math.round(p.lagSeconds)} s old (limit ${limits.maxLagSeconds} s)`,
      );
    }
    if (p.lagPositions > limits.maxLagPositions) {
      problems.push(`${p.name}: ${p.lagPositions} log positions behind the head (limit ${limits.maxLagPositions})`);
    }
  }
  return problems;
}
