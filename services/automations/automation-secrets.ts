/**
 * Each automation's signing secret for its `call_webhook` requests, sealed in the read store (`_automation_secrets`)
 * rather than carried by its events: the log keeps everything forever and is exported and relayed as it is.
 */
import type { Collection, Doc, ReadStore } from '../readstore/read-store.port';
import type { Keyring, Sealer } from '../keyring';
import { newSigningSecret } from '../dispatcher/signing-secret';

interface SecretDoc extends Doc {
  userId: string;
  sealed: string;
}

export class AutomationSecrets {
  private readonly secrets: Collection<SecretDoc>;
  private readonly box: Sealer;

  constructor(store: ReadStore, keys: Keyring) {
    this.secrets = store.collection<SecretDoc>('_automation_secrets');
    this.box = keys.sealer('automation-secret');
  }

  /** A new secret for the automation; a retried create (same id) gets the one made the first time. */
  async create(automationId: string, userId: string): Promise<string> {
    const secret = newSigningSecret();
    if (await this.secrets.insertNew({ _id: automationId, userId, sealed: this.box.seal(secret) })) return secret;
    const existing = await this.secrets.get(automationId);
    if (!existing || existing.userId !== userId) throw new Error(`automation id ${automationId} is taken by another user`);
    return this.box.open(existing.sealed);
  }

  async get(automationId: string): Promise<string | null> {
    const doc = await this.secrets.get(automationId);
    return doc ? this.box.open(doc.sealed) : null;
  }

  delete(automationId: string): Promise<void> {
    return this.secrets.delete(automationId);
  }
}
