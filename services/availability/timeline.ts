import { clip, complement, mergeIntervals } from './intervals';
import type { BlockReason, Blocked, Interval, Stretch } from './types';

const ORDER: Record<BlockReason['type'], number> = { event: 0, focus: 1, routine: 2, buffer: 3, notice: 4, outside_hours: 5 };

const keyOf = (r: BlockReason) => `${ORDER[r.type]}:${'eventId' in r ? r.eventId : ''}:${'periodId' in r ? r.periodId : ''}`;

/** What is busy of itself (events, focus time, fixed routine periods), as against what the rules add around it. */
const isBusy = (r: BlockReason) => r.type === 'event' || r.type === 'focus' || r.type === 'routine';

/**
 * Busy blocks that overlap or touch joined into runs: each block stretched to its run, so the run is one stretch
 * naming everything busy in it. Without this, overlapping series would cut a day into a stretch at every start and
 * end, each naming every series under it: 22 hourly series staggered by two minutes made 10,000 stretches and
 * 8 MB of reasons over 14 days.
 */
function busyRuns(blocked: readonly Blocked[]): Blocked[] {
  const busy = blocked.filter((b) => isBusy(b.reason) && b.end > b.start).sort((a, b) => a.start - b.start);
  const out: Blocked[] = blocked.filter((b) => !isBusy(b.reason));
  for (let i = 0; i < busy.length; ) {
    let end = busy[i].end;
    let j = i + 1;
    for (; j < busy.length && busy[j].start <= end; j++) end = Math.max(end, busy[j].end);
    for (let k = i; k < j; k++) out.push({ ...busy[k], start: busy[i].start, end });
    i = j;
  }
  return out;
}

/**
 * `range` cut into consecutive stretches, each free (no reasons) or blocked for every reason that covers all of it,
 * where busy time that overlaps or touches counts as one run (`busyRuns`): back-to-back occurrences of one series, or
 * overlapping meetings, make one stretch naming them all. Rules (buffers, notice, working hours) cut it further.
 */
export function timeline(range: Interval, blocked: readonly Blocked[]): Stretch[] {
  const edges: Array<{ at: number; delta: 1 | -1; key: string; reason: BlockReason }> = [];
  for (const b of busyRuns(blocked)) {
    const piece = clip(b, range);
    if (!piece || piece.end === piece.start) continue;
    const key = keyOf(b.reason);
    edges.push({ at: piece.start, delta: 1, key, reason: b.reason }, { at: piece.end, delta: -1, key, reason: b.reason });
  }
  edges.sort((a, b) => a.at - b.at);
  const active = new Map<string, { reason: BlockReason; count: number }>();
  const out: Array<Stretch & { key: string }> = [];
  const emit = (start: number, end: number) => {
    if (end <= start) return;
    const keys = [...active.keys()].sort();
    const key = keys.join('|');
    const last = out[out.length - 1];
    if (last && last.key === key && last.end === start) last.end = end;
    else out.push({ start, end, key, reasons: keys.map((k) => active.get(k)!.reason) });
  };
  let cursor = range.start;
  for (let i = 0; i < edges.length; ) {
    const at = edges[i].at;
    emit(cursor, at);
    for (; i < edges.length && edges[i].at === at; i++) {
      const { key, delta, reason } = edges[i];
      const count = (active.get(key)?.count ?? 0) + delta;
      if (count === 0) active.delete(key);
      else active.set(key, { reason, count });
    }
    cursor = at;
  }
  emit(cursor, range.end);
  return out.map(({ key: _key, ...stretch }) => stretch);
}

/** The free parts of `range` at least `minimumMs` long, sorted. */
export function freeWindows(range: Interval, blocked: readonly Blocked[], minimumMs = 0): Interval[] {
  return complement(range, mergeIntervals(blocked)).filter((w) => w.end - w.start >= Math.max(minimumMs, 1));
}

/** The blocked parts of `range`, merged, without reasons (what free/busy shows an integrator). */
export function busyWindows(range: Interval, blocked: readonly Blocked[]): Interval[] {
  return mergeIntervals(blocked.map((b) => clip(b, range)).filter((b): b is Blocked => b !== null));
}
