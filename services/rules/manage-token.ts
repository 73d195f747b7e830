/**
 * The guest's manage token: derived from the server secret and the booking id, so the mail sent later can carry
 * the same links as the booking answer; only its hash is stored (in the schedule and the bookings read model).
 */
import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError } from '../errors';
import { sha256 } from '../ids';

export const BOOKING_TOKEN_HEADER = 'X-Booking-Token';

export const manageTokenFor = (serverSecret: string, bookingId: string): string =>
  `bk_${createHmac('sha256', serverSecret).update(`booking-manage:${bookingId}`).digest('base64url')}`;

export const manageTokenHash = (token: string): string => sha256(token);

export function tokenMatches(token: string, storedHash: string | null): boolean {
  if (!storedHash) return false;
  const given = Buffer.from(manageTokenHash(token), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The token a guest's request carries; 401 without one. */
export function tokenOf(header: (name: string) => string | undefined): string {
  const token = header(BOOKING_TOKEN_HEADER)?.trim();
  if (!token) throw new ApiError(401, 'unauthenticated', `Send the booking's manage token in ${BOOKING_TOKEN_HEADER}`);
  return token;
}
