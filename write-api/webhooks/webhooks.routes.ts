import { findOperation } from '../../contracts/operation';
import { webhookOperations, type CreateWebhookBody, type UpdateWebhookBody } from '../../contracts/webhooks';
import { ownedDelivery } from '../../read-api/webhooks/webhooks.queries';
import type { AppContext } from '../../services/app-context';
import { whyRefused } from '../../services/dispatcher/private-addresses';
import { newSigningSecret } from '../../services/dispatcher/signing-secret';
import { sendSigned } from '../../services/dispatcher/send';
import { deliveryView, webhookView, WebhookStore, type WebhookDoc } from '../../services/dispatcher/webhook-store';
import { invalid, notFound } from '../../services/errors';
import { deterministicUuid, newId } from '../../services/ids';
import { route, type Input } from '../../services/http/route';

type IdParams = { id: string };

const unique = (events: string[]) => [...new Set(events)];

export function webhooksWriteRoutes(app: AppContext) {
  const store = new WebhookStore(app.store, app.serverKeys);
  store.ensureIndexes().catch((err: unknown) => app.log.warn({ err }, 'webhook indexes not created'));
  const allowPrivate = app.config.WEBHOOK_ALLOW_PRIVATE_URLS;

  const checkUrl = async (url: string) => {
    if (allowPrivate) return;
    const why = await whyRefused(url);
    if (why) throw invalid(`Invalid body: body.url ${why}`, [{ path: 'body.url', message: why }]);
  };

  const owned = async (input: Input<unknown, unknown, IdParams>): Promise<WebhookDoc> => {
    const doc = await store.ownedWebhook(input.principal!.userId, input.params.id);
    if (!doc) throw notFound('Webhook');
    return doc;
  };

  return [
    route<CreateWebhookBody>(findOperation(webhookOperations, 'post', '/webhooks'), async (input) => {
      const { name, url, events } = input.body;
      await checkUrl(url);
      const userId = input.principal!.userId;
      // The id derives from the command (Idempotency-Key): a retried create finds its webhook and its secret.
      const id = deterministicUuid(input.commandId, 'webhook');
      const now = new Date().toISOString();
      const secret = newSigningSecret();
      const doc: WebhookDoc = {
        _id: id, _pos: 1, deletedAt: null, userId, name, url, events: unique(events), enabled: true, sealedSecret: store.seal(secret),
        fromPosition: await app.events.headPosition(), createdAt: now, updatedAt: now,
      };
      if (await store.webhooks.insertNew(doc)) return { status: 201, body: { webhook: webhookView(doc), secret } };
      // The same create again: its first answer, even when the webhook was deleted since.
      const existing = await store.webhooks.get(id);
      if (existing?.userId !== userId) throw new Error(`webhook id ${id} is taken by another user`);
      return { status: 201, body: { webhook: webhookView(existing), secret: store.open(existing.sealedSecret) } };
    }),

    route<UpdateWebhookBody, unknown, IdParams>(findOperation(webhookOperations, 'patch', '/webhooks/{id}'), async (input) => {
      const { name, url, events, enabled } = input.body;
      if (url !== undefined && url !== (await owned(input)).url) await checkUrl(url);
      const next = await store.updateWebhook(input.principal!.userId, input.params.id, () => ({
        ...(name === undefined ? {} : { name }),
        ...(url === undefined ? {} : { url }),
        ...(events === undefined ? {} : { events: unique(events) }),
        ...(enabled === undefined ? {} : { enabled }),
      }));
      if (!next) throw notFound('Webhook');
      return { status: 200, body: { webhook: webhookView(next) } };
    }),

    route<unknown, unknown, IdParams>(findOperation(webhookOperations, 'delete', '/webhooks/{id}'), async (input) => {
      const deleted = await store.updateWebhook(input.principal!.userId, input.params.id, () => ({ deletedAt: new Date().toISOString(), enabled: false }));
      if (!deleted) throw notFound('Webhook');
      await store.deliveries.deleteMany({ webhookId: deleted._id });
      return { status: 204 };
    }),

    route<unknown, unknown, IdParams>(findOperation(webhookOperations, 'post', '/webhooks/{id}/test'), async (input) => {
      const doc = await owned(input);
      const body = JSON.stringify({ id: newId(), type: 'webhook.test', createdAt: new Date().toISOString(), data: { webhookId: doc._id } });
      const result = await sendSigned(
        { url: doc.url, secret: store.open(doc.sealedSecret), deliveryId: newId(), type: 'webhook.test', body },
        { timeoutMs: app.config.WEBHOOK_TIMEOUT_MS, allowPrivate },
      );
      return { status: 200, body: result };
    }),

    route<unknown, unknown, IdParams>(
      findOperation(webhookOperations, 'post', '/webhooks/deliveries/{id}/redeliver'),
      async (input) => {
        const found = await ownedDelivery(store, input.principal!.userId, input.params.id);
        if (!found) throw notFound('Delivery');
        const queued = await store.updateDelivery(found._id, (d) => ({
          state: 'pending',
          roundStart: d.attempts.length,
          // An attempt in flight keeps its claim; its outcome then counts in the new round.
          nextAttemptMs: d.leasedUntil !== null && d.leasedUntil > Date.now() ? d.nextAttemptMs : Date.now(),
        }));
        if (!queued) throw notFound('Delivery');
        return { status: 202, body: { delivery: deliveryView(queued) } };
      },
    ),
  ];
}
