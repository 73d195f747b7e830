/** The three availability answers, gathered through the sources port and computed by the engine. */
import type { z } from 'zod';
import { AVAILABILITY_LIMITS, type AvailabilityQuery, type AvailableSlotsQuery, type FreeBusyQuery } from '../../contracts/availability';
import { availabilityOf, inputWindow, type Availability } from '../../services/availability/engine';
import { clip, overlaps } from '../../services/availability/intervals';
import { localDate, localDays, MINUTE_MS, type LocalDay } from '../../services/time/local-time';
import { rankFree } from '../../services/availability/ranking';
import { busyWindows, freeWindows, timeline } from '../../services/availability/timeline';
import type { Interval, Occurrence, RoutineBlock, Rules } from '../../services/availability/types';
import { notFound } from '../../services/errors';
import { isoOf as iso } from '../../services/time/iso';
import type { AvailabilitySources, Owner } from './sources';

const spanOf = (i: Interval) => ({ startsAt: iso(i.start), endsAt: iso(i.end) });
const minutesOf = (i: Interval) => Math.floor((i.end - i.start) / MINUTE_MS);

async function ownerOf(sources: AvailabilitySources, userId: string): Promise<Owner> {
  const owner = await sources.owner(userId);
  if (!owner) throw notFound('User');
  return owner;
}

/** Reads what the engine needs for `range` and runs it. */
export async function computeFor(sources: AvailabilitySources, userId: string, owner: Owner, range: Interval, rules: Rules): Promise<Availability> {
  const window = inputWindow(range, rules);
  const [events, routines] = await Promise.all([sources.events(userId, window), sources.routines(userId, window)]);
  return availabilityOf({ range, timeZone: owner.timeZone, events, routines, rules });
}

/** The person's own rules: their working hours, no buffers, nothing before now. */
const ownRules = (owner: Owner, now: number): Rules => ({
  workingHours: owner.workingHours, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minimumNoticeMinutes: 0, now,
});

function daysFrom(owner: Owner, from: string | undefined, count: number, now: number): { days: LocalDay[]; range: Interval } {
  const days = localDays(from ?? localDate(now, owner.timeZone), count, owner.timeZone);
  return { days, range: { start: days[0].start, end: days[days.length - 1].end } };
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

export async function availabilityDays(sources: AvailabilitySources, userId: string, query: z.infer<typeof AvailabilityQuery>, now: number) {
  const owner = await ownerOf(sources, userId);
  const purpose = query.purpose ?? 'meeting';
  const { days, range } = daysFrom(owner, query.from, query.days ?? AVAILABILITY_LIMITS.availabilityDays.default, now);
  const found = await computeFor(sources, userId, owner, range, ownRules(owner, now));
  const stretches = timeline(range, found.blocked);
  return {
    timeZone: owner.timeZone,
    purpose,
    preferred: query.preferred ?? null,
    workingHours: owner.workingHours,
    days: days.map((day) => {
      const onDay = <T extends Interval>(items: readonly T[]) => items.filter((i) => overlaps(i, day));
      const pieces = stretches.map((s) => clip(s, day)).filter((s) => s !== null);
      const free = rankFree(pieces.filter((s) => s.reasons.length === 0), { purpose, preferred: query.preferred, timeZone: owner.timeZone });
      return {
        date: day.date,
        ...spanOf(day),
        events: onDay(found.occurrences).map(eventView),
        routinePeriods: onDay(found.routines).map(routineView),
        protectedTime: onDay(found.occurrences)
          .filter((o) => o.event.busy && o.event.kind === 'focus')
          .map((o) => ({ eventId: o.event.id, title: o.event.title ?? '', ...spanOf(o) })),
        free: free.map(({ start, end, ...rest }) => ({ ...spanOf({ start, end }), ...rest })),
        blocked: pieces.filter((s) => s.reasons.length > 0).map((s) => ({ ...spanOf(s), reasons: s.reasons })),
      };
    }),
  };
}

export async function availableSlots(sources: AvailabilitySources, userId: string, query: z.infer<typeof AvailableSlotsQuery>, now: number) {
  const owner = await ownerOf(sources, userId);
  const { range } = daysFrom(owner, query.from, query.days ?? AVAILABILITY_LIMITS.slotsDays.default, now);
  const minimumMinutes = query.minimumMinutes ?? AVAILABILITY_LIMITS.minimumMinutes.default;
  const { blocked } = await computeFor(sources, userId, owner, range, ownRules(owner, now));
  return {
    timeZone: owner.timeZone,
    ...spanOf(range),
    minimumMinutes,
    slots: freeWindows(range, blocked, minimumMinutes * MINUTE_MS).map((w) => ({ ...spanOf(w), minutes: minutesOf(w) })),
  };
}

export async function freeBusy(sources: AvailabilitySources, userId: string, query: z.infer<typeof FreeBusyQuery>, now: number) {
  const owner = await ownerOf(sources, userId);
  const range = { start: Date.parse(query.from), end: Date.parse(query.to) };
  const rules: Rules = { workingHours: null, bufferBeforeMinutes: 0, bufferAfterMinutes: 0, minimumNoticeMinutes: 0, now };
  const { busy } = await computeFor(sources, userId, owner, range, rules);
  return { from: iso(range.start), to: iso(range.end), busy: busyWindows(range, busy).map(spanOf) };
}
