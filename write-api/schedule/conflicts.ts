import type { Event, OccurrenceException } from '../../contracts/events';
import { occurrences, type Instance, type Interval } from '../../services/time/recurrence';

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

interface Entry extends Interval {
  event: Event;
}

/**
 * The live (not cancelled) events of a schedule, arranged for conflict checks: single events sorted by start, so
 * that only neighbours of a time span are looked at, and recurring series apart (each is expanded when checked).
 */
export class ScheduleIndex {
  private readonly singles: Entry[] = [];
  private readonly series = new Map<string, Event>();
  private readonly byId = new Map<string, Entry>();
  private longest = 0;

  put(event: Event): void {
    this.remove(event.id);
    if (event.status === 'cancelled') return;
    if (event.recurrenceRule) return void this.series.set(event.id, event);
    const entry = { start: Date.parse(event.startsAt), end: Date.parse(event.endsAt), event };
    this.singles.splice(this.firstAtOrAfter(entry.start), 0, entry);
    this.byId.set(event.id, entry);
    this.longest = Math.max(this.longest, entry.end - entry.start);
  }

  /** Events that may overlap [from, to): single events that do, and every recurring series. */
  *near(from: number, to: number): Iterable<Event> {
    for (let i = this.firstAtOrAfter(from - this.longest); i < this.singles.length && this.singles[i].start < to; i++) {
      if (this.singles[i].end > from) yield this.singles[i].event;
    }
    yield* this.series.values();
  }

  private remove(id: string): void {
    this.series.delete(id);
    const entry = this.byId.get(id);
    if (!entry) return;
    this.byId.delete(id);
    for (let i = this.firstAtOrAfter(entry.start); i < this.singles.length; i++) {
      if (this.singles[i] === entry) return void this.singles.splice(i, 1);
    }
  }

  private firstAtOrAfter(start: number): number {
    let lo = 0;
    let hi = this.singles.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.singles[mid].start < start) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
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

/** Is this occurrence busy: its own `busy` when it was changed, else the series'. */
export const isBusy = (event: Event, o: Instance<OccurrenceException>) => o.change?.busy ?? event.busy;

/**
 * Time conflict: a busy occurrence overlapping a busy occurrence of another event of the same calendar (of any
 * calendar of the Space for `scope: 'space'`), unless the candidate allows overlap. Resource conflict: overlapping
 * occurrences of events of the Space that hold a common resource, whatever allowOverlap says. Series are expanded
 * with their exceptions: a cancelled occurrence holds nothing, a moved one its new time. `replacing` stands in for
 * stored events the same command changes (a split's shortened series).
 */
export function findConflicts(
  candidate: Event, index: ScheduleIndex, now: number, scope: 'calendar' | 'space' = 'calendar',
  replacing: ReadonlyMap<string, Event> = new Map(),
): Conflicts {
  const window = candidate.recurrenceRule
    ? { from: now, to: now + HORIZON_MS }
    : { from: Date.parse(candidate.startsAt), to: Date.parse(candidate.endsAt) };
  const mine = occurrences(candidate, window.from, window.to);
  const result: Conflicts = { time: [], resource: [] };
  if (mine.length === 0) return result;
  const mineBusy = mine.filter((o) => isBusy(candidate, o));
  // reduce, not Math.max(...): a long event repeating often has more occurrences than the call stack holds arguments.
  const span = { from: mine[0].start, to: mine.reduce((end, m) => Math.max(end, m.end), -Infinity) };
  const resources = new Set(candidate.resources);
  for (const stored of index.near(span.from, span.to)) {
    const other = replacing.get(stored.id) ?? stored;
    if (other.id === candidate.id) continue;
    const timeRule = !candidate.allowOverlap && (scope === 'space' || other.calendarId === candidate.calendarId);
    const resourceRule = other.resources.some((r) => resources.has(r));
    if ((!timeRule || mineBusy.length === 0) && !resourceRule) continue;
    const theirs = occurrences(other, span.from, span.to);
    const timeHit = timeRule ? overlapsAny(mineBusy, theirs.filter((o) => isBusy(other, o))) : null;
    const resourceHit = resourceRule ? overlapsAny(mine, theirs) : null;
    const at = (hit: Interval) => ({ id: other.id, startsAt: new Date(hit.start).toISOString(), endsAt: new Date(hit.end).toISOString() });
    if (resourceHit) result.resource.push(at(resourceHit));
    if (timeHit) result.time.push(at(timeHit));
  }
  return result;
}
