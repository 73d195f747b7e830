/**
 * A series with its exceptions (RFC 5545 EXDATE and RECURRENCE-ID overrides): the rule's starts, less the cancelled
 * and changed originals, merged with the changed occurrences at their real times, in order of real start. What the
 * merge needs is prepared once per exception list (read stores hand out the same frozen document until it changes),
 * so a window of a series with many exceptions costs a set lookup per start and a binary search.
 */
import { type Recurring, seriesOf, startsOf } from './series';

/** What the expansion reads of an exception (contracts/events.ts `OccurrenceException` fits). */
export interface ExceptionLike {
  /** The start the rule gives the occurrence: its identity. */
  occurrenceStartsAt: string;
  cancelled?: boolean;
  /** A moved occurrence has both. */
  startsAt?: string;
  endsAt?: string;
}

export interface WithExceptions<X extends ExceptionLike = ExceptionLike> extends Recurring {
  exceptions?: readonly X[];
}

/** One occurrence: where it is, the start the rule gave it, and its exception when it differs from the series. */
export interface Instance<X extends ExceptionLike = ExceptionLike> {
  start: number;
  end: number;
  original: number;
  change: X | null;
}

interface Prepared {
  duration: number;
  /** Originals the rule's starts must skip: cancelled and changed ones. */
  skipped: Set<number>;
  /** Changed occurrences at their real times, by start then original. */
  placed: Instance[];
  longest: number;
}

const prepared = new WeakMap<readonly ExceptionLike[], Prepared>();

function prepare(list: readonly ExceptionLike[], duration: number): Prepared {
  const known = prepared.get(list);
  if (known && known.duration === duration) return known;
  const skipped = new Set<number>();
  const placed: Instance[] = [];
  for (const x of list) {
    const original = Date.parse(x.occurrenceStartsAt);
    skipped.add(original);
    if (x.cancelled) continue;
    const start = x.startsAt === undefined ? original : Date.parse(x.startsAt);
    const end = x.endsAt === undefined ? start + duration : Date.parse(x.endsAt);
    placed.push({ start, end, original, change: x });
  }
  placed.sort((a, b) => a.start - b.start || a.original - b.original);
  const p = { duration, skipped, placed, longest: placed.reduce((n, i) => Math.max(n, i.end - i.start), 0) };
  prepared.set(list, p);
  return p;
}

const exceptionsOf = <X extends ExceptionLike>(ev: WithExceptions<X>): readonly X[] =>
  ev.recurrenceRule && ev.exceptions?.length ? ev.exceptions : [];

/** The rule's starts (or the single event's) overlapping [from, to), ascending; a refused stored rule: its first only. */
export function* ruleStarts(ev: Recurring, from: number, to: number): Generator<number> {
  const start = Date.parse(ev.startsAt);
  const duration = Date.parse(ev.endsAt) - start;
  const c = seriesOf(ev);
  if (c && 'series' in c) return yield* startsOf(c.series, from - duration + 1, to);
  if (start < to && start + duration > from) yield start;
}

/**
 * Occurrences overlapping [from, to) that start at `minStart` or later, exceptions applied, ordered by real start
 * and then original start (several may share a start once one is moved).
 */
export function* instancesOf<X extends ExceptionLike>(
  ev: WithExceptions<X>, from: number, to: number, minStart = Number.NEGATIVE_INFINITY,
): Generator<Instance<X>> {
  const duration = Date.parse(ev.endsAt) - Date.parse(ev.startsAt);
  const starts = ruleStarts(ev, Math.max(from, minStart + duration - 1), to);
  const list = exceptionsOf(ev);
  if (list.length === 0) {
    for (const start of starts) yield { start, end: start + duration, original: start, change: null };
    return;
  }
  const p = prepare(list, duration);
  const placed = p.placed as Instance<X>[];
  let i = firstStartingAfter(placed, Math.max(from - p.longest, minStart - 1));
  const nextPlaced = () => {
    while (i < placed.length && placed[i].start < to && placed[i].end <= from) i++;
    return i < placed.length && placed[i].start < to ? placed[i] : null;
  };
  for (const start of starts) {
    if (p.skipped.has(start)) continue;
    for (let x = nextPlaced(); x && (x.start < start || (x.start === start && x.original < start)); x = nextPlaced()) {
      yield x;
      i++;
    }
    yield { start, end: start + duration, original: start, change: null };
  }
  for (let x = nextPlaced(); x; x = nextPlaced()) {
    yield x;
    i++;
  }
}

function firstStartingAfter(sorted: readonly Instance[], after: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (sorted[mid].start <= after) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The earliest start and latest end changed occurrences reach (the series' own span when none moved). */
export function movedSpan(ev: WithExceptions, ruleStart: number, ruleEnd: number): { start: number; end: number } {
  const list = exceptionsOf(ev);
  if (list.length === 0) return { start: ruleStart, end: ruleEnd };
  const { placed } = prepare(list, Date.parse(ev.endsAt) - Date.parse(ev.startsAt));
  const end = placed.reduce((n, x) => Math.max(n, x.end), ruleEnd);
  return { start: Math.min(ruleStart, placed[0]?.start ?? ruleStart), end };
}

/**
 * Which of `starts` the rule produces. A COUNT series is enumerated once (at most RECURRENCE_LIMITS.maxCount starts);
 * any other looks up each start in its own period.
 */
export function producedStarts(ev: Recurring, starts: readonly number[]): Set<number> {
  const c = seriesOf(ev);
  if (!c || 'problem' in c) return new Set(starts.filter((s) => s === Date.parse(ev.startsAt)));
  const s = c.series;
  if (s.rule.count !== null) {
    const all = new Set(startsOf(s, s.startMs, Number.POSITIVE_INFINITY));
    return new Set(starts.filter((x) => all.has(x)));
  }
  return new Set(starts.filter((x) => !startsOf(s, x, x + 1).next().done));
}

/** The event as one of its occurrences shows it: the exception's own fields over the series' (times aside). */
export function asOccurrence<E extends object>(event: E, o: Instance): E {
  if (!o.change) return event;
  const { occurrenceStartsAt: _original, cancelled: _cancelled, startsAt: _start, endsAt: _end, ...own } = o.change;
  return { ...event, ...own };
}
