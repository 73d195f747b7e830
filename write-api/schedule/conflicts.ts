import type { Event } from '../../contracts/events';
import { occurrences, type Interval } from '../../services/time/recurrence';

/** Recurring events are checked occurrence by occurrence over this horizon (addendum: the next 366 days). */
export const HORIZON_MS = 366 * 86_400_000;

export interface Conflict {
  id: string;
  startsAt: string;
  endsAt: string;
}

export interface Conflicts {
  time: Conflict[];
  resource: Conflict[];
}

const bounds = new WeakMap<Event, Interval>();

/** Start and end of a single event, parsed once per event object. */
function boundsOf(event: Event): Interval {
  let b = bounds.get(event);
  if (!b) bounds.set(event, (b = { start: Date.parse(event.startsAt), end: Date.parse(event.endsAt) }));
  return b;
}

function overlapsAny(a: Interval[], b: Interval[]): Interval | null {
  let i = 0;
  let j = 0;
  while (i < a.length && j < b.length) {
    if (a[i].start < b[j].end && b[j].start < a[i].end) return b[j];
    if (a[i].end <= b[j].end) i++;
    else j++;
  }
  return null;
}

/**
 * Time conflict: a busy event overlapping another busy event of the same calendar, unless the candidate allows
 * overlap. Resource conflict: overlapping events of the Space that hold a common resource, whatever allowOverlap says.
 */
export function findConflicts(candidate: Event, others: Iterable<Event>, now: number): Conflicts {
  const window = candidate.recurrenceRule
    ? { from: now, to: now + HORIZON_MS }
    : { from: Date.parse(candidate.startsAt), to: Date.parse(candidate.endsAt) };
  const mine = occurrences(candidate, window.from, window.to);
  const result: Conflicts = { time: [], resource: [] };
  if (mine.length === 0) return result;
  const span = { from: mine[0].start, to: Math.max(...mine.map((m) => m.end)) };
  const resources = new Set(candidate.resources);
  for (const other of others) {
    if (other.id === candidate.id || other.status === 'cancelled') continue;
    const timeRule =
      candidate.busy && other.busy && !candidate.allowOverlap && other.calendarId === candidate.calendarId;
    const resourceRule = other.resources.some((r) => resources.has(r));
    if (!timeRule && !resourceRule) continue;
    if (!other.recurrenceRule) {
      const b = boundsOf(other);
      if (b.end <= span.from || b.start >= span.to) continue;
    }
    const hit = overlapsAny(mine, occurrences(other, span.from, span.to));
    if (!hit) continue;
    const conflict = { id: other.id, startsAt: new Date(hit.start).toISOString(), endsAt: new Date(hit.end).toISOString() };
    if (resourceRule) result.resource.push(conflict);
    if (timeRule) result.time.push(conflict);
  }
  return result;
}
