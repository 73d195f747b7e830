/** The VAPID key pair web pushes are signed with: configured, or generated once and kept in the read store. */
import webpush from 'web-push';
import type { Config } from '../config';
import type { ReadStore } from '../readstore/read-store.port';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
}

export async function vapidKeys(config: Pick<Config, 'VAPID_PUBLIC_KEY' | 'VAPID_PRIVATE_KEY'>, store: ReadStore): Promise<VapidKeys> {
  if (config.VAPID_PUBLIC_KEY && config.VAPID_PRIVATE_KEY) {
    return { publicKey: config.VAPID_PUBLIC_KEY, privateKey: config.VAPID_PRIVATE_KEY };
  }
  const settings = store.collection('_settings');
  await settings.insertNew({ _id: 'vapid-keys', ...webpush.generateVAPIDKeys() });
  const kept = (await settings.get('vapid-keys'))!;
  return { publicKey: kept.publicKey as string, privateKey: kept.privateKey as string };
}
