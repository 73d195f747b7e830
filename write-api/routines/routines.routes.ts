import type { z } from 'zod';
import { findOperation, type Method } from '../../contracts/operation';
import {
  routineOperations, type CreateRoutineBody, type ItemDayBody, type PeriodDayBody, type RoutineView, type UpdateRoutineBody,
} from '../../contracts/routines';
import { instanceOf } from '../../read-api/routines/instances';
import { timeZoneOf } from '../../read-api/routines/routines.queries';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { etagOf, expectedVersions } from '../../services/http/etag';
import { route, type Input } from '../../services/http/route';
import { deterministicUuid } from '../../services/ids';
import { dayClock } from '../../services/time/local-time';
import { dayKey } from '../../services/rules/routine-days';
import { routinesDecider, routinesStream, type RoutineCommand } from './routines.decider';

type IdParams = { id: string };
type DayParams = { date: string };

const operation = (method: Method, path: string) => findOperation(routineOperations, method, path);

export function routinesWriteRoutes(app: AppContext) {
  const run = (input: Input<unknown, unknown, unknown>, command: RoutineCommand) => {
    const userId = input.principal!.userId;
    return app.commands.handle(routinesStream(userId), routinesDecider, command, {
      userId, commandId: input.commandId, correlationId: input.requestId,
    });
  };

  const load = async (userId: string) => (await app.commands.load(routinesStream(userId), routinesDecider)).state;

  /** The routine as the stream holds it now (the answer to a write), with its version. */
  const routineNow = async (userId: string, routineId: string): Promise<RoutineView> => {
    const kept = (await load(userId)).routines.get(routineId);
    if (!kept || kept.deleted) throw notFound('Routine');
    return { ...kept.routine, version: kept.version, deletedAt: null };
  };

  /** The period's instance on a date as the stream holds it now, in the owner's zone. */
  const instanceNow = async (userId: string, periodId: string, date: string) => {
    const timeZone = await timeZoneOf(app.readModels, userId);
    const state = await load(userId);
    const routine = state.routines.get(state.periods.get(periodId) ?? '')?.routine;
    const period = routine?.periods.find((p) => p.id === periodId);
    if (!routine || !period) throw notFound('Routine period');
    return instanceOf(routine, period, date, state.days.get(dayKey(periodId, date)), dayClock(date, timeZone));
  };

  const ifMatch = (input: Input<unknown, unknown, unknown>) => expectedVersions(input.header('If-Match'));
  const now = () => new Date().toISOString();
  const answer = (status: number, routine: RoutineView, position: number | null) => ({
    status, body: { routine }, headers: { ETag: etagOf(routine.version) }, position,
  });

  return [
    route<CreateRoutineBody>(operation('post', '/routines'), async (input) => {
      const routineId = deterministicUuid(input.commandId, 'routine');
      const ownerId = input.principal!.userId;
      const result = await run(input, { type: 'CreateRoutine', routineId, ownerId, input: input.body, now: now() });
      return answer(201, await routineNow(ownerId, routineId), result.position);
    }),

    route<UpdateRoutineBody, unknown, IdParams>(operation('patch', '/routines/{id}'), async (input) => {
      const result = await run(input, {
        type: 'UpdateRoutine', routineId: input.params.id, changes: input.body, expectedVersions: ifMatch(input),
        idSeed: input.commandId, now: now(),
      });
      return answer(200, await routineNow(input.principal!.userId, input.params.id), result.position);
    }),

    route<unknown, unknown, IdParams>(operation('delete', '/routines/{id}'), async (input) => {
      const result = await run(input, { type: 'DeleteRoutine', routineId: input.params.id, expectedVersions: ifMatch(input), now: now() });
      return { status: 204, position: result.position };
    }),

    route<PeriodDayBody, unknown, DayParams & { periodId: string }>(
      operation('put', '/routines/periods/{periodId}/days/{date}'),
      async (input) => {
        const { periodId, date } = input.params;
        const result = await run(input, { type: 'SetPeriodDay', periodId, date, day: input.body });
        return { status: 200, body: { instance: await instanceNow(input.principal!.userId, periodId, date) }, position: result.position };
      },
    ),

    route<z.infer<typeof ItemDayBody>, unknown, DayParams & { itemId: string }>(
      operation('put', '/routines/items/{itemId}/days/{date}'),
      async (input) => {
        const { itemId, date } = input.params;
        const userId = input.principal!.userId;
        const result = await run(input, { type: 'SetItemDay', itemId, date, done: input.body.done });
        const periodId = (await load(userId)).items.get(itemId)?.periodId;
        if (!periodId) throw notFound('Routine item');
        return { status: 200, body: { instance: await instanceNow(userId, periodId, date) }, position: result.position };
      },
    ),
  ];
}
