import { findOperation } from '../../contracts/operation';
import { plannerOperations, type PlanBody } from '../../contracts/planner';
import type { AppContext } from '../../services/app-context';
import { route } from '../../services/http/route';
import { readModelSources } from '../availability/sources';
import { routineBlocks } from '../routines/routines.queries';
import { plan } from './planner.queries';

/** POST /planner/plan answers from the read models and writes nothing, so it lives on the read side. */
export function plannerReadRoutes(app: AppContext) {
  const sources = readModelSources(app.readModels, routineBlocks);
  return [
    route<PlanBody>(findOperation(plannerOperations, 'post', '/planner/plan'), async ({ body, principal }) => ({
      status: 200,
      body: await plan(sources, app.readModels, principal!.userId, body, Date.now()),
    })),
  ];
}
