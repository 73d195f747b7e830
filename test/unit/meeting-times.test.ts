/** Meeting times of several attendees (services/availability/meeting-times.ts): scoring, order, bounds, reasons. */
import { meetingTimes, type AttendeeWindows, type MeetingTimesInput } from '../../services/availability/meeting-times';

const H = 3_600_000;
const M = 60_000;
const DAY = Date.UTC(2031, 2, 3); // a Monday, 00:00Z
const at = (hours: number) => DAY + hours * H;
const span = (from: number, to: number) => ({ start: at(from), end: at(to) });

const nineToFive: AttendeeWindows = { hours: [span(9, 17)], free: [span(9, 17)] };
const busyAt = (from: number, to: number): AttendeeWindows => ({ hours: [span(9, 17)], free: [span(9, from), span(to, 17)] });
const unknown: AttendeeWindows = { hours: null, free: null };

const input = (attendees: AttendeeWindows[], over: Partial<MeetingTimesInput> = {}): MeetingTimesInput => ({
  range: span(0, 24), durationMs: 60 * M, stepMs: 15 * M, now: DAY - 7 * 24 * H, minimumPercentage: 100, attendees, max: 50, ...over,
});
const starts = (r: ReturnType<typeof meetingTimes>) => r.times.map((t) => (t.start - DAY) / H);

describe('meeting times', () => {
  it('every quarter hour where all are free, inside working hours, earliest first', () => {
    const r = meetingTimes(input([nineToFive, busyAt(10, 12)]));
    expect(r.reason).toBeNull();
    expect(starts(r)).toEqual([9, 12, 12.25, 12.5, 12.75, 13, 13.25, 13.5, 13.75, 14, 14.25, 14.5, 14.75, 15, 15.25, 15.5, 15.75, 16]);
    expect(r.times[0]).toEqual({ start: at(9), end: at(10), confidence: 100, free: [true, true] });
  });

  it('with a lower percentage: the most attendees free first, then earlier; a time needs one free at least', () => {
    const r = meetingTimes(input([nineToFive, busyAt(9, 12), busyAt(9, 10)], { minimumPercentage: 50 }));
    expect(r.times.slice(0, 3).map((t) => [(t.start - DAY) / H, t.confidence])).toEqual([[12, 100], [12.25, 100], [12.5, 100]]);
    const partial = r.times.filter((t) => t.confidence < 100);
    expect(partial.map((t) => (t.start - DAY) / H)).toEqual([10, 10.25, 10.5, 10.75, 11, 11.25, 11.5, 11.75]);
    expect(partial[0]).toMatchObject({ confidence: 66.67, free: [true, false, true] });
    expect(meetingTimes(input([busyAt(9, 17)], { minimumPercentage: 0 })).times).toEqual([]);
  });

  it('a meeting must fit in one stretch of working hours and free time', () => {
    const split: AttendeeWindows = { hours: [span(9, 12), span(13, 17)], free: [span(9, 12), span(13, 17)] };
    expect(starts(meetingTimes(input([split], { durationMs: 3 * H })))).toEqual([9, 13, 13.25, 13.5, 13.75, 14]);
  });

  it('no more than `max`, and nothing before now (starts on the quarter hour after it)', () => {
    expect(meetingTimes(input([nineToFive], { max: 3 })).times).toHaveLength(3);
    expect(starts(meetingTimes(input([nineToFive], { now: at(15) + 60_000 })))).toEqual([15.25, 15.5, 15.75, 16]);
  });

  it('says why there is nothing', () => {
    expect(meetingTimes(input([nineToFive], { range: span(9, 9.5) })).reason).toBe('range_too_short');
    expect(meetingTimes(input([nineToFive], { now: at(23.5) })).reason).toBe('range_in_past');
    expect(meetingTimes(input([nineToFive, unknown])).reason).toBe('attendees_not_shared');
    const night: AttendeeWindows = { hours: [span(20, 23)], free: [span(20, 23)] };
    expect(meetingTimes(input([nineToFive, night])).reason).toBe('outside_working_hours');
    expect(meetingTimes(input([nineToFive, busyAt(9, 17)])).reason).toBe('attendees_unavailable');
  });

  it('an attendee whose calendars are unknown is never free but does not block the others below 100 %', () => {
    const r = meetingTimes(input([nineToFive, unknown], { minimumPercentage: 50 }));
    expect(r.times[0]).toMatchObject({ start: at(9), confidence: 50, free: [true, false] });
  });

  it('stays bounded over 62 days and 50 attendees (every candidate checked, at most `max` kept)', () => {
    const days = 62;
    const everyone = Array.from({ length: 50 }, () => ({ hours: [span(0, days * 24)], free: [span(0, days * 24)] }));
    const r = meetingTimes(input(everyone, { range: span(0, days * 24) }));
    expect(r.times).toHaveLength(50);
    expect(r.times.every((t) => t.confidence === 100)).toBe(true);
  });
});
