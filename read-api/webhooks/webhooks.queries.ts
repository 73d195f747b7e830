import type { Delivery, Webhook } from '../../contracts/webhooks';
import { deliveryView, webhookView, type DeliveryDoc, type WebhookStore } from '../../services/dispatcher/webhook-store';

export async function webhooksOf(store: WebhookStore, userId: string): Promise<Webhook[]> {
  return (await store.webhooksOf(userId)).map(webhookView);
}

export async function deliveriesOf(store: WebhookStore, webhookId: string, limit: number): Promise<Delivery[]> {
  const docs = await store.deliveries.find({ webhookId }, { sort: [['createdAt', -1], ['_id', -1]], limit });
  return docs.map(deliveryView);
}

/** A delivery of one of the user's webhooks, else null (other people's are not found either). */
export async function ownedDelivery(store: WebhookStore, userId: string, id: string): Promise<DeliveryDoc | null> {
  const doc = await store.deliveries.get(id);
  if (!doc || doc.userId !== userId) return null;
  return (await store.ownedWebhook(userId, doc.webhookId)) ? doc : null;
}
