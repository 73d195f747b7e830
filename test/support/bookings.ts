/** Helpers of the booking suites: a host with a meeting type open around the clock, slots, bookings. */
import { addDays, isoWeekday, localDate } from '../../services/time/local-time';
import { request, signUp, type ApiResponse, type Client } from './service';

export const ALL_DAY_EVERY_DAY = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, startMinute: 0, endMinute: 1440 }));

export interface Host {
  client: Client;
  username: string;
  type: Record<string, any>;
  /** `/public/{username}/{slug}` */
  page: string;
}

/** A new user with a meeting type bookable at any hour (unless `type` says otherwise). */
export async function hostWithType(base: string, type: Record<string, unknown> = {}, profile: Record<string, unknown> = {}): Promise<Host> {
  const client = await signUp(base, profile);
  const me = await client.call('GET', '/me');
  const res = await client.call('POST', '/meeting-types', {
    name: 'Intro call', slug: 'intro', durationMinutes: 30, hours: ALL_DAY_EVERY_DAY, ...type,
  });
  if (res.status !== 201) throw new Error(`meeting type: ${res.status} ${JSON.stringify(res.body)}`);
  const username = me.body.user.username as string;
  return { client, username, type: res.body.meetingType, page: `/public/${username}/${res.body.meetingType.slug}` };
}

export async function slotsOf(base: string, host: Host, query = ''): Promise<Array<{ startsAt: string; endsAt: string; date: string; time: string; seatsLeft: number }>> {
  const res = await request(base, 'GET', `${host.page}/slots${query}`);
  if (res.status !== 200) throw new Error(`slots: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.slots;
}

export const guest = (n = 0) => ({ name: `Guest ${n}`, email: `guest${n}@example.com` });

export function book(base: string, host: Host, startsAt: string, extra: Record<string, unknown> = {}): Promise<ApiResponse> {
  return request(base, 'POST', `${host.page}/bookings`, { startsAt, guest: guest(), ...extra });
}

/** Books the slot and expects 201; returns the answer's booking and token. */
export async function booked(base: string, host: Host, startsAt: string, extra: Record<string, unknown> = {}) {
  const res = await book(base, host, startsAt, extra);
  if (res.status !== 201) throw new Error(`booking: ${res.status} ${JSON.stringify(res.body)}`);
  return { booking: res.body.booking as Record<string, any>, token: res.body.manageToken as string, position: res.headers.get('x-calendar-position')! };
}

export const asGuest = (token: string) => ({ 'X-Booking-Token': token });

/** A Monday at least 8 days ahead in `timeZone` (clear of notice and of today). */
export function mondayAhead(timeZone: string): string {
  let date = addDays(localDate(Date.now(), timeZone), 8);
  while (isoWeekday(date) !== 1) date = addDays(date, 1);
  return date;
}
