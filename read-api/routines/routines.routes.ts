import type { z } from 'zod';
import { findOperation } from '../../contracts/operation';
import { routineOperations, type ListRoutinesQuery, type ConflictsQuery, type InstancesQuery } from '../../contracts/routines';
import { ROUTINES } from '../../projections/routines.projection';
import type { AppContext } from '../../services/app-context';
import { notFound } from '../../services/errors';
import { etagOf } from '../../services/http/etag';
import { route } from '../../services/http/route';
import { routinesAsOf } from '../../services/history/as-of';
import { pastInstant } from '../../services/history/time-travel';
import { addDays, localDate } from '../../services/time/local-time';
import { availabilityAnswer } from '../availability/availability.queries';
import { readModelSources } from '../availability/sources';
import { AnswerCache } from '../shared/answer-cache';
import { routineBlocks, routineDays, routineOf, routinesPage, timeZoneOf } from './routines.queries';

const operation = (method: 'get', path: string) => findOperation(routineOperations, method, path);

export function routinesReadRoutes(app: AppContext) {
  // Instances depend on the routines projection and the owner's zone (part of the key), never on the clock.
  // Bounded in memory: 100 answers of at most 512 KB.
  const instancesCache = new AnswerCache(100);
  const sources = readModelSources(app.readModels, routineBlocks);
  const place = { threads: app.answerThreads, offloadItems: app.config.HEAVY_READ_OFFLOAD_ITEMS };
  return [
    route<unknown, z.infer<typeof ListRoutinesQuery>>(operation('get', '/routines'), async ({ query, principal }) => ({
      status: 200,
      body: query.asOf
        ? await routinesAsOf(app, principal!.userId, pastInstant(query.asOf), query)
        : await routinesPage(app.readModels, principal!.userId, query),
    })),

    route<unknown, z.infer<typeof InstancesQuery>>(operation('get', '/routines/instances'), async ({ query, principal }) => {
      // Order and span (at most ROUTINE_LIMITS.instanceDays dates) are checked with the query (`laterThan`).
      const userId = principal!.userId;
      const position = await app.watermarks.position(ROUTINES);
      const timeZone = await timeZoneOf(app.readModels, userId);
      const key = JSON.stringify([userId, timeZone, query.from, query.to]);
      let json = instancesCache.get(key, position);
      if (json === undefined) {
        const entries = await routineDays(app.readModels, userId, timeZone, query.from, query.to);
        json = Buffer.from(JSON.stringify({ timeZone, instances: entries.map((e) => e.instance) }));
        if (json.length <= 512 * 1024) instancesCache.set(key, position, json);
      }
      return { status: 200, json };
    }),

    route<unknown, z.infer<typeof ConflictsQuery>>(operation('get', '/routines/conflicts'), async ({ query, principal }) => {
      const userId = principal!.userId;
      const owner = await sources.owner(userId);
      if (!owner) throw notFound('User');
      const now = Date.now();
      const from = query.from ?? localDate(now, owner.timeZone);
      const days = query.days ?? 7;
      const entries = await routineDays(app.readModels, userId, owner.timeZone, from, addDays(from, days - 1));
      const req = { kind: 'routine-conflicts' as const, query: { from, days }, now, entries };
      return { status: 200, json: await availabilityAnswer(sources, place, userId, req) };
    }),

    route<unknown, unknown, { id: string }>(operation('get', '/routines/{id}'), async ({ params, principal }) => {
      const routine = await routineOf(app.readModels, principal!.userId, params.id);
      if (!routine) throw notFound('Routine');
      return { status: 200, body: { routine }, headers: { ETag: etagOf(routine.version) } };
    }),
  ];
}
