/**
 * The host behind the public booking figure: a 15-minute meeting type open around the clock every day (UTC), so
 * request i of the load books its own slot (15 minutes apart, from tomorrow on) and every booking that comes back
 * 201 went through the engine's check and the host's one schedule stream.
 */
import { json } from './util';

export const BOOKING_STEP_MS = 15 * 60_000;
/** Slots that fit in the booking horizon (366 days of 96 starts), less the first day. */
export const BOOKING_SLOTS = 365 * 96;

/** Creates the meeting type for the user behind `token`; answers the booking path and the first slot's instant. */
export async function createBookingHost(base: string, token: string): Promise<{ path: string; baseMs: number }> {
  const auth = { authorization: `Bearer ${token}` };
  const me = await json(`${base}/me`, 'GET', undefined, auth);
  const type = await json(`${base}/meeting-types`, 'POST', {
    name: 'Bench call', slug: 'bench-call', durationMinutes: 15,
    hours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, startMinute: 0, endMinute: 1440 })),
  }, auth);
  if (me.status !== 200 || type.status !== 201) throw new Error(`booking host: ${me.status} ${type.status} ${JSON.stringify(type.body)}`);
  const tomorrow = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;
  return { path: `/api/v1/public/${me.body.user.username}/bench-call/bookings`, baseMs: tomorrow };
}

/** Body of booking `i`: slot i of the host's calendar, a guest of its own. */
export function bookingBody(baseMs: number, i: number) {
  return { startsAt: new Date(baseMs + i * BOOKING_STEP_MS).toISOString(), guest: { name: `Guest ${i}`, email: `guest${i}@example.com` } };
}
