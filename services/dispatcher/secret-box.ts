/**
 * Signing secrets at rest: AES-256-GCM sealed with a key derived from the server secret and a purpose, so a copy of
 * the read store alone reveals none of them.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';

/** A new signing secret as receivers see it (`whsec_…`). */
export const newSigningSecret = () => `whsec_${randomBytes(24).toString('base64url')}`;

export class SecretBox {
  private readonly key: Buffer;

  constructor(serverSecret: string, purpose: string) {
    this.key = createHash('sha256').update(`${purpose}\u0000${serverSecret}`).digest();
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(secret, 'utf8'), cipher.final()]);
    return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
  }

  open(sealed: string): string {
    const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
    const decipher = createDecipheriv('aes-256-gcm', this.key, iv);
    decipher.setAuthTag(tag);
    return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
  }
}
