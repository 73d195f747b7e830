/**
 * The calendar behind the GET /available-slots figure: 2,000 single events, one every 20 minutes (10 minutes long)
 * for four weeks, and 10 recurring series on top (daily and weekly, some in another zone), for an owner in
 * Europe/Berlin. The measured request asks for 14 days of it, so about half the events and every series count.
 */
import { json } from './util';

export const SLOT_EVENTS = 2000;
export const SLOT_SERIES = 10;
export const SLOT_DAYS = 14;
const FIRST_DAY = '2032-01-05'; // a Monday, far from DST and from the other benches' data
const STEP_MS = 20 * 60_000;

function seriesBody(i: number) {
  const start = Date.parse(`${FIRST_DAY}T00:00:00Z`) + (8 + (i % 9)) * 3_600_000 + 5 * 60_000;
  return {
    title: `Series ${i}`,
    startsAt: new Date(start).toISOString(),
    endsAt: new Date(start + 25 * 60_000).toISOString(),
    timeZone: i % 2 ? 'America/New_York' : 'Europe/Berlin',
    recurrenceRule: i % 3 ? 'FREQ=DAILY' : 'FREQ=WEEKLY;BYDAY=MO,WE,FR',
    kind: i % 4 ? 'meeting' : 'focus',
    allowOverlap: true,
  };
}

/** Fills the calendar of the user behind `token` and answers the path to measure. */
export async function seedSlotCalendar(base: string, token: string): Promise<string> {
  const auth = { authorization: `Bearer ${token}` };
  const me = await json(`${base}/me`, 'PATCH', { timeZone: 'Europe/Berlin' }, auth);
  if (me.status !== 200) throw new Error(`setting the zone: ${me.status}`);
  const first = Date.parse(`${FIRST_DAY}T00:00:00Z`);
  let next = 0;
  const worker = async () => {
    while (next < SLOT_EVENTS) {
      const i = next++;
      const start = first + i * STEP_MS;
      const body = { title: `Busy ${i}`, startsAt: new Date(start).toISOString(), endsAt: new Date(start + 10 * 60_000).toISOString() };
      const res = await json(`${base}/events`, 'POST', body, auth);
      if (res.status !== 201) throw new Error(`creating event ${i}: ${res.status} ${JSON.stringify(res.body)}`);
    }
  };
  await Promise.all(Array.from({ length: 8 }, worker));
  for (let i = 0; i < SLOT_SERIES; i++) {
    const res = await json(`${base}/events`, 'POST', seriesBody(i), auth);
    if (res.status !== 201) throw new Error(`creating series ${i}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return `/api/v1/available-slots?from=${FIRST_DAY}&days=${SLOT_DAYS}&minimumMinutes=10`;
}
