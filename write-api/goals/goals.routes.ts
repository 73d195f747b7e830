import { goalOperations, type CreateGoalBody, type Goal, type UpdateGoalBody } from '../../contracts/goals';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { decided } from '../../services/commands/command-handler';
import { etagOf, expectedVersions } from '../../services/http/etag';
import { route, type Input } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { goalsDecider, goalsStream, type GoalFields } from './goals.decider';

type IdParams = { id: string };
type AnyInput = Input<unknown, unknown, unknown>;

/** The body's fields that were sent (undefined means "keep"). */
const sent = <T extends object>(body: T): Partial<T> =>
  Object.fromEntries(Object.entries(body).filter(([, v]) => v !== undefined)) as Partial<T>;

export function goalsWriteRoutes(app: AppContext) {
  const run = (input: AnyInput, command: Parameters<typeof goalsDecider.decide>[0]) => {
    const userId = input.principal!.userId;
    return app.commands.handle(goalsStream(userId), goalsDecider, command, {
      userId, commandId: input.commandId, correlationId: input.requestId,
    });
  };
  const answer = (status: number, goal: Goal, position: number | null) => ({
    status, body: { goal }, headers: { ETag: etagOf(goal.version) }, position,
  });

  return [
    route<CreateGoalBody>(findOperation(goalOperations, 'post', '/goals'), async (input) => {
      const b = input.body;
      const fields: GoalFields = {
        userId: input.principal!.userId, name: b.name, weeklyMinutes: b.weeklyMinutes,
        preferredPeriod: b.preferredPeriod ?? null, minBlockMinutes: b.minBlockMinutes ?? null,
        maxBlockMinutes: b.maxBlockMinutes ?? null, deadline: b.deadline ?? null, color: b.color ?? null,
      };
      const id = deterministicUuid(input.commandId, 'goal');
      const result = await run(input, { type: 'Create', id, fields, now: new Date().toISOString() });
      return answer(201, decided(result.events, 'goal.created'), result.position);
    }),

    route<UpdateGoalBody, unknown, IdParams>(findOperation(goalOperations, 'put', '/goals/{id}'), async (input) => {
      const result = await run(input, {
        type: 'Update', id: input.params.id, changes: sent(input.body),
        expectedVersions: expectedVersions(input.header('If-Match')), now: new Date().toISOString(),
      });
      return answer(200, decided(result.events, 'goal.updated'), result.position);
    }),

    route<unknown, unknown, IdParams>(findOperation(goalOperations, 'delete', '/goals/{id}'), async (input) => {
      const result = await run(input, {
        type: 'Delete', id: input.params.id, expectedVersions: expectedVersions(input.header('If-Match')),
        now: new Date().toISOString(),
      });
      return { status: 204, position: result.position };
    }),
  ];
}
