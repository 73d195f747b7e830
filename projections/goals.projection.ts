/**
 * Goals, and the calendar blocks linked to them (events with a `goalId`): what GET /goals, /sync and the goal
 * progress of GET /insights read.
 */
import { Goal } from '../contracts/goals';
import { creationOrderKey } from './creation-order';
import { calendarEventOf, eventTime, timeFields } from './event-time';
import { projection } from './projection';

export const GOALS = 'goals';

export const goalsProjection = projection({
  name: GOALS,
  version: 2, // v2: erasure stamps on every document
  collections: {
    goals: { indexes: [['userId', '_sortKey'], ['userId', '_pos']] },
    blocks: { indexes: [['goalId', '_startMs']] },
  },
  handles: [
    'goal.created', 'goal.updated', 'goal.deleted', 'event.created', 'event.updated', 'event.cancelled',
    'event.occurrence.changed', 'event.occurrence.cancelled',
  ],
  async apply(e, docs) {
    const changedAt = e.metadata.occurredAt;
    if (e.type.startsWith('goal.')) {
      const goal = Goal.safeParse(e.data);
      if (!goal.success) return;
      const goals = docs('goals');
      await goals.putIfNewer({
        ...goal.data, _id: goal.data.id, _pos: e.position, _changedAt: changedAt,
        _sortKey: await creationOrderKey(goals, goal.data.id, e.position),
      });
      return;
    }
    // A calendar event starts unlinked far more often than not, and an unlinked one has no block before it.
    if (e.type === 'event.created' && !(e.data as { goalId?: unknown } | null)?.goalId) return;
    const event = eventTime(calendarEventOf(e.type, e.data));
    if (!event) return;
    const linked = event.status === 'confirmed' && !!event.goalId;
    if (!linked && !(await docs('blocks').get(event.id))) return;
    await docs('blocks').putIfNewer({
      _id: event.id, _pos: e.position, goalId: event.goalId ?? null, ...timeFields(event), deletedAt: linked ? null : changedAt,
    });
  },
});
