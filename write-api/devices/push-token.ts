/**
 * What makes two push tokens the same: the token itself; for a web PushSubscription, its endpoint (a browser may hand
 * over the same subscription with its keys in another order, or renewed keys). Subscriptions are kept in one
 * canonical JSON form.
 */
import { parseWebPushToken, type Platform } from '../../contracts/devices';
import { sha256 } from '../../services/ids';

export function canonicalToken(platform: Platform, token: string): { pushToken: string; identity: string } {
  const subscription = platform === 'web' ? parseWebPushToken(token) : null;
  if (!subscription) return { pushToken: token, identity: `token:${token}` };
  const { endpoint, expirationTime, keys } = subscription;
  return {
    pushToken: JSON.stringify({ endpoint, expirationTime: expirationTime ?? null, keys: { p256dh: keys.p256dh, auth: keys.auth } }),
    identity: `web:${endpoint}`,
  };
}

/** Names the claim stream of a token: one for everyone, so that two users never hold one token. */
export const pushTokenKey = (identity: string) => sha256(`push-token\u0000${identity}`);
