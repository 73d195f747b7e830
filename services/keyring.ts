/**
 * Server keys with rotation. `SERVER_SECRET` and `OAUTH_JWT_SECRET` take a comma list: the first key signs and
 * encrypts, every key in the list verifies and decrypts, so a new key goes first and the old one stays behind it
 * until what it signed or sealed has aged out.
 *
 * Without a configured key, one is generated and kept in the read store (`_settings`), beside the data it protects:
 * fine for a laptop, not for production (the service warns at start). Once a key is configured, a generated key
 * still found in the store only decrypts what it sealed before (webhook secrets, stored replies); it never again
 * verifies a signature, since anyone who can read the store could sign with it.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { ReadStore } from './readstore/read-store.port';

/** Encrypts short texts (AES-256-GCM, a key derived per purpose); opens what any key of the ring sealed. */
export interface Sealer {
  seal(text: string): string;
  open(sealed: string): string;
}

export class Keyring {
  constructor(
    /** Signing keys, newest first. */
    readonly verifying: readonly string[],
    /** Keys that only decrypt (a generated key replaced by a configured one). */
    private readonly decryptOnly: readonly string[] = [],
  ) {
    if (verifying.length === 0) throw new Error('a keyring needs at least one key');
  }

  /** The key that signs and encrypts. */
  get current(): string {
    return this.verifying[0];
  }

  sealer(purpose: string): Sealer {
    const derive = (secret: string) => createHash('sha256').update(`${purpose}\u0000${secret}`).digest();
    const sealing = derive(this.current);
    const opening = [...this.verifying, ...this.decryptOnly].map(derive);
    return {
      seal(text) {
        const iv = randomBytes(12);
        const cipher = createCipheriv('aes-256-gcm', sealing, iv);
        const data = Buffer.concat([cipher.update(text, 'utf8'), cipher.final()]);
        return [iv, cipher.getAuthTag(), data].map((b) => b.toString('base64url')).join('.');
      },
      open(sealed) {
        const [iv, tag, data] = sealed.split('.').map((p) => Buffer.from(p, 'base64url'));
        for (const key of opening) {
          try {
            const decipher = createDecipheriv('aes-256-gcm', key, iv);
            decipher.setAuthTag(tag);
            return Buffer.concat([decipher.update(data), decipher.final()]).toString('utf8');
          } catch {
            /* sealed under another key of the ring */
          }
        }
        throw new Error('sealed with a key this server no longer has');
      },
    };
  }
}

/** A comma list of keys, as the *_SECRET variables take them. */
export const keyList = (value: string) => value.split(',').map((k) => k.trim()).filter((k) => k.length > 0);

/**
 * The ring for one setting: the configured keys, else one generated once and kept in `_settings` under `name`.
 * `generated` tells the caller to warn.
 */
export async function loadKeyring(configured: readonly string[] | undefined, store: ReadStore, name: string): Promise<{ ring: Keyring; generated: boolean }> {
  const settings = store.collection('_settings');
  if (configured?.length) {
    const stored = (await settings.get(name))?.value as string | undefined;
    return { ring: new Keyring(configured, stored ? [stored] : []), generated: false };
  }
  await settings.insertNew({ _id: name, value: randomBytes(32).toString('base64url') });
  return { ring: new Keyring([(await settings.get(name))!.value as string]), generated: true };
}
