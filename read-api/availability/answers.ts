/**
 * The availability answers as pure functions of what the engine reads (no I/O), so that a large one can be worked out
 * on another thread (answer-threads.ts) while the request's thread goes on serving others. Each answer says first the
 * window its inputs must cover (`windowOf`), then builds its body from them (`answerOf`).
 */
import type { z } from 'zod';
import { AVAILABILITY_LIMITS, type AvailabilityQuery, type AvailableSlotsQuery, type FreeBusyQuery } from '../../contracts/availability';
import { availabilityOf, inputWindow } from '../../services/availability/engine';
import { clip } from '../../services/availability/intervals';
import { rankFree } from '../../services/availability/ranking';
import { busyWindows, freeWindows, timeline } from '../../services/availability/timeline';
import type { CalendarEvents, Interval, Occurrence, RoutineBlock, Rules, WeeklyHours } from '../../services/availability/types';
import { isoOf as iso } from '../../services/time/iso';
import { localDate, localDays, MINUTE_MS, type LocalDay } from '../../services/time/local-time';
import { conflictsRange, routineConflicts } from '../routines/conflicts';
import type { RoutineDayEntry } from '../routines/instances';

/** The person whose time it is: their zone and working hours. */
export interface Owner {
  timeZone: string;
  workingHours: WeeklyHours;
}

/** What an answer is worked out from, read for its window. */
export interface EngineInputs {
  owner: Owner;
  events: CalendarEvents;
  routines: readonly RoutineBlock[];
}

export type AnswerRequest =
  | { kind: 'availability'; query: z.infer<typeof AvailabilityQuery>; now: number }
  | { kind: 'slots'; query: z.infer<typeof AvailableSlotsQuery>; now: number }
  | { kind: 'free-busy'; query: z.infer<typeof FreeBusyQuery>; now: number }
  /** With the routine periods of those days (the routines slice reads them). */
  | { kind: 'routine-conflicts'; query: { from: string; days: number }; now: number; entries: RoutineDayEntry[] };

export const spanOf = (i: Interval) => ({ startsAt: iso(i.start), endsAt: iso(i.end) });
const minutesOf = (i: Interval) => Math.floor((i.end - i.start) / MINUTE_MS);

/** The person's own rules: their working hours, no buffers, nothing before now. */
export const ownRules = (owner: Owner, now: number): Rules => ({
  workingHours: owner.workingHours, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minimumNoticeMinutes: 0, now,
});
const anyTime = (now: number): Rules => ({ workingHours: null, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minimumNoticeMinutes: 0, now });

function daysFrom(owner: Owner, from: string | undefined, count: number, now: number): { days: LocalDay[]; range: Interval } {
  const days = localDays(from ?? localDate(now, owner.timeZone), count, owner.timeZone);
  return { days, range: { start: days[0].start, end: days[days.length - 1].end } };
}

/** The days (for a day view), range and rules of a request. */
function planOf(req: AnswerRequest, owner: Owner): { days: LocalDay[]; range: Interval; rules: Rules } {
  switch (req.kind) {
    case 'availability':
      return { ...daysFrom(owner, req.query.from, req.query.days ?? AVAILABILITY_LIMITS.availabilityDays.default, req.now), rules: ownRules(owner, req.now) };
    case 'slots':
      return { ...daysFrom(owner, req.query.from, req.query.days ?? AVAILABILITY_LIMITS.slotsDays.default, req.now), rules: ownRules(owner, req.now) };
    case 'free-busy':
      return { days: [], range: { start: Date.parse(req.query.from), end: Date.parse(req.query.to) }, rules: anyTime(req.now) };
    case 'routine-conflicts':
      // A period moves within its window at any time of day: working hours are for others' bookings.
      return { days: [], range: conflictsRange(req.query.from, req.query.days, owner.timeZone), rules: anyTime(req.now) };
  }
}

/** The span the inputs of `req` must cover. */
export function windowOf(req: AnswerRequest, owner: Owner): Interval {
  const { range, rules } = planOf(req, owner);
  return inputWindow(range, rules);
}

const eventView = (o: Occurrence) => ({
  id: o.event.id, title: o.event.title ?? '', kind: o.event.kind, ...spanOf(o), allDay: o.event.allDay, busy: o.event.busy,
  seriesId: o.event.recurrenceRule ? o.event.id : null,
});

const routineView = (r: RoutineBlock) => ({
  routineId: r.routineId, periodId: r.periodId, name: r.name, ...spanOf(r), canMove: r.canMove,
  windowStartsAt: r.windowStart === null ? null : iso(r.windowStart),
  windowEndsAt: r.windowEnd === null ? null : iso(r.windowEnd),
  status: r.status,
  blocking: !r.canMove && r.status !== 'skipped',
});

/** Items sorted by start, each listed under every day it overlaps (days consecutive and sorted). */
function byDay<T extends Interval>(items: readonly T[], days: readonly LocalDay[]): T[][] {
  const out = days.map((): T[] => []);
  let first = 0;
  for (const item of items) {
    while (first < days.length && days[first].end <= item.start) first++;
    for (let d = first; d < days.length && days[d].start < item.end; d++) if (item.end > days[d].start) out[d].push(item);
  }
  return out;
}

function availabilityAnswer(req: Extract<AnswerRequest, { kind: 'availability' }>, inputs: EngineInputs) {
  const { owner } = inputs;
  const { days, range, rules } = planOf(req, owner);
  const purpose = req.query.purpose ?? 'meeting';
  const found = availabilityOf({ range, timeZone: owner.timeZone, events: inputs.events, routines: inputs.routines, rules });
  const occurrences = byDay(found.occurrences, days);
  const routines = byDay(found.routines, days);
  const stretches = byDay(timeline(range, found.blocked), days);
  return {
    timeZone: owner.timeZone,
    purpose,
    preferred: req.query.preferred ?? null,
    workingHours: owner.workingHours,
    days: days.map((day, d) => {
      const pieces = stretches[d].map((s) => clip(s, day)).filter((s) => s !== null);
      const free = rankFree(pieces.filter((s) => s.reasons.length === 0), { purpose, preferred: req.query.preferred, timeZone: owner.timeZone });
      return {
        date: day.date,
        ...spanOf(day),
        events: occurrences[d].map(eventView),
        routinePeriods: routines[d].map(routineView),
        protectedTime: occurrences[d]
          .filter((o) => o.event.busy && o.event.kind === 'focus')
          .map((o) => ({ eventId: o.event.id, title: o.event.title ?? '', ...spanOf(o) })),
        free: free.map(({ start, end, ...rest }) => ({ ...spanOf({ start, end }), ...rest })),
        blocked: pieces.filter((s) => s.reasons.length > 0).map((s) => ({ ...spanOf(s), reasons: s.reasons })),
      };
    }),
  };
}

function slotsAnswer(req: Extract<AnswerRequest, { kind: 'slots' }>, inputs: EngineInputs) {
  const { owner } = inputs;
  const { range, rules } = planOf(req, owner);
  const minimumMinutes = req.query.minimumMinutes ?? AVAILABILITY_LIMITS.minimumMinutes.default;
  const { blocked } = availabilityOf({ range, timeZone: owner.timeZone, events: inputs.events, routines: inputs.routines, rules });
  return {
    timeZone: owner.timeZone,
    ...spanOf(range),
    minimumMinutes,
    slots: freeWindows(range, blocked, minimumMinutes * MINUTE_MS).map((w) => ({ ...spanOf(w), minutes: minutesOf(w) })),
  };
}

/** Busy time in `range` (events, focus time, fixed routine periods), merged, as free/busy shows it. */
export function busyIntervalsOf(range: Interval, inputs: EngineInputs, now: number) {
  const { busy } = availabilityOf({ range, timeZone: inputs.owner.timeZone, events: inputs.events, routines: inputs.routines, rules: anyTime(now) });
  return busyWindows(range, busy).map(spanOf);
}

function freeBusyAnswer(req: Extract<AnswerRequest, { kind: 'free-busy' }>, inputs: EngineInputs) {
  const { range } = planOf(req, inputs.owner);
  return { from: iso(range.start), to: iso(range.end), busy: busyIntervalsOf(range, inputs, req.now) };
}

/** The answer's body. */
export function answerOf(req: AnswerRequest, inputs: EngineInputs): unknown {
  switch (req.kind) {
    case 'availability':
      return availabilityAnswer(req, inputs);
    case 'slots':
      return slotsAnswer(req, inputs);
    case 'free-busy':
      return freeBusyAnswer(req, inputs);
    case 'routine-conflicts': {
      const { timeZone } = inputs.owner;
      const { range, rules } = planOf(req, inputs.owner);
      const conflicts = routineConflicts(req.entries, inputs.events, inputs.routines, timeZone, range, rules);
      return { timeZone, from: req.query.from, days: req.query.days, conflicts };
    }
  }
}
