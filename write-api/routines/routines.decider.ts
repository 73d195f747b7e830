/**
 * A person's routines: one stream per owner (`routines-<userId>`), so the per-person limit holds atomically and
 * a period or item id in a URL is found without a read model (someone else's is simply not in the stream: 404).
 * It also holds each period's state per date: status, that day's times, the items ticked.
 */
import type { DomainEvent } from '../../contracts/domain-events';
import {
  ROUTINE_LIMITS, type CreateRoutineBody, type PeriodDayBody, type Routine, type RoutinePeriod, type RoutinePeriodPatch,
  type UpdateRoutineBody,
} from '../../contracts/routines';
import type { Decider } from '../../services/commands/decider';
import { ApiError, conflict, invalid, notFound, versionMismatch } from '../../services/errors';
import { deterministicUuid } from '../../services/ids';
import { dayKey, emptyDay, occursOn, type RoutineDay } from '../../services/rules/routine-days';

interface Kept {
  routine: Routine;
  version: number;
  deleted: boolean;
}

export interface RoutinesState {
  routines: Map<string, Kept>;
  /** Live periods and items -> their routine (and period). */
  periods: Map<string, string>;
  items: Map<string, { routineId: string; periodId: string }>;
  /** `<periodId>|<date>` -> that day's state. */
  days: Map<string, RoutineDay>;
}

export type RoutineCommand =
  | { type: 'CreateRoutine'; routineId: string; ownerId: string; input: CreateRoutineBody; now: string }
  | { type: 'UpdateRoutine'; routineId: string; changes: UpdateRoutineBody; expectedVersions?: number[]; idSeed: string; now: string }
  | { type: 'DeleteRoutine'; routineId: string; expectedVersions?: number[]; now: string }
  | { type: 'SetPeriodDay'; periodId: string; date: string; day: PeriodDayBody }
  | { type: 'SetItemDay'; itemId: string; date: string; done: boolean };

type RoutineEvent = Extract<DomainEvent, { type: `routine.${string}` }>;

type PeriodSource = Omit<RoutinePeriodPatch, 'id' | 'items'> & { items?: Array<{ id?: string; title: string }> };

function toPeriod(id: string, p: PeriodSource, itemIds: Array<string | undefined>, idSeed: string, index: number): RoutinePeriod {
  return {
    id,
    name: p.name,
    startMinute: p.startMinute,
    endMinute: p.endMinute,
    items: (p.items ?? []).map((item, j) => ({ id: itemIds[j] ?? deterministicUuid(idSeed, 'item', String(index), String(j)), title: item.title })),
    windowStartMinute: p.windowStartMinute ?? null,
    windowEndMinute: p.windowEndMinute ?? null,
    priority: p.priority ?? 'normal',
    canMove: p.canMove ?? true,
  };
}

/**
 * Ids for a replacing list, in two passes so that a period named by `id` is never taken by another one matching
 * it by name and times. Items keep ids the same way: by `id` (an item of the same period), else by the same title.
 */
function replacePeriods(current: RoutinePeriod[], input: RoutinePeriodPatch[], idSeed: string): RoutinePeriod[] {
  const byId = new Map(current.map((p) => [p.id, p]));
  const taken = new Set(input.flatMap((p) => (p.id ? [p.id] : [])));
  input.forEach((p, i) => {
    if (p.id && !byId.has(p.id)) throw unknownId('A period id is not one of this routine', `body.periods.${i}.id`, 'not a period of this routine');
  });
  return input.map((p, i) => {
    let old = p.id ? byId.get(p.id) : undefined;
    if (!old) {
      old = current.find((c) => !taken.has(c.id) && c.name === p.name && c.startMinute === p.startMinute && c.endMinute === p.endMinute);
      if (old) taken.add(old.id);
    }
    return toPeriod(old?.id ?? deterministicUuid(idSeed, 'period', String(i)), p, keptItemIds(old, p, i), idSeed, i);
  });
}

/**
 * Ids that are well-formed but name nothing of this routine: the routine changed since the client read it (or never
 * had them), so it is a conflict with its current state (409 `unknown_id`), not malformed input.
 */
const unknownId = (message: string, path: string, issue: string) =>
  conflict('unknown_id', `${message}: read the routine again`, { issues: [{ path, message: issue }] });

function keptItemIds(old: RoutinePeriod | undefined, p: RoutinePeriodPatch, periodIndex: number): Array<string | undefined> {
  const items = p.items ?? [];
  const oldIds = new Set(old?.items.map((x) => x.id));
  const taken = new Set<string>();
  items.forEach((item, j) => {
    if (!item.id) return;
    const path = `body.periods.${periodIndex}.items.${j}.id`;
    if (!oldIds.has(item.id)) throw unknownId('An item id is not one of this period', path, 'not an item of this period');
    if (taken.has(item.id)) throw invalid('An item id is given twice', [{ path, message: 'given twice' }]);
    taken.add(item.id);
  });
  return items.map((item) => {
    if (item.id) return item.id;
    const same = old?.items.find((x) => !taken.has(x.id) && x.title === item.title);
    if (same) taken.add(same.id);
    return same?.id;
  });
}

function liveRoutine(state: RoutinesState, routineId: string): Kept {
  const kept = state.routines.get(routineId);
  if (!kept || kept.deleted) throw notFound('Routine');
  return kept;
}

function checkVersion(kept: Kept, allowed: number[] | undefined): void {
  if (allowed !== undefined && !allowed.includes(kept.version)) throw versionMismatch();
}

/** The routine and period an id names, if it occurs on that date; else 404. */
function occurrence(state: RoutinesState, periodId: string, date: string) {
  const routineId = state.periods.get(periodId);
  const routine = routineId ? state.routines.get(routineId)?.routine : undefined;
  const period = routine?.periods.find((p) => p.id === periodId);
  if (!routine || !period) throw notFound('Routine period');
  if (!occursOn(routine, date)) throw new ApiError(404, 'not_found', `The period does not occur on ${date}`);
  return { routine, period, day: state.days.get(dayKey(periodId, date)) ?? emptyDay() };
}

function setPeriodDay(state: RoutinesState, c: Extract<RoutineCommand, { type: 'SetPeriodDay' }>): RoutineEvent[] {
  const { routine, period, day } = occurrence(state, c.periodId, c.date);
  const events: RoutineEvent[] = [];
  const ref = { routineId: routine.id, periodId: period.id, date: c.date };
  if (c.day.startMinute !== undefined && c.day.endMinute !== undefined) {
    const usual = c.day.startMinute === period.startMinute && c.day.endMinute === period.endMinute;
    const target = usual ? { startMinute: null, endMinute: null } : { startMinute: c.day.startMinute, endMinute: c.day.endMinute };
    if (target.startMinute !== day.startMinute || target.endMinute !== day.endMinute) {
      if (!period.canMove) throw conflict('period_not_movable', 'This period cannot move (canMove is false)');
      if (c.day.startMinute < (period.windowStartMinute ?? 0) || c.day.endMinute > (period.windowEndMinute ?? 1440)) {
        throw conflict('outside_window', 'The times must lie inside the period\'s window', {
          issues: [{ path: 'body.startMinute', message: `must lie inside the window ${period.windowStartMinute ?? 0}-${period.windowEndMinute ?? 1440}` }],
        });
      }
      events.push({ type: 'routine.period.moved', data: { ...ref, ...target } });
    }
  }
  if (c.day.status !== day.status) {
    const marked = { period, date: c.date, routine };
    if (c.day.status === 'done') events.push({ type: 'routine.period.completed', data: marked });
    else if (c.day.status === 'skipped') events.push({ type: 'routine.period.skipped', data: marked });
    else events.push({ type: 'routine.period.cleared', data: ref });
  }
  return events;
}

function updateRoutine(state: RoutinesState, c: Extract<RoutineCommand, { type: 'UpdateRoutine' }>): RoutineEvent[] {
  const kept = liveRoutine(state, c.routineId);
  checkVersion(kept, c.expectedVersions);
  const { periods, ...fields } = c.changes;
  const current = kept.routine;
  const next: Routine = {
    ...current,
    ...fields,
    periods: periods ? replacePeriods(current.periods, periods, c.idSeed) : current.periods,
  };
  if (JSON.stringify(next) === JSON.stringify(current)) return [];
  return [{ type: 'routine.updated', data: { ...next, updatedAt: c.now } }];
}

function dayOf(state: RoutinesState, periodId: string, date: string): RoutineDay {
  const key = dayKey(periodId, date);
  let day = state.days.get(key);
  if (!day) state.days.set(key, (day = emptyDay()));
  return day;
}

function index(state: RoutinesState, routine: Routine, live: boolean): void {
  const previous = state.routines.get(routine.id)?.routine;
  for (const p of previous?.periods ?? []) {
    state.periods.delete(p.id);
    for (const item of p.items) state.items.delete(item.id);
  }
  if (!live) return;
  for (const p of routine.periods) {
    state.periods.set(p.id, routine.id);
    for (const item of p.items) state.items.set(item.id, { routineId: routine.id, periodId: p.id });
  }
}

export const routinesDecider: Decider<RoutineCommand, RoutineEvent, RoutinesState> = {
  initialState: () => ({ routines: new Map(), periods: new Map(), items: new Map(), days: new Map() }),

  decide(command, state) {
    switch (command.type) {
      case 'CreateRoutine': {
        if (state.routines.has(command.routineId)) throw conflict('duplicate_id', 'A routine with this id exists');
        const live = [...state.routines.values()].filter((r) => !r.deleted).length;
        if (live >= ROUTINE_LIMITS.routinesPerUser) {
          throw conflict('routine_limit_reached', `At most ${ROUTINE_LIMITS.routinesPerUser} routines per person`);
        }
        const { input } = command;
        const routine: Routine = {
          id: command.routineId,
          name: input.name,
          type: input.type ?? 'personal',
          color: input.color ?? null,
          isActive: input.isActive ?? true,
          days: input.days,
          periods: input.periods.map((p, i) => toPeriod(deterministicUuid(command.routineId, 'period', String(i)), p, [], command.routineId, i)),
          ownerId: command.ownerId,
          createdAt: command.now,
          updatedAt: command.now,
        };
        return [{ type: 'routine.created', data: routine }];
      }
      case 'UpdateRoutine':
        return updateRoutine(state, command);
      case 'DeleteRoutine': {
        const kept = liveRoutine(state, command.routineId);
        checkVersion(kept, command.expectedVersions);
        return [{ type: 'routine.deleted', data: { ...kept.routine, updatedAt: command.now } }];
      }
      case 'SetPeriodDay':
        return setPeriodDay(state, command);
      case 'SetItemDay': {
        const owner = state.items.get(command.itemId);
        if (!owner) throw notFound('Routine item');
        const { routine, day } = occurrence(state, owner.periodId, command.date);
        if (day.doneItemIds.includes(command.itemId) === command.done) return [];
        const data = { routineId: routine.id, periodId: owner.periodId, itemId: command.itemId, date: command.date, done: command.done };
        return [{ type: 'routine.item.marked', data }];
      }
    }
  },

  evolve(state, event) {
    switch (event.type) {
      case 'routine.created':
      case 'routine.updated':
      case 'routine.deleted': {
        const live = event.type !== 'routine.deleted';
        index(state, event.data, live);
        const version = (state.routines.get(event.data.id)?.version ?? 0) + 1;
        state.routines.set(event.data.id, { routine: event.data, version, deleted: !live });
        break;
      }
      case 'routine.period.completed':
      case 'routine.period.skipped':
        dayOf(state, event.data.period.id, event.data.date).status = event.type === 'routine.period.completed' ? 'done' : 'skipped';
        break;
      case 'routine.period.cleared':
        dayOf(state, event.data.periodId, event.data.date).status = null;
        break;
      case 'routine.period.moved': {
        const day = dayOf(state, event.data.periodId, event.data.date);
        day.startMinute = event.data.startMinute;
        day.endMinute = event.data.endMinute;
        break;
      }
      case 'routine.item.marked': {
        const day = dayOf(state, event.data.periodId, event.data.date);
        const others = day.doneItemIds.filter((id) => id !== event.data.itemId);
        day.doneItemIds = event.data.done ? [...others, event.data.itemId] : others;
        break;
      }
    }
    return state;
  },
};

export const routinesStream = (userId: string) => `routines-${userId}`;
