/**
 * What makes two push tokens the same: the token itself for ios/android; for web, the subscription's endpoint (a
 * browser may hand over the same subscription with its keys in another order, or renewed keys). Web tokens are kept
 * in one canonical JSON form.
 */
import { parseWebPushToken, type Platform } from '../../contracts/devices';
import { sha256 } from '../../services/ids';

export function canonicalToken(platform: Platform, token: string): { pushToken: string; identity: string } {
  const subscription = platform === 'web' ? parseWebPushToken(token) : null;
  if (!subscription) return { pushToken: token, identity: `native:${token}` };
  const { endpoint, expirationTime, keys } = subscription;
  return {
    pushToken: JSON.stringify({ endpoint, expirationTime: expirationTime ?? null, keys: { p256dh: keys.p256dh, auth: keys.auth } }),
    identity: `web:${endpoint}`,
  };
}

/** Names the claim stream of a token for one user. */
export const pushTokenKey = (userId: string, identity: string) => sha256(`${userId}\u0000${identity}`);
