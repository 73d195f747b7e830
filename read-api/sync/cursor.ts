/**
 * Sync cursors are opaque to clients: a log position and the time it was issued, signed so that a cursor the
 * server did not issue is recognised (410 cursor_expired), as is one older than the retention window.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Keyring } from '../../services/keyring';

export interface CursorClaims {
  position: number;
  issuedAt: number;
}

const sign = (secret: string, payload: string) => createHmac('sha256', secret).update(payload).digest('base64url').slice(0, 22);

export function encodeCursor(keys: Keyring, position: number, now = Date.now()): string {
  const payload = Buffer.from(`${position}.${now}`).toString('base64url');
  return `c1.${payload}.${sign(keys.current, payload)}`;
}

/** The cursor's claims, or null when it is not one this server signed. */
export function decodeCursor(keys: Keyring, cursor: string): CursorClaims | null {
  const m = /^c1\.([A-Za-z0-9_-]+)\.([A-Za-z0-9_-]{22})$/.exec(cursor);
  if (!m) return null;
  const given = Buffer.from(m[2]);
  if (!keys.verifying.some((secret) => timingSafeEqual(Buffer.from(sign(secret, m[1])), given))) return null;
  const [position, issuedAt] = Buffer.from(m[1], 'base64url').toString().split('.').map(Number);
  if (!Number.isSafeInteger(position) || !Number.isSafeInteger(issuedAt)) return null;
  return { position, issuedAt };
}
