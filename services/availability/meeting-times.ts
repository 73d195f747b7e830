/**
 * Meeting times for several people: candidate starts a step apart, each scored by how many attendees are free for
 * the whole meeting, best first (most free, then earliest). Pure; each attendee comes as the engine's answers for
 * them: their working hours in the range and their free windows (inside those hours, outside busy time). Work is
 * bounded by (range / step) x attendees, each attendee's windows walked once.
 */
import type { Interval } from './types';

/** An attendee as the engine sees them; null windows: their calendars are unknown to the caller (never free). */
export interface AttendeeWindows {
  /** Their working hours inside the range, sorted and merged. */
  hours: readonly Interval[] | null;
  /** Their free time: inside working hours and outside busy time, sorted and merged. */
  free: readonly Interval[] | null;
}

export interface MeetingTimesInput {
  range: Interval;
  durationMs: number;
  stepMs: number;
  now: number;
  /** 0-100: the least share of attendees free for a time to count (at least one in any case). */
  minimumPercentage: number;
  attendees: readonly AttendeeWindows[];
  max: number;
}

export interface MeetingTime extends Interval {
  /** Percent of the attendees free, two decimals. */
  confidence: number;
  /** Per attendee, in the input's order. */
  free: boolean[];
}

export type NoMeetingTime = 'range_too_short' | 'range_in_past' | 'attendees_not_shared' | 'outside_working_hours' | 'attendees_unavailable';

/** Asks whether a window of the sorted `windows` holds [start, end), for ranges asked in increasing order. */
function cursorOver(windows: readonly Interval[] | null) {
  let i = 0;
  return (start: number, end: number): boolean => {
    if (!windows) return false;
    while (i < windows.length && windows[i].end < end) i++;
    return i < windows.length && windows[i].start <= start;
  };
}

const alignUp = (ms: number, step: number) => Math.ceil(ms / step) * step;

export function meetingTimes(input: MeetingTimesInput): { times: MeetingTime[]; reason: NoMeetingTime | null } {
  const { range, durationMs, stepMs, attendees } = input;
  const none = (reason: NoMeetingTime) => ({ times: [], reason });
  const last = range.end - durationMs;
  if (alignUp(range.start, stepMs) > last) return none('range_too_short');
  const first = alignUp(Math.max(range.start, input.now), stepMs);
  if (first > last) return none('range_in_past');
  const needed = Math.max(1, Math.ceil((input.minimumPercentage / 100) * attendees.length - 1e-9));
  if (attendees.filter((a) => a.free !== null).length < needed) return none('attendees_not_shared');

  const inHours = attendees.map((a) => cursorOver(a.hours));
  const isFree = attendees.map((a) => cursorOver(a.free));
  // Candidates grouped by how many attendees are free, each group in time order: best first without a sort.
  const byCount: MeetingTime[][] = attendees.map((): MeetingTime[] => []);
  let mostWorking = 0;
  for (let start = first; start <= last; start += stepMs) {
    const end = start + durationMs;
    let working = 0;
    for (const check of inHours) if (check(start, end)) working++;
    mostWorking = Math.max(mostWorking, working);
    if (working < needed) continue;
    const free = isFree.map((check) => check(start, end));
    const count = free.filter(Boolean).length;
    if (count < needed || byCount[count - 1].length >= input.max) continue;
    byCount[count - 1].push({ start, end, free, confidence: Math.round((count / attendees.length) * 10_000) / 100 });
  }
  const times = byCount.reverse().flat().slice(0, input.max);
  if (times.length) return { times, reason: null };
  return none(mostWorking < needed ? 'outside_working_hours' : 'attendees_unavailable');
}
