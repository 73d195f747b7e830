/**
 * The team behind the POST /meeting-suggestions figure: an organizer and 9 colleagues in three zones, each sharing
 * their calendar with the organizer as freeBusyReader; every colleague has a daily stand-up series and three meetings
 * each working day of the 14 days asked. The measured request asks for 30-minute meetings of all 10 over those days.
 *
 * Alone: `node dist/test/bench/suggestions-bench.js` (after a build) starts a service child, seeds the team and
 * prints the server's CPU per answer and the latency percentiles of BENCH_SECONDS of load.
 */
import { cpuSecondsOf, startServiceChild } from './children';
import { runLoad } from './http-load';
import { benchSeconds, fmt, json, signUp, type User } from './util';

export const SUGGESTION_ATTENDEES = 10;
export const SUGGESTION_DAYS = 14;
const FIRST_DAY = Date.UTC(2032, 1, 2); // Monday 2 February 2032, far from DST and the other benches' data
const ZONES = ['Europe/Berlin', 'Europe/London', 'America/New_York'];
/** Their offsets from UTC in February, in hours: meetings are placed on each colleague's local working day. */
const OFFSETS = [1, 0, -5];
const DAY_MS = 86_400_000;
const HOUR_MS = 3_600_000;

async function post(base: string, u: User, path: string, body: unknown) {
  const res = await json(`${base}${path}`, 'POST', body, { authorization: `Bearer ${u.token}` });
  if (res.status !== 201) throw new Error(`POST ${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
  return res.body;
}

/** A colleague's fortnight: a daily stand-up, and three meetings each working day at local hours that move with the day. */
async function fillCalendar(base: string, u: User, i: number): Promise<void> {
  const zone = ZONES[i % ZONES.length];
  const me = await json(`${base}/me`, 'PATCH', { timeZone: zone }, { authorization: `Bearer ${u.token}` });
  if (me.status !== 200) throw new Error(`setting the zone: ${me.status}`);
  const local = (hour: number) => (hour - OFFSETS[i % ZONES.length]) * HOUR_MS;
  const standup = FIRST_DAY + local(9) + (i % 4) * 15 * 60_000;
  await post(base, u, '/events', {
    title: 'Stand-up', startsAt: new Date(standup).toISOString(), endsAt: new Date(standup + 15 * 60_000).toISOString(), timeZone: zone,
    recurrenceRule: 'FREQ=DAILY;BYDAY=MO,TU,WE,TH,FR',
  });
  for (let d = 0; d < SUGGESTION_DAYS; d++) {
    if (new Date(FIRST_DAY + d * DAY_MS).getUTCDay() % 6 === 0) continue;
    for (let m = 0; m < 3; m++) {
      const start = FIRST_DAY + d * DAY_MS + local(9.5 + ((i + d + 3 * m) % 7));
      await post(base, u, '/events', {
        title: `Meeting ${d}.${m}`, startsAt: new Date(start).toISOString(), endsAt: new Date(start + 45 * 60_000).toISOString(), allowOverlap: true,
      });
    }
  }
}

/** Seeds the team; answers the organizer and the body of the measured request. */
export async function seedSuggestionsTeam(base: string): Promise<{ organizer: User; body: Record<string, unknown> }> {
  const organizer = await signUp(base);
  const colleagues = await Promise.all(Array.from({ length: SUGGESTION_ATTENDEES - 1 }, () => signUp(base)));
  await Promise.all(colleagues.map(async (c, i) => {
    await fillCalendar(base, c, i);
    const calendarId = (await json(`${base}/me`, 'GET', undefined, { authorization: `Bearer ${c.token}` })).body.user.defaultCalendarId;
    await post(base, c, `/calendars/${calendarId}/members`, { email: organizer.email, role: 'freeBusyReader' });
  }));
  const body = {
    attendees: [organizer.email, ...colleagues.map((c) => c.email)], durationMinutes: 30,
    from: new Date(FIRST_DAY).toISOString(), to: new Date(FIRST_DAY + SUGGESTION_DAYS * DAY_MS).toISOString(), minimumAttendeePercentage: 70,
  };
  return { organizer, body };
}

async function alone(): Promise<void> {
  const seconds = benchSeconds();
  const service = await startServiceChild();
  try {
    const base = `${service.url}/api/v1`;
    const { organizer, body } = await seedSuggestionsTeam(base);
    const sample = await json(`${base}/meeting-suggestions`, 'POST', body, { authorization: `Bearer ${organizer.token}` });
    if (sample.status !== 200 || !sample.body.suggestions?.length) throw new Error(`check: ${sample.status} ${JSON.stringify(sample.body).slice(0, 300)}`);
    process.stdout.write(`${sample.body.suggestions.length} suggestions, best ${sample.body.suggestions[0].confidence} %\n`);
    const spec = { kind: 'post-json' as const, url: service.url, seconds, token: organizer.token, path: '/api/v1/meeting-suggestions', body, connections: 10 };
    await runLoad('warmup', { ...spec, seconds: Math.min(2, seconds) });
    const cpu0 = cpuSecondsOf(service.child.pid);
    const r = await runLoad('POST /meeting-suggestions', spec);
    const cpu1 = cpuSecondsOf(service.child.pid);
    const perAnswer = cpu0 === null || cpu1 === null ? 'unknown' : `${fmt(((cpu1 - cpu0) * 1e6) / Math.max(1, r.ok), 0)} µs`;
    process.stdout.write(`${fmt(r.rps, 0)} answers/s, p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms, server CPU per answer ${perAnswer} [${JSON.stringify(r.statusCodes)}]\n`);
  } finally {
    await service.stop();
  }
}

if (require.main === module) {
  alone().catch((err) => {
    process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
    process.exit(1);
  });
}
