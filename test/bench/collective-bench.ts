/**
 * A collective booking under concurrency: an organization's owner and three hosts, a 15-minute collective type open
 * around the clock (every booking holds the slot in each host's schedule, then books it in the first host's, then
 * puts the event in the others'). Two runs: guests booking new slots at once (throughput and latency), and races
 * (RACE_GUESTS guests at once for each of RACE_SLOTS slots), after which every slot must have exactly one booking and
 * every host's calendar exactly one event per slot booked.
 *
 * Alone: `node dist/test/bench/collective-bench.js` (after a build) starts a service child and prints both, beside
 * the same load on a one-host type.
 */
import { performance } from 'node:perf_hooks';
import { createBookingHost } from './booking-bench';
import { startServiceChild } from './children';
import { runLoad } from './http-load';
import { benchSeconds, fmt, json, signUp, type User } from './util';

export const COLLECTIVE_HOSTS = 3;
export const RACE_SLOTS = 20;
export const RACE_GUESTS = 10;
const STEP_MS = 15 * 60_000;

const auth = (u: User) => ({ authorization: `Bearer ${u.token}` });

/** The owner, the hosts and the type; answers the booking path, the first slot's instant and the hosts. */
export async function seedCollectiveTeam(base: string): Promise<{ path: string; baseMs: number; hosts: User[] }> {
  const owner = await signUp(base);
  const org = await json(`${base}/organizations`, 'POST', { name: 'Bench team' }, auth(owner));
  if (org.status !== 201) throw new Error(`organization: ${org.status} ${JSON.stringify(org.body)}`);
  const hosts = await Promise.all(Array.from({ length: COLLECTIVE_HOSTS }, () => signUp(base)));
  for (const h of hosts) {
    const added = await json(`${base}/organizations/${org.body.organization.id}/members`, 'POST', { email: h.email, role: 'member' }, auth(owner));
    if (added.status !== 201) throw new Error(`member: ${added.status} ${JSON.stringify(added.body)}`);
  }
  const type = await json(`${base}/meeting-types`, 'POST', {
    name: 'Bench panel', slug: 'bench-panel', durationMinutes: 15, hosts: hosts.map((h) => h.userId), assignment: 'collective',
    hours: [1, 2, 3, 4, 5, 6, 7].map((day) => ({ day, startMinute: 0, endMinute: 1440 })),
  }, auth(owner));
  const me = await json(`${base}/me`, 'GET', undefined, auth(owner));
  if (type.status !== 201 || me.status !== 200) throw new Error(`collective type: ${type.status} ${JSON.stringify(type.body)}`);
  const tomorrow = Math.ceil(Date.now() / 86_400_000) * 86_400_000 + 86_400_000;
  return { path: `/api/v1/public/${me.body.user.username}/bench-panel/bookings`, baseMs: tomorrow, hosts };
}

export interface RaceResult {
  slots: number;
  guests: number;
  /** Slots that ended with exactly one booking, and every host holding its one event. */
  consistent: number;
  /** Latency of each race: from the first request sent to the last answer. */
  p50: number;
  max: number;
}

/** RACE_GUESTS guests at once for each of `slots` slots from `firstMs`, one slot after another; then every host's calendar is read. */
export async function collectiveRaces(url: string, path: string, firstMs: number, hosts: User[], slots = RACE_SLOTS, guests = RACE_GUESTS): Promise<RaceResult> {
  const winners: number[] = [];
  const took: number[] = [];
  for (let s = 0; s < slots; s++) {
    const startsAt = new Date(firstMs + s * STEP_MS).toISOString();
    const t0 = performance.now();
    const answers = await Promise.all(Array.from({ length: guests }, (_, g) => json(`${url}${path}`, 'POST', {
      startsAt, guest: { name: `Racer ${s}.${g}`, email: `racer${s}.${g}@example.com` },
    })));
    took.push(performance.now() - t0);
    winners.push(answers.filter((a) => a.status === 201).length);
  }
  const window = `from=${encodeURIComponent(new Date(firstMs).toISOString())}&to=${encodeURIComponent(new Date(firstMs + slots * STEP_MS).toISOString())}`;
  const perHost = await Promise.all(hosts.map(async (h) => {
    const res = await json(`${url}/api/v1/events?${window}`, 'GET', undefined, auth(h));
    return (res.body.events as Array<{ startsAt: string; title: string }>).filter((e) => e.title.startsWith('Bench panel')).map((e) => e.startsAt);
  }));
  let consistent = 0;
  for (let s = 0; s < slots; s++) {
    const startsAt = new Date(firstMs + s * STEP_MS).toISOString();
    if (winners[s] === 1 && perHost.every((starts) => starts.filter((x) => x === startsAt).length === 1)) consistent++;
  }
  const sorted = [...took].sort((a, b) => a - b);
  return { slots, guests, consistent, p50: sorted[Math.floor(sorted.length / 2)], max: sorted[sorted.length - 1] };
}

export const raceLine = (r: RaceResult) =>
  `${r.consistent}/${r.slots} slots with exactly one booking and one event in each host's calendar (${r.guests} guests a slot); a race takes p50 ${fmt(r.p50, 1)} ms, max ${fmt(r.max, 1)} ms`;

async function alone(): Promise<void> {
  const seconds = benchSeconds();
  const service = await startServiceChild();
  try {
    const base = `${service.url}/api/v1`;
    const team = await seedCollectiveTeam(base);
    const single = await createBookingHost(base, (await signUp(base)).token);
    for (const [label, target] of [[`collective, ${COLLECTIVE_HOSTS} hosts`, team], ['one host', single]] as const) {
      const r = await runLoad(label, { kind: 'post-bookings', url: service.url, path: target.path, baseMs: target.baseMs, firstSlot: 0, seconds, connections: 20 });
      process.stdout.write(`${label}: ${fmt(r.rps, 0)} bookings/s, p50 ${fmt(r.p50, 2)} ms, p99 ${fmt(r.p99, 2)} ms [${JSON.stringify(r.statusCodes)}]\n`);
    }
    const races = await collectiveRaces(service.url, team.path, team.baseMs + 300 * 86_400_000, team.hosts);
    process.stdout.write(`${raceLine(races)}\n`);
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
