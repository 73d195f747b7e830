/** Helpers of the assistant suites: a user in a zone far from local midnight, with working hours every day. */
import { addDays, epochAt, localDate, wallClock } from '../../services/assistant/calendar-time';
import { signUp, type ApiResponse, type Client } from './service';

/** 08:00-20:00 every day, so what the assistant proposes does not depend on the weekday the suite runs on. */
export const EVERY_DAY_8_TO_20 = [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, startMinute: 480, endMinute: 1200 }));

/** A zone (never the process's) where it is now between 01:00 and 21:00, so "today" and "tomorrow" hold for a while. */
export function zoneAwayFromMidnight(now = Date.now()): string {
  for (const zone of ['Asia/Tokyo', 'Europe/Berlin', 'America/Los_Angeles', 'Pacific/Auckland', 'Asia/Kolkata']) {
    const hour = Number(wallClock(now, zone).local.slice(11, 13));
    if (hour >= 1 && hour < 21) return zone;
  }
  throw new Error('no zone found (cannot happen: the candidates are spread over the day)');
}

export interface AssistantUser extends Client {
  zone: string;
  today: string;
  /** The instant of a date and local time (minutes) in the user's zone. */
  at(date: string, minute: number): number;
  day(offset: number): string;
}

export async function assistantUser(base: string, zone = zoneAwayFromMidnight()): Promise<AssistantUser> {
  const client = await signUp(base, { timeZone: zone });
  const res = await client.call('PATCH', '/me', { preferences: { workingHours: EVERY_DAY_8_TO_20 } });
  if (res.status !== 200) throw new Error(`profile update failed: ${res.status}`);
  const today = localDate(Date.now(), zone);
  return { ...client, zone, today, at: (date, minute) => epochAt(date, minute, zone), day: (offset) => addDays(today, offset) };
}

export const iso = (ms: number) => new Date(ms).toISOString();

/** The next date after `today` (never today) with this ISO weekday. */
export function nextWeekday(today: string, weekday: number): string {
  for (let k = 1; k <= 7; k++) {
    const date = addDays(today, k);
    if (((new Date(`${date}T00:00:00Z`).getUTCDay() + 6) % 7) + 1 === weekday) return date;
  }
  throw new Error('unreachable');
}

export async function createEvent(c: AssistantUser, title: string, start: number, minutes: number, extra: Record<string, unknown> = {}) {
  const res = await c.call('POST', '/events', { title, startsAt: iso(start), endsAt: iso(start + minutes * 60_000), ...extra });
  if (res.status !== 201) throw new Error(`event not created: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body.event as Record<string, any>;
}

export async function say(c: Client, text: string, extra: Record<string, unknown> = {}): Promise<ApiResponse> {
  const res = await c.call('POST', '/assistant/messages', { text, ...extra });
  if (res.status !== 200) throw new Error(`message refused: ${res.status} ${JSON.stringify(res.body)}`);
  return res;
}

export const decide = (c: Client, suggestionId: string, decision: string) => c.call('POST', `/assistant/actions/${suggestionId}`, { decision });
