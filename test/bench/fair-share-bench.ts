/**
 * One user's many legal, expensive reads against everyone else (issue 32's calendar): a user whose calendar holds 22
 * hourly series and a daily routine keeps 30 requests in flight against one heavy endpoint at a time, honouring
 * Retry-After as a well-behaved client does, while a probe asks /healthz every 20 ms and another user writes an event
 * and reads it back. The service runs in a child process, so its event loop is not this one; answers are read but not
 * parsed here (parsing megabytes would slow the probe, not the service).
 */
import { startServiceChild } from './children';
import { phase, type HostilePhase } from './hostile-bench';
import { json, sleep, signUp, type User } from './util';

export const FAIR_SHARE_SERIES = 22;
export const FAIR_SHARE_CONCURRENCY = 30;
const FIRST_DAY = '2032-01-05';

/** The heavy reads, each as its path below /api/v1. */
export const HEAVY_READS: Array<[name: string, path: string]> = [
  ['availability', `/availability?from=${FIRST_DAY}&days=14`],
  ['free-busy', `/free-busy?from=${FIRST_DAY}T00:00:00Z&to=2032-03-07T00:00:00Z`],
  ['routine conflicts', `/routines/conflicts?from=${FIRST_DAY}&days=14`],
  ['available slots', `/available-slots?from=${FIRST_DAY}&days=14&minimumMinutes=10`],
];

async function seedHeavyCalendar(base: string, u: User): Promise<void> {
  const auth = { authorization: `Bearer ${u.token}` };
  for (let i = 0; i < FAIR_SHARE_SERIES; i++) {
    const start = Date.parse(`${FIRST_DAY}T00:00:00Z`) + i * 2 * 60_000;
    const res = await json(`${base}/events`, 'POST', {
      title: `Hourly ${i}`, startsAt: new Date(start).toISOString(), endsAt: new Date(start + 30 * 60_000).toISOString(),
      recurrenceRule: 'FREQ=HOURLY', allowOverlap: true,
    }, auth);
    if (res.status !== 201) throw new Error(`creating series ${i}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  const periods = [{ name: 'Morning run', startMinute: 420, endMinute: 480, windowStartMinute: 360, windowEndMinute: 600, canMove: true }];
  const routine = await json(`${base}/routines`, 'POST', { name: 'Mornings', days: [1, 2, 3, 4, 5, 6, 7], periods }, auth);
  if (routine.status !== 201) throw new Error(`creating the routine: ${routine.status} ${JSON.stringify(routine.body)}`);
}

export async function fairShareBench(seconds: number): Promise<Array<HostilePhase & { path: string }>> {
  const service = await startServiceChild();
  const base = `${service.url}/api/v1`;
  try {
    const attacker = await signUp(base);
    const victim = await signUp(base);
    await seedHeavyCalendar(base, attacker);
    const auth = { authorization: `Bearer ${attacker.token}` };
    const phases: Array<HostilePhase & { path: string }> = [];
    for (const [name, path] of HEAVY_READS) {
      const read = async () => {
        const res = await fetch(`${base}${path}`, { headers: auth });
        await res.arrayBuffer();
        if (res.status === 429 || res.status === 503) await sleep(1000 * Number(res.headers.get('retry-after') ?? '1'));
        return res;
      };
      const label = `${FAIR_SHARE_CONCURRENCY} at once of GET ${path.split('?')[0]} (${FAIR_SHARE_SERIES} hourly series)`;
      phases.push({ name, path, ...(await phase(label, seconds, FAIR_SHARE_CONCURRENCY, read, service.url, base, { authorization: `Bearer ${victim.token}` })) });
    }
    return phases;
  } finally {
    await service.stop();
  }
}
