import type { RecordedEvent } from '../services/eventstore/event-store.port';
import type { Collection, Doc } from '../services/readstore/read-store.port';

/** The collections of one projection's storage, by their logical names. */
export type ProjectionDocs = <T extends Doc = Doc>(logical: string) => Collection<T>;

/**
 * A named, versioned read model. Bump `version` when what it writes changes: the new version rebuilds into new
 * storage while the old one keeps serving, then takes over (blue/green). `apply` must be idempotent under replay
 * in log order: write with `putIfNewer` and `_pos: event.position`.
 */
export interface Projection {
  name: string;
  version: number;
  /**
   * Logical collection names, each with the indexes its queries need. `coalesce`: documents rewritten many times
   * within a catch-up page are written once per page (coalescing-docs.ts).
   */
  collections: Record<string, { indexes: string[][]; coalesce?: boolean }>;
  handles: readonly string[];
  apply(event: RecordedEvent, docs: ProjectionDocs): Promise<void>;
}

export const projection = (p: Projection): Projection => p;
