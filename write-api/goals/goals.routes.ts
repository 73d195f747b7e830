import { goalOperations, type CreateGoalBody, type UpdateGoalBody } from '../../contracts/goals';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { decided } from '../../services/commands/command-handler';
import { route } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { deleteRoute, ifMatch, ownStream, withEtag } from '../shared/own-stream';
import { goalsDecider, goalsStream } from './goals.decider';

/** The body's fields that were sent (left out means "keep"). */
const sent = <T extends object>(body: T): Partial<T> =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Partial<T>;

export function goalsWriteRoutes(app: AppContext) {
  const run = ownStream(app, goalsDecider, goalsStream);
  return [
    route<CreateGoalBody>(findOperation(goalOperations, 'post', '/goals'), async (input) => {
      const b = input.body;
      const result = await run(input, {
        type: 'Create', id: deterministicUuid(input.commandId, 'goal'), now: new Date().toISOString(),
        fields: {
          userId: input.principal!.userId, name: b.name, weeklyMinutes: b.weeklyMinutes,
          preferredPeriod: b.preferredPeriod ?? null, minBlockMinutes: b.minBlockMinutes ?? null,
          maxBlockMinutes: b.maxBlockMinutes ?? null, deadline: b.deadline ?? null, color: b.color ?? null,
        },
      });
      return withEtag(201, 'goal', decided(result.events, 'goal.created'), result.position);
    }),

    route<UpdateGoalBody, unknown, { id: string }>(findOperation(goalOperations, 'put', '/goals/{id}'), async (input) => {
      const result = await run(input, {
        type: 'Update', id: input.params.id, changes: sent(input.body), expectedVersions: ifMatch(input), now: new Date().toISOString(),
      });
      return withEtag(200, 'goal', decided(result.events, 'goal.updated'), result.position);
    }),

    deleteRoute(findOperation(goalOperations, 'delete', '/goals/{id}'), run),
  ];
}
