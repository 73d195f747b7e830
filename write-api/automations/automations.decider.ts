/**
 * A person's automations: a collection per user (`automations-<userId>`), at most AUTOMATION_LIMITS.perUser of them.
 * An active automation must be ready: the problems the route found come with the command, and an automation that
 * would be on with problems is refused.
 */
import { AUTOMATION_LIMITS, type AutomationRecord, type Problem } from '../../contracts/automations';
import { ApiError } from '../../services/errors';
import { collectionDecider } from '../shared/collection.decider';

export type AutomationFields = Pick<AutomationRecord, 'ownerId' | 'name' | 'isActive' | 'trigger' | 'actions' | 'problems'>;
export type AutomationChanges = Partial<Omit<AutomationFields, 'ownerId'>>;

export const notReady = (problems: Problem[]) =>
  new ApiError(422, 'automation_not_ready', `The automation cannot run yet: ${problems[0].path} ${problems[0].message}`, { problems });

export function requireReadyWhenActive(automation: Pick<AutomationRecord, 'isActive' | 'problems'>): void {
  if (automation.isActive && automation.problems.length > 0) throw notReady(automation.problems);
}

export const automationsDecider = collectionDecider<'automation', AutomationRecord, AutomationFields, AutomationChanges>({
  name: 'automation',
  what: 'Automation',
  limit: AUTOMATION_LIMITS.perUser,
  limitCode: 'automation_limit_reached',
  create: (id, fields, now) => ({ id, ...fields, createdAt: now, updatedAt: now, deletedAt: null, version: 1 }),
  check: requireReadyWhenActive,
});

export const automationsStream = (userId: string) => `automations-${userId}`;
