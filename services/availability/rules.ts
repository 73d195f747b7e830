import { complement } from './intervals';
import { MINUTE_MS } from '../time/local-time';
import type { Blocked, Interval, Rules } from './types';
import { localHoursIn } from './weekly-hours';

/** What the rules add to busy time inside `range`: outside working hours, buffers around busy time, notice. */
export function ruleBlocks(range: Interval, busy: readonly Blocked[], rules: Rules, timeZone: string): Blocked[] {
  const out: Blocked[] = [];
  if (rules.workingHours) {
    for (const gap of complement(range, localHoursIn(range, rules.workingHours, timeZone))) {
      out.push({ ...gap, reason: { type: 'outside_hours' } });
    }
  }
  const before = rules.bufferBeforeMinutes * MINUTE_MS;
  const after = rules.bufferAfterMinutes * MINUTE_MS;
  for (const b of before || after ? busy : []) {
    const source = 'periodId' in b.reason ? { periodId: b.reason.periodId } : 'eventId' in b.reason ? { eventId: b.reason.eventId } : {};
    if (before) out.push({ start: b.start - before, end: b.start, reason: { type: 'buffer', ...source } });
    if (after) out.push({ start: b.end, end: b.end + after, reason: { type: 'buffer', ...source } });
  }
  const noticeEnd = rules.now + rules.minimumNoticeMinutes * MINUTE_MS;
  if (noticeEnd > range.start) out.push({ start: range.start, end: Math.min(noticeEnd, range.end), reason: { type: 'notice' } });
  return out;
}
