/**
 * POST /free-busy and POST /meeting-suggestions as pure functions of each person's engine inputs (no I/O), so that a
 * large answer can be worked out on an answer thread like the other availability answers.
 */
import { SCHEDULING_LIMITS, type FreeBusyBody, type MeetingSuggestionsBody } from '../../contracts/scheduling';
import { availabilityOf } from '../../services/availability/engine';
import { complement } from '../../services/availability/intervals';
import { meetingTimes, type AttendeeWindows } from '../../services/availability/meeting-times';
import { freeWindows } from '../../services/availability/timeline';
import type { Interval } from '../../services/availability/types';
import { localHoursIn } from '../../services/availability/weekly-hours';
import { isoOf } from '../../services/time/iso';
import { MINUTE_MS } from '../../services/time/local-time';
import { busyIntervalsOf, ownRules, spanOf, type EngineInputs, type Owner } from '../availability/answers';

export type SchedulingRequest =
  | { kind: 'free-busy-people'; body: FreeBusyBody; now: number }
  | { kind: 'meeting-suggestions'; body: MeetingSuggestionsBody; now: number };

/** One person of the request: who they are to the caller, and their inputs when they share something (else null). */
export interface PersonInputs {
  id: string | null;
  email: string | null;
  inputs: EngineInputs | null;
}

export interface PeopleInputs {
  people: PersonInputs[];
}

const rangeOf = (body: { from: string; to: string }): Interval => ({ start: Date.parse(body.from), end: Date.parse(body.to) });
const notShared = { error: 'not_shared' as const };

function freeBusyOfPeople(req: Extract<SchedulingRequest, { kind: 'free-busy-people' }>, { people }: PeopleInputs) {
  const range = rangeOf(req.body);
  return {
    from: isoOf(range.start),
    to: isoOf(range.end),
    people: people.map(({ id, email, inputs }) =>
      (inputs ? { id, email, busy: busyIntervalsOf(range, inputs, req.now) } : { id, email, busy: [], ...notShared })),
  };
}

/** Each person's working hours in the range, worked out once per zone and hours (colleagues often share both). */
function hoursOfOwners(range: Interval) {
  const known = new Map<string, Interval[]>();
  return (owner: Owner): Interval[] => {
    const key = `${owner.timeZone} ${JSON.stringify(owner.workingHours)}`;
    if (!known.has(key)) known.set(key, localHoursIn(range, owner.workingHours, owner.timeZone));
    return known.get(key)!;
  };
}

/** An attendee's working hours and free time over the range: the engine's busy time and what is past, outside their hours. */
function windowsOf(range: Interval, inputs: EngineInputs | null, now: number, hoursOf: (owner: Owner) => Interval[]): AttendeeWindows {
  if (!inputs) return { hours: null, free: null };
  const { owner } = inputs;
  const hours = hoursOf(owner);
  const rules = { ...ownRules(owner, now), workingHours: null };
  const { blocked } = availabilityOf({ range, timeZone: owner.timeZone, events: inputs.events, routines: inputs.routines, rules });
  const outside = complement(range, hours).map((i) => ({ ...i, reason: { type: 'outside_hours' as const } }));
  return { hours, free: freeWindows(range, [...blocked, ...outside]) };
}

function suggestionsFor(req: Extract<SchedulingRequest, { kind: 'meeting-suggestions' }>, { people }: PeopleInputs) {
  const range = rangeOf(req.body);
  const hours = hoursOfOwners(range);
  const { times, reason } = meetingTimes({
    range,
    durationMs: req.body.durationMinutes * MINUTE_MS,
    stepMs: SCHEDULING_LIMITS.stepMinutes * MINUTE_MS,
    now: req.now,
    minimumPercentage: req.body.minimumAttendeePercentage ?? 100,
    attendees: people.map((p) => windowsOf(range, p.inputs, req.now, hours)),
    max: SCHEDULING_LIMITS.suggestions,
  });
  return {
    suggestions: times.map((t) => ({
      ...spanOf(t),
      confidence: t.confidence,
      attendees: people.map(({ id, email, inputs }, i) => ({ id, email, free: t.free[i], ...(inputs ? {} : notShared) })),
    })),
    ...(reason ? { emptySuggestionsReason: reason } : {}),
  };
}

export function schedulingAnswerOf(req: SchedulingRequest, inputs: PeopleInputs): unknown {
  return req.kind === 'free-busy-people' ? freeBusyOfPeople(req, inputs) : suggestionsFor(req, inputs);
}
