/**
 * The dispatcher role: a consumer group on the relayed domain events that turns each event into one delivery per
 * subscribed, enabled webhook of the users it concerns (the catalogue says which webhook type and which users),
 * plus the worker that sends them.
 *
 * A delivery is created durably before any attempt, under an id derived from (event id, webhook id) with
 * insertNew: an event consumed twice (bus redelivery, relay replay, a crash between handling and committing)
 * never makes a second delivery.
 */
import { PRODUCING_DOMAIN_TYPES, webhooksProducedBy } from '../../contracts/webhook-catalogue';
import type { AppContext } from '../app-context';
import type { Bus } from '../bus/bus.port';
import type { RecordedEvent } from '../eventstore/event-store.port';
import { deterministicUuid } from '../ids';
import { consumeDomainEvents, joinInBackground } from '../relay/event-consumer';
import { audienceMembers, deliveredPayload } from './audience';
import { DeliveryWorker } from './delivery-worker';
import { live, WebhookStore, type DeliveryDoc, type WebhookDoc } from './webhook-store';

export interface Dispatcher {
  worker: DeliveryWorker;
  stop(): Promise<void>;
}

export const deliveryId = (eventId: string, webhookId: string) => deterministicUuid('webhook-delivery', eventId, webhookId);

const subscribes = (webhook: Pick<WebhookDoc, 'events'>, type: string) =>
  webhook.events.includes('*') || webhook.events.includes(type);

export async function startDispatcher(app: AppContext, bus: Bus): Promise<Dispatcher> {
  const log = app.log.child({ role: 'dispatcher' });
  const store = new WebhookStore(app.store, app.serverKeys);
  await store.ensureIndexes();
  const worker = new DeliveryWorker(store, {
    retryDelaysMs: app.config.WEBHOOK_RETRY_DELAYS_MS,
    timeoutMs: app.config.WEBHOOK_TIMEOUT_MS,
    allowPrivate: app.config.WEBHOOK_ALLOW_PRIVATE_URLS,
  }, log, app.metrics);
  worker.start();

  /** False when it made no delivery. */
  const fanOut = async (event: RecordedEvent): Promise<boolean> => {
    let created = 0;
    for (const { def, produce } of webhooksProducedBy(event.type)) {
      const produced = produce(event);
      const userIds = await audienceMembers(app, produced.audience, event.position);
      if (userIds.length === 0) continue;
      const hooks = (await store.webhooks.find({ userId: { $in: userIds } })).filter(
        (hook) => live(hook) && hook.enabled && subscribes(hook, def.type) && event.position > hook.fromPosition,
      );
      if (hooks.length === 0) continue;
      const body = JSON.stringify(deliveredPayload(event, def.type, produced));
      const now = new Date().toISOString();
      for (const hook of hooks) {
        const doc: DeliveryDoc = {
          _id: deliveryId(event.id, hook._id), _pos: 1, webhookId: hook._id, userId: hook.userId, eventId: event.id,
          streamId: event.streamId, position: event.position, type: def.type, correlationId: event.metadata.correlationId, body, state: 'pending', attempts: [], roundStart: 0, nextAttemptMs: Date.now(), leasedUntil: null,
          createdAt: now, updatedAt: now,
        };
        if (await store.deliveries.insertNew(doc)) created++;
      }
    }
    if (created === 0) return false;
    app.metrics.deliveriesCreated.inc(created);
    log.info({ correlationId: event.metadata.correlationId, eventId: event.id, type: event.type, deliveries: created }, 'webhook deliveries created');
    worker.wake();
    return true;
  };

  // One group per topic: deployments (and test services) sharing a Kafka cluster never share a group.
  const consumer = joinInBackground(
    () => consumeDomainEvents(bus, app.store, app.config.KAFKA_TOPIC, `webhooks.${app.config.KAFKA_TOPIC}`, app.codec, fanOut, PRODUCING_DOMAIN_TYPES),
    (err, delay) => log.warn({ err, delay }, 'dispatcher could not join its consumer group; retrying'),
  );
  return {
    worker,
    async stop() {
      await consumer.stop();
      await worker.stop();
    },
  };
}
