import { automationOperations } from '../../contracts/automations';
import { findOperation } from '../../contracts/operation';
import type { PageQuery } from '../../contracts/paging';
import type { AppContext } from '../../services/app-context';
import { RunStore } from '../../services/automations/run-store';
import { notFound } from '../../services/errors';
import { etagOf } from '../../services/http/etag';
import { route } from '../../services/http/route';
import { answeredAutomation, automationPage, ownAutomation, runPage } from './automations.queries';

type IdParams = { id: string };

export function automationsReadRoutes(app: AppContext) {
  const runs = new RunStore(app.store);
  const owned = async (userId: string, id: string) => {
    const automation = await ownAutomation(app.readModels, userId, id);
    if (!automation) throw notFound('Automation');
    return automation;
  };
  return [
    route<unknown, PageQuery>(findOperation(automationOperations, 'get', '/automations'), async ({ query, principal }) => ({
      status: 200,
      body: await automationPage(app.readModels, runs, principal!.userId, query),
    })),
    route<unknown, unknown, IdParams>(findOperation(automationOperations, 'get', '/automations/{id}'), async ({ params, principal }) => {
      const automation = await answeredAutomation(runs, await owned(principal!.userId, params.id));
      return { status: 200, body: { automation }, headers: { ETag: etagOf(automation.version) } };
    }),
    route<unknown, PageQuery, IdParams>(findOperation(automationOperations, 'get', '/automations/{id}/runs'), async ({ params, query, principal }) => {
      await owned(principal!.userId, params.id);
      return { status: 200, body: await runPage(runs, params.id, query) };
    }),
  ];
}
