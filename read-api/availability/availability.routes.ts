import type { z } from 'zod';
import { availabilityOperations, type AvailabilityQuery, type AvailableSlotsQuery, type FreeBusyQuery } from '../../contracts/availability';
import { findOperation } from '../../contracts/operation';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { routineBlocks } from '../routines/routines.queries';
import type { AnswerRequest } from './answers';
import { availabilityAnswer } from './availability.queries';
import { readModelSources } from './sources';

export function availabilityRoutes(app: AppContext) {
  const sources = readModelSources(app.readModels, routineBlocks);
  const place = { threads: app.answerThreads, offloadItems: app.config.HEAVY_READ_OFFLOAD_ITEMS };
  const answer = async (userId: string, req: AnswerRequest) => ({ status: 200, json: await availabilityAnswer(sources, place, userId, req) });
  return [
    route<unknown, z.infer<typeof AvailabilityQuery>>(findOperation(availabilityOperations, 'get', '/availability'), ({ query, principal }) =>
      answer(principal!.userId, { kind: 'availability', query, now: Date.now() })),
    route<unknown, z.infer<typeof AvailableSlotsQuery>>(findOperation(availabilityOperations, 'get', '/available-slots'), ({ query, principal }) =>
      answer(principal!.userId, { kind: 'slots', query, now: Date.now() })),
    route<unknown, z.infer<typeof FreeBusyQuery>>(findOperation(availabilityOperations, 'get', '/free-busy'), ({ query, principal }) =>
      answer(principal!.userId, { kind: 'free-busy', query, now: Date.now() })),
  ];
}
