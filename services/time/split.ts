/**
 * "This and following": a series' rule cut at one of its starts. The part before ends with UNTIL just before the cut
 * (in UTC, as RFC 5545 asks of a zoned DTSTART, so DST cannot shift it); the part from the cut on keeps the old
 * end: its UNTIL, or what its COUNT had left.
 */
import { type Recurring, seriesOf, startsOf } from './series';

const untilText = (ms: number) => new Date(Math.floor(ms / 1000) * 1000).toISOString().replace(/[-:]|\.\d{3}/g, '');

/** The rule text of each part; `at` must be a start of the series after its first. */
export function splitRule(ev: Recurring & { recurrenceRule: string }, at: number): { before: string; after: string } {
  const parts = ev.recurrenceRule.trim().replace(/^RRULE:/i, '').split(';').filter((p) => p !== '');
  const kept = parts.filter((p) => !/^(COUNT|UNTIL)=/i.test(p));
  const before = [...kept, `UNTIL=${untilText(at - 1)}`].join(';');
  const c = seriesOf(ev);
  if (!c || !('series' in c) || c.series.rule.count === null) return { before, after: parts.join(';') };
  const starts = startsOf(c.series, c.series.startMs, at);
  let done = 0;
  while (!starts.next().done) done++;
  return { before, after: [...kept, `COUNT=${c.series.rule.count - done}`].join(';') };
}
