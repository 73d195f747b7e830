/** Goals and event types: per-person collections with a limit, If-Match, rules kept together, built-ins fixed. */
import type { EventType } from '../../contracts/event-types';
import { MAX_GOALS, type Goal } from '../../contracts/goals';
import { eventTypesDecider } from '../../write-api/event-types/event-types.decider';
import { goalsDecider, type GoalFields } from '../../write-api/goals/goals.decider';
import { given } from '../support/given';

const USER = '11111111-1111-4111-8111-111111111111';
const NOW = '2026-11-23T09:00:00.000Z';
const LATER = '2026-11-23T10:00:00.000Z';
const goalId = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

const fields = (overrides: Partial<GoalFields> = {}): GoalFields => ({
  userId: USER, name: 'Spanish', weeklyMinutes: 180, preferredPeriod: null, minBlockMinutes: 30, maxBlockMinutes: null,
  deadline: null, color: null, ...overrides,
});
const goal = (n: number, overrides: Partial<Goal> = {}): Goal => ({
  id: goalId(n), ...fields(), createdAt: NOW, updatedAt: NOW, deletedAt: null, version: 1, ...overrides,
});
const created = (n: number) => ({ type: 'goal.created' as const, data: goal(n) });
const deleted = (n: number) => ({ type: 'goal.deleted' as const, data: goal(n, { deletedAt: LATER, version: 2 }) });
const part = (d: Partial<Goal>) => d as Goal;

describe('goals decider', () => {
  it('creates a goal at version 1', () => {
    given(goalsDecider, []).when({ type: 'Create', id: goalId(1), fields: fields(), now: NOW }).then([
      { type: 'goal.created', data: part({ id: goalId(1), name: 'Spanish', version: 1, deletedAt: null }) },
    ]);
  });

  it('a create retried with the same id changes nothing', () => {
    given(goalsDecider, [created(1)]).when({ type: 'Create', id: goalId(1), fields: fields(), now: NOW }).then([]);
  });

  it(`refuses goal number ${MAX_GOALS + 1} with goal_limit_reached, and has room again after a delete`, () => {
    const full = Array.from({ length: MAX_GOALS }, (_, i) => created(i + 1));
    const next = { type: 'Create' as const, id: goalId(999), fields: fields(), now: NOW };
    given(goalsDecider, full).when(next).thenThrows('goal_limit_reached');
    given(goalsDecider, [...full, deleted(1)]).when(next).then([{ type: 'goal.created' }]);
  });

  it('updates the fields sent, keeping the others, at the next version', () => {
    given(goalsDecider, [created(1)]).when({ type: 'Update', id: goalId(1), changes: { weeklyMinutes: 240, color: '#112233' }, now: LATER }).then([
      { type: 'goal.updated', data: part({ name: 'Spanish', weeklyMinutes: 240, color: '#112233', minBlockMinutes: 30, version: 2, updatedAt: LATER }) },
    ]);
  });

  it('refuses an update that leaves maxBlockMinutes below minBlockMinutes', () => {
    given(goalsDecider, [created(1)]).when({ type: 'Update', id: goalId(1), changes: { maxBlockMinutes: 15 }, now: LATER })
      .thenThrows('invalid_request');
  });

  it('deletes, after which the goal is not found', () => {
    given(goalsDecider, [created(1)]).when({ type: 'Delete', id: goalId(1), now: LATER }).then([
      { type: 'goal.deleted', data: part({ deletedAt: LATER, version: 2 }) },
    ]);
    given(goalsDecider, [created(1), deleted(1)]).when({ type: 'Delete', id: goalId(1), now: LATER }).thenThrows('not_found');
    given(goalsDecider, [created(1), deleted(1)]).when({ type: 'Update', id: goalId(1), changes: {}, now: LATER }).thenThrows('not_found');
  });

  it('honours If-Match versions', () => {
    given(goalsDecider, [created(1)]).when({ type: 'Update', id: goalId(1), changes: {}, expectedVersions: [2], now: LATER })
      .thenThrows('version_mismatch');
    given(goalsDecider, [created(1)]).when({ type: 'Delete', id: goalId(1), expectedVersions: [1], now: LATER }).then([{ type: 'goal.deleted' }]);
  });

  it('an unknown id is not found', () => {
    given(goalsDecider, []).when({ type: 'Update', id: goalId(5), changes: {}, now: LATER }).thenThrows('not_found');
  });
});

describe('event types decider', () => {
  const type: EventType = {
    id: goalId(1), name: 'Deep work', color: '#ff8800', baseKind: 'focus', defaultMinutes: 90, builtIn: false,
    createdAt: NOW, updatedAt: NOW, deletedAt: null, version: 1,
  };
  const typeCreated = { type: 'event_type.created' as const, data: type };

  it('creates, renames and deletes one\'s own type', () => {
    given(eventTypesDecider, []).when({
      type: 'Create', id: type.id, now: NOW, fields: { name: 'Deep work', color: '#ff8800', baseKind: 'focus', defaultMinutes: 90 },
    }).then([{ type: 'event_type.created', data: type }]);
    given(eventTypesDecider, [typeCreated]).when({ type: 'Update', id: type.id, changes: { name: 'Focus time' }, now: LATER }).then([
      { type: 'event_type.updated', data: { ...type, name: 'Focus time', updatedAt: LATER, version: 2 } },
    ]);
    given(eventTypesDecider, [typeCreated]).when({ type: 'Delete', id: type.id, now: LATER }).then([{ type: 'event_type.deleted' }]);
  });

  it.each(['meeting', 'focus', 'holiday'])('refuses to change or delete the built-in %s', (kind) => {
    given(eventTypesDecider, []).when({ type: 'Update', id: kind, changes: { name: 'Mine' }, now: LATER }).thenThrows('event_type_built_in');
    given(eventTypesDecider, []).when({ type: 'Delete', id: kind, now: LATER }).thenThrows('event_type_built_in');
  });
});
