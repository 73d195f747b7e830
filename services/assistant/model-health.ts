/**
 * Whether the configured model answered last time, shared by every API process through the read store (state, not
 * events): GET /assistant/status reports it, and says the built-in assistant answers while the model fails.
 */
import type { ReadStore } from '../readstore/read-store.port';

export interface ModelHealthView {
  connected: boolean;
  lastError: { at: string; message: string } | null;
}

interface HealthDoc {
  _id: string;
  okAt: string | null;
  failedAt: string | null;
  error: string | null;
  [field: string]: unknown;
}

export class ModelHealth {
  private readonly docs;

  constructor(store: ReadStore) {
    this.docs = store.collection<HealthDoc>('_assistant_model');
  }

  private async update(change: Partial<HealthDoc>): Promise<void> {
    const current = await this.docs.get('health');
    await this.docs.put({ _id: 'health', okAt: null, failedAt: null, error: null, ...current, ...change });
  }

  answered = (at = new Date()) => this.update({ okAt: at.toISOString() });
  failed = (message: string, at = new Date()) => this.update({ failedAt: at.toISOString(), error: message.slice(0, 500) });

  async view(): Promise<ModelHealthView> {
    const doc = await this.docs.get('health');
    const failing = !!doc?.failedAt && (!doc.okAt || doc.failedAt > doc.okAt);
    return { connected: !failing, lastError: failing ? { at: doc!.failedAt!, message: doc!.error ?? '' } : null };
  }
}
