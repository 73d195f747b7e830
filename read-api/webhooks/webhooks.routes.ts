import { findOperation } from '../../contracts/operation';
import { webhookOperations, webhookTypeInfos } from '../../contracts/webhooks';
import type { AppContext } from '../../services/app-context';
import { WebhookStore } from '../../services/dispatcher/webhook-store';
import { notFound } from '../../services/errors';
import { route } from '../../services/http/route';
import { deliveriesOf, webhooksOf } from './webhooks.queries';

export function webhooksReadRoutes(app: AppContext) {
  const store = new WebhookStore(app.store, app.serverKeys);
  return [
    route(findOperation(webhookOperations, 'get', '/webhooks'), async ({ principal }) => ({
      status: 200,
      body: { webhooks: await webhooksOf(store, principal!.userId) },
    })),
    route<unknown, { limit: number }, { id: string }>(
      findOperation(webhookOperations, 'get', '/webhooks/{id}/deliveries'),
      async ({ principal, params, query }) => {
        if (!(await store.ownedWebhook(principal!.userId, params.id))) throw notFound('Webhook');
        return { status: 200, body: { deliveries: await deliveriesOf(store, params.id, query.limit) } };
      },
    ),
    route(findOperation(webhookOperations, 'get', '/webhooks/event-types'), async () => ({
      status: 200,
      body: { eventTypes: webhookTypeInfos },
    })),
  ];
}
