/**
 * Pushes new notifications to their user's devices: a consumer group on the relayed domain events (part of the
 * dispatcher role). For each event that can make notifications it waits until the notifications and devices read
 * models have that event (else the bus redelivers it later), then pushes each notification the event made to each
 * device of its user that has a push token and was registered before it. A push id derives from (notification,
 * device) and is claimed before sending, so redelivery and replays never push one notification twice to a device.
 * A reminder is pushed only when its method is `push` (the others notify, or mail, only).
 */
import type { Notification } from '../../contracts/notifications';
import { DEVICES } from '../../projections/devices.projection';
import { NOTIFICATIONS, NOTIFYING_TYPES } from '../../projections/notifications.projection';
import type { AppContext } from '../app-context';
import type { Bus, BusConsumer } from '../bus/bus.port';
import type { RecordedEvent } from '../eventstore/event-store.port';
import { deterministicUuid } from '../ids';
import { consumeDomainEvents, joinInBackground } from '../relay/event-consumer';
import type { PushDevice, PushService } from './push-service';

/** Devices per user a notification is pushed to (the most recently registered). */
const MAX_DEVICES = 50;
/** A notification the consumer reaches later than this (a backlog, a reset group) is no longer worth a push. */
const MAX_AGE_MS = 86_400_000;

export const notificationPushId = (notificationId: string, deviceId: string) => deterministicUuid('push', notificationId, deviceId);

export function startPushConsumer(app: AppContext, bus: Bus, push: PushService): BusConsumer {
  const log = app.log.child({ role: 'dispatcher', consumer: 'push' });

  const pushEvent = async (event: RecordedEvent): Promise<boolean | void> => {
    if (event.type === 'reminder.fired' && (event.data as { method?: string } | null)?.method !== 'push') return false;
    if (!(await app.watermarks.waitFor([NOTIFICATIONS, DEVICES], event.position, app.config.MIN_POSITION_WAIT_MS))) {
      throw new Error(`the read models have not reached position ${event.position} yet`);
    }
    const made = await (await app.readModels.docs(NOTIFICATIONS))('notifications').find({ sourceEventId: event.id });
    const devices = (await app.readModels.docs(DEVICES))('devices');
    for (const doc of made) {
      const n = doc as unknown as Notification & { userId: string; _pos: number };
      if (Date.parse(n.createdAt) < Date.now() - MAX_AGE_MS) continue;
      const targets = (await devices.find({ userId: n.userId, deletedAt: null }, { sort: [['_sortKey', -1]], limit: MAX_DEVICES }))
        .filter((d) => d.pushToken && (d._registeredPos as number) < n._pos);
      const message = { title: n.title, body: n.body, data: { notificationId: n.id, kind: n.kind, source: n.source } };
      await Promise.all(targets.map((d) => push.push(d as unknown as PushDevice, message, {
        id: notificationPushId(n.id, d._id), kind: 'notification', notificationId: n.id,
      })));
    }
  };

  return joinInBackground(
    () => consumeDomainEvents(bus, app.store, app.config.KAFKA_TOPIC, `push.${app.config.KAFKA_TOPIC}`, app.codec, pushEvent, new Set(NOTIFYING_TYPES)),
    (err, delay) => log.warn({ err, delay }, 'the push consumer could not join its consumer group; retrying'),
  );
}
