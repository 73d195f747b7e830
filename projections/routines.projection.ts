/**
 * Routines and their periods' per-date state: what GET /routines, /routines/instances, /routines/conflicts and
 * /sync read. `version` counts the routine's created/updated/deleted events, as the decider does, so ETags agree.
 */
import type { DomainEventData } from '../contracts/domain-events';
import type { Routine } from '../contracts/routines';
import type { RecordedEvent } from '../services/eventstore/event-store.port';
import type { Doc } from '../services/readstore/read-store.port';
import { dayKey, emptyDay, type RoutineDay } from '../services/rules/routine-days';
import { projection, type ProjectionDocs } from './projection';

export const ROUTINES = 'routines';

export type RoutineDoc = Doc & Routine & { version: number; deletedAt: string | null };
export type RoutineDayDoc = Doc & RoutineDay & { ownerId: string; routineId: string; periodId: string; date: string };

const DAY_TYPES = ['routine.period.completed', 'routine.period.skipped', 'routine.period.cleared', 'routine.period.moved', 'routine.item.marked'];

async function putRoutine(e: RecordedEvent, docs: ProjectionDocs): Promise<void> {
  const routine = e.data as Routine;
  if (typeof routine?.id !== 'string') return;
  const collection = docs<RoutineDoc>('routines');
  const existing = await collection.get(routine.id);
  if (existing && (existing._pos ?? 0) >= e.position) return;
  await collection.putIfNewer({
    ...routine,
    version: (existing?.version ?? 0) + 1,
    deletedAt: e.type === 'routine.deleted' ? e.metadata.occurredAt : null,
    _id: routine.id,
    _pos: e.position,
    _changedAt: e.metadata.occurredAt,
    // Creation order, unique and fixed for the routine's life: its routine.created position.
    _sortKey: existing?._sortKey ?? String(e.position).padStart(16, '0'),
  });
}

/** The day's state after the event, from the state before it. */
function nextDay(e: RecordedEvent, day: RoutineDay): RoutineDay {
  switch (e.type) {
    case 'routine.period.completed':
      return { ...day, status: 'done' };
    case 'routine.period.skipped':
      return { ...day, status: 'skipped' };
    case 'routine.period.cleared':
      return { ...day, status: null };
    case 'routine.period.moved': {
      const { startMinute, endMinute } = e.data as DomainEventData<'routine.period.moved'>;
      return { ...day, startMinute, endMinute };
    }
    default: {
      const { itemId, done } = e.data as DomainEventData<'routine.item.marked'>;
      const others = day.doneItemIds.filter((id) => id !== itemId);
      return { ...day, doneItemIds: done ? [...others, itemId] : others };
    }
  }
}

async function putDay(e: RecordedEvent, docs: ProjectionDocs): Promise<void> {
  const data = e.data as Partial<DomainEventData<'routine.period.cleared'> & DomainEventData<'routine.period.completed'>>;
  const routineId = data.routineId ?? data.routine?.id;
  const periodId = data.periodId ?? data.period?.id;
  const ownerId = e.metadata.userId;
  if (!routineId || !periodId || !data.date || !ownerId) return;
  const collection = docs<RoutineDayDoc>('days');
  const id = dayKey(periodId, data.date);
  const existing = await collection.get(id);
  if (existing && (existing._pos ?? 0) >= e.position) return;
  const before: RoutineDay = existing
    ? { status: existing.status, startMinute: existing.startMinute, endMinute: existing.endMinute, doneItemIds: existing.doneItemIds }
    : emptyDay();
  await collection.putIfNewer({
    ...nextDay(e, before), ownerId, routineId, periodId, date: data.date, _id: id, _pos: e.position,
  });
}

export const routinesProjection = projection({
  name: ROUTINES,
  version: 2, // v2: erasure stamps on every document
  collections: {
    routines: { indexes: [['ownerId', '_sortKey'], ['ownerId', '_pos']] },
    days: { indexes: [['ownerId', 'date']] },
  },
  handles: ['routine.created', 'routine.updated', 'routine.deleted', ...DAY_TYPES],
  apply: (e, docs) => (DAY_TYPES.includes(e.type) ? putDay(e, docs) : putRoutine(e, docs)),
});
