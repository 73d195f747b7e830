/**
 * Schema evolution: stored events keep the shape they were written in; an upcaster turns a type's data from one
 * version into the next, and the chain runs where the store is read (decoding-event-store.ts), so every reader sees
 * the current shape (contracts/domain-events.ts `EVENT_VERSIONS`).
 */
import { EVENT_VERSIONS } from '../../contracts/domain-events';
import { BOOKING_UPCASTERS } from './booking-upcasters';
import type { RecordedEvent } from './event-store.port';

export interface Upcaster {
  type: string;
  /** The version this upcaster reads; it produces `from + 1`. */
  from: number;
  up(data: Record<string, unknown>): Record<string, unknown>;
}

/**
 * event.* v1 -> v2: events recorded before the planner's links existed read as unlinked. (Object.assign: a spread
 * that adds fields costs several times more here, and exports upcast every v1 event of the log.)
 */
const linkedToPlanner = (data: Record<string, unknown>) =>
  Object.assign({}, data, { taskId: data.taskId ?? null, goalId: data.goalId ?? null });

/** event.* v2 -> v3: events recorded before reminders and exceptions existed have none. */
const withoutExceptions = (data: Record<string, unknown>) =>
  Object.assign({}, data, { reminders: data.reminders ?? [], exceptions: data.exceptions ?? [] });

/** event.* v3 -> v4 (event.occurrence.* v1 -> v2, in their series and occurrence): made here, no iCalendar identity. */
const withoutIcalIdentity = (data: Record<string, unknown>) =>
  Object.assign({}, data, { icalUid: data.icalUid ?? null, icalRecurrenceId: data.icalRecurrenceId ?? null });
const occurrenceWithoutIcalIdentity = (data: Record<string, unknown>) => {
  const inner = (value: unknown) => (value !== null && typeof value === 'object' ? withoutIcalIdentity(value as Record<string, unknown>) : value);
  return Object.assign({}, data, { series: inner(data.series), occurrence: inner(data.occurrence) });
};

export const UPCASTERS: readonly Upcaster[] = [
  ...['event.created', 'event.updated', 'event.cancelled'].flatMap((type) => [
    { type, from: 1, up: linkedToPlanner },
    { type, from: 2, up: withoutExceptions },
    { type, from: 3, up: withoutIcalIdentity },
  ]),
  ...['event.occurrence.changed', 'event.occurrence.cancelled'].map((type) => ({ type, from: 1, up: occurrenceWithoutIcalIdentity })),
  ...BOOKING_UPCASTERS,
];

export class Upcasters {
  private readonly steps = new Map<string, Upcaster['up']>();

  /** Refuses a registry with a gap: every version below a type's current one needs its upcaster. */
  constructor(
    upcasters: readonly Upcaster[],
    private readonly versions: Readonly<Record<string, number | undefined>> = EVENT_VERSIONS,
  ) {
    for (const u of upcasters) {
      const key = `${u.type}@${u.from}`;
      if (this.steps.has(key)) throw new Error(`two upcasters for ${key}`);
      this.steps.set(key, u.up);
    }
    for (const [type, version] of Object.entries(versions)) {
      for (let v = 1; v < (version ?? 1); v++) {
        if (!this.steps.has(`${type}@${v}`)) throw new Error(`${type} is at version ${version} but has no upcaster from ${v}`);
      }
    }
  }

  /**
   * The event in its type's current shape. Data that is not an object (or already current, or written by newer
   * code) passes unchanged.
   */
  upcast(event: RecordedEvent): RecordedEvent {
    const target = this.versions[event.type] ?? 1;
    let version = event.metadata.schemaVersion ?? 1;
    if (version >= target || event.data === null || typeof event.data !== 'object') return event;
    let data = event.data as Record<string, unknown>;
    for (; version < target; version++) data = this.steps.get(`${event.type}@${version}`)!(data);
    return { ...event, data, metadata: { ...event.metadata, schemaVersion: version } };
  }
}
