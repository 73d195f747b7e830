/**
 * The push port: one message to one device token. Adapters: the recording provider (the default: nothing leaves
 * the service), Web Push (web-push.provider.ts) and an HTTP gateway for ios/android (gateway.provider.ts).
 */
import type { Platform, PushRecord } from '../../contracts/devices';

export interface PushMessage {
  title: string;
  body: string | null;
  /** Small JSON the app receives with it (notification id, kind, source). */
  data: Record<string, unknown>;
}

export interface PushTarget {
  platform: Platform;
  pushToken: string;
}

export type PushOutcome = Pick<PushRecord, 'outcome' | 'status' | 'error'>;

export interface PushProvider {
  readonly name: PushRecord['provider'];
  /** Never throws: a failure is an outcome. */
  send(target: PushTarget, message: PushMessage): Promise<PushOutcome>;
}

export const PUSH_TIMEOUT_MS = 10_000;

/** Keeps the push in the device's log only. */
export const recordingProvider: PushProvider = {
  name: 'recording',
  send: async () => ({ outcome: 'recorded', status: null, error: null }),
};
