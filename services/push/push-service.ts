/** Picks the provider for a device (by PUSH_MODE and platform), sends, and records every push on the device. */
import { parseWebPushToken, type PushRecord } from '../../contracts/devices';
import type { Config } from '../config';
import type { ReadStore } from '../readstore/read-store.port';
import { gatewayProvider } from './gateway.provider';
import { PushLog } from './push-log';
import { recordingProvider, type PushMessage, type PushProvider, type PushTarget } from './push.port';
import { vapidKeys, type VapidKeys } from './vapid';
import { webPushProvider } from './web-push.provider';

export interface PushDevice extends PushTarget {
  id: string;
  userId: string;
}

type PushConfig = Pick<Config, 'PUSH_MODE' | 'PUSH_GATEWAY_URL' | 'PUSH_GATEWAY_TOKEN' | 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY' | 'VAPID_SUBJECT' | 'PUSH_ALLOW_PRIVATE_ENDPOINTS'>;

export class PushService {
  readonly log: PushLog;
  private keys: Promise<VapidKeys> | null = null;
  private readonly web: PushProvider;
  private readonly gateway: PushProvider;

  constructor(private readonly config: PushConfig, private readonly store: ReadStore) {
    this.log = new PushLog(store);
    this.web = webPushProvider(() => this.vapid(), config.VAPID_SUBJECT, config.PUSH_ALLOW_PRIVATE_ENDPOINTS);
    this.gateway = gatewayProvider(config.PUSH_GATEWAY_URL, config.PUSH_GATEWAY_TOKEN);
  }

  vapid(): Promise<VapidKeys> {
    this.keys ??= vapidKeys(this.config, this.store).catch((err) => {
      this.keys = null;
      throw err;
    });
    return this.keys;
  }

  private provider(device: PushTarget): PushProvider {
    if (this.config.PUSH_MODE === 'record') return recordingProvider;
    // A web token is a PushSubscription (Web Push) or an opaque one the gateway knows how to reach (FCM for web).
    return device.platform === 'web' && parseWebPushToken(device.pushToken) ? this.web : this.gateway;
  }

  /**
   * Sends one push and records it under `id`. Null when a push with this id was claimed before (a redelivered
   * notification): it is not sent again.
   */
  async push(device: PushDevice, message: PushMessage, push: Pick<PushRecord, 'id' | 'kind' | 'notificationId'>): Promise<PushRecord | null> {
    const provider = this.provider(device);
    const pending: PushRecord = { ...push, provider: provider.name, outcome: 'pending', status: null, error: null, at: new Date().toISOString() };
    if (!(await this.log.claim(pending, device))) return null;
    const outcome = await provider.send(device, message);
    const record: PushRecord = { ...pending, ...outcome };
    await this.log.finish(record);
    return record;
  }
}
