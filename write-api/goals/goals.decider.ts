/** A person's goals: a collection per user (`goals-<userId>`), at most MAX_GOALS of them. */
import { MAX_GOALS, type Goal } from '../../contracts/goals';
import { invalid } from '../../services/errors';
import { collectionDecider } from '../shared/collection.decider';

export type GoalFields = Pick<
  Goal,
  'userId' | 'name' | 'weeklyMinutes' | 'preferredPeriod' | 'minBlockMinutes' | 'maxBlockMinutes' | 'deadline' | 'color'
>;

export const goalsDecider = collectionDecider<'goal', Goal, GoalFields, Partial<Omit<GoalFields, 'userId'>>>({
  name: 'goal',
  what: 'Goal',
  limit: MAX_GOALS,
  limitCode: 'goal_limit_reached',
  create: (id, fields, now) => ({ id, ...fields, createdAt: now, updatedAt: now, deletedAt: null, version: 1 }),
  check(goal) {
    if (goal.minBlockMinutes !== null && goal.maxBlockMinutes !== null && goal.minBlockMinutes > goal.maxBlockMinutes) {
      throw invalid('maxBlockMinutes must not be less than minBlockMinutes', [
        { path: 'body.maxBlockMinutes', message: 'must not be less than minBlockMinutes' },
      ]);
    }
  },
});

export const goalsStream = (userId: string) => `goals-${userId}`;
