/**
 * Web Push (RFC 8030 with VAPID, RFC 8292, and aes128gcm payload encryption, RFC 8291) through the `web-push`
 * package, which builds the encrypted request; we send it ourselves so the endpoint (chosen by the browser, so
 * untrusted) goes through the same private-address guard as webhooks.
 */
import webpush from 'web-push';
import { parseWebPushToken } from '../../contracts/devices';
import { post } from '../dispatcher/send';
import { PUSH_TIMEOUT_MS, type PushProvider } from './push.port';
import type { VapidKeys } from './vapid';

const TTL_SECONDS = 24 * 3600;

export function webPushProvider(vapid: () => Promise<VapidKeys>, subject: string, allowPrivate: boolean): PushProvider {
  return {
    name: 'web-push',
    async send(target, message) {
      const failed = (error: string, status: number | null = null) => ({ outcome: 'failed' as const, status, error });
      const subscription = parseWebPushToken(target.pushToken);
      if (!subscription) return failed('the push token is not a Web Push subscription');
      if (!allowPrivate && !subscription.endpoint.startsWith('https://')) return failed('Web Push endpoints must be https');
      const keys = await vapid();
      let request: ReturnType<typeof webpush.generateRequestDetails>;
      try {
        request = webpush.generateRequestDetails(subscription, JSON.stringify(message), {
          vapidDetails: { subject, publicKey: keys.publicKey, privateKey: keys.privateKey },
          TTL: TTL_SECONDS,
          contentEncoding: 'aes128gcm',
        });
      } catch (err) {
        return failed(`could not build the push: ${(err as Error).message}`);
      }
      const headers = Object.fromEntries(Object.entries(request.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
      const result = await post(request.endpoint, request.body ?? Buffer.alloc(0), headers, { timeoutMs: PUSH_TIMEOUT_MS, allowPrivate });
      if (result.ok) return { outcome: 'sent', status: result.status, error: null };
      const gone = result.status === 404 || result.status === 410;
      return failed(gone ? 'the subscription has expired or was unsubscribed' : result.error ?? 'failed', result.status);
    },
  };
}
