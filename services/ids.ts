import { hash, randomUUID } from 'node:crypto';

/** A name-based (version 5 layout) uuid: the same inputs always give the same id. */
export function deterministicUuid(...parts: string[]): string {
  const h = hash('sha1', parts.join('\u0000'), 'buffer');
  h[6] = (h[6] & 0x0f) | 0x50;
  h[8] = (h[8] & 0x3f) | 0x80;
  const hex = h.subarray(0, 16).toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}

export const newId = (): string => randomUUID();

/** One-shot hashing: a Hash object per call cost several microseconds per request under load. */
export const sha256 = (text: string): string => hash('sha256', text, 'hex');
