/** A browser's side of Web Push for tests: a subscription to a local endpoint, and reading what was pushed to it. */
import { createECDH, randomBytes } from 'node:crypto';

// http_ece comes with web-push (the sending side); here it decrypts as a browser would.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ece = require('http_ece') as { decrypt(body: Buffer, params: Record<string, unknown>): Buffer };

export function webSubscription(endpoint: string) {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  const keys = { p256dh: ecdh.getPublicKey().toString('base64url'), auth: auth.toString('base64url') };
  return {
    keys,
    token: JSON.stringify({ endpoint, expirationTime: null, keys }),
    /** The JSON a push to this subscription carried (aes128gcm, RFC 8291). */
    decrypt: (body: Buffer): any => JSON.parse(ece.decrypt(body, { version: 'aes128gcm', privateKey: ecdh, authSecret: keys.auth }).toString('utf8')),
  };
}
