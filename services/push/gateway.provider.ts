/**
 * ios, android and opaque web tokens pushed through an HTTP gateway (one that holds the APNs and FCM credentials):
 * a JSON POST of `{platform, token, notification: {title, body}, data}` to PUSH_GATEWAY_URL; any 2xx is sent.
 */
import { post } from '../dispatcher/send';
import { PUSH_TIMEOUT_MS, type PushProvider } from './push.port';

export function gatewayProvider(url: string | undefined, token: string | undefined): PushProvider {
  return {
    name: 'gateway',
    async send(target, message) {
      if (!url) return { outcome: 'failed', status: null, error: 'no push gateway is configured (PUSH_GATEWAY_URL)' };
      const body = JSON.stringify({
        platform: target.platform, token: target.pushToken, notification: { title: message.title, body: message.body }, data: message.data,
      });
      const headers: Record<string, string> = { 'content-type': 'application/json', 'user-agent': 'Calendar-Push/1.0' };
      if (token) headers.authorization = `Bearer ${token}`;
      // The operator chose the gateway: it may live on a private network.
      const result = await post(url, body, headers, { timeoutMs: PUSH_TIMEOUT_MS, allowPrivate: true });
      return result.ok
        ? { outcome: 'sent', status: result.status, error: null }
        : { outcome: 'failed', status: result.status, error: result.error };
    },
  };
}
