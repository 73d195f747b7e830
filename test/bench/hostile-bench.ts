/**
 * One user's hostile requests against everyone else's responsiveness: the service runs in this process, so the
 * event-loop delay measured here (perf_hooks) is the service's own. While an attacker sends hostile recurrence rules
 * (refused at the write) or pages through a year of a heavy hourly series (10,000-character description, 200
 * attendees), a probe asks /healthz every 20 ms and another user writes and reads back.
 */
import { monitorEventLoopDelay, performance } from 'node:perf_hooks';
import pino from 'pino';
import { startService } from '../../services/composition';
import { loadConfig } from '../../services/config';
import { BENCH_SERVICE_ENV } from './children';
import { json, percentile, sleep, signUp, tempDir, type User } from './util';

export interface Spread {
  p50: number;
  p99: number;
  max: number;
}

export interface HostilePhase {
  /** Short name for the summary table. */
  name: string;
  label: string;
  /** Hostile requests sent, and how they were answered. */
  requests: number;
  statuses: Record<string, number>;
  healthz: Spread;
  eventLoopDelay: Spread;
  /** Another user's POST /events then GET /events/{id}, end to end. */
  victim: Spread;
}

const HEALTHZ_EVERY_MS = 20;
let victimSlot = 0; // the victim's events take one hour each, never overlapping
const sixty = Array.from({ length: 60 }, (_, i) => i).join(',');
const HOSTILE_RULES = [
  'FREQ=HOURLY;COUNT=1000000000', 'FREQ=DAILY;UNTIL=99991231T000000Z', 'FREQ=YEARLY;COUNT=100001',
  'FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=30;COUNT=2', 'FREQ=DAILY;FREQ=MINUTELY;COUNT=50000', `FREQ=HOURLY;BYMINUTE=${sixty};BYSECOND=${sixty}`,
  'FREQ=HOURLY;BYMONTH=2;BYMONTHDAY=30', 'FREQ=YEARLY;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12;BYMONTHDAY=-1,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30;BYHOUR=0,1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23;BYSETPOS=-1;COUNT=1000',
];

const spread = (xs: number[]): Spread => ({ p50: percentile(xs, 50), p99: percentile(xs, 99), max: xs.length ? Math.max(...xs) : Number.NaN });

export async function hostileBench(seconds: number, attackers: number): Promise<HostilePhase[]> {
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: tempDir('hostile'), LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '1024', ...BENCH_SERVICE_ENV,
  });
  const service = await startService(config, pino({ level: 'silent' }));
  const root = service.url!;
  const base = `${root}/api/v1`;
  const auth = (u: User) => ({ authorization: `Bearer ${u.token}` });
  try {
    const attacker = await signUp(base);
    const victim = await signUp(base);
    const heavy = await json(`${base}/events`, 'POST', {
      title: 'Heavy', description: 'd'.repeat(10_000), startsAt: '2030-01-01T00:00:00Z', endsAt: '2030-01-01T00:15:00Z', recurrenceRule: 'FREQ=HOURLY',
      attendees: Array.from({ length: 200 }, (_, i) => ({ email: `guest${i}@example.com`, name: `Guest number ${i}` })),
    }, auth(attacker));
    if (heavy.status !== 201) throw new Error(`heavy series: ${heavy.status} ${JSON.stringify(heavy.body)}`);

    let n = 0;
    const hostileWrite = () => json(`${base}/events`, 'POST', {
      title: 'Hostile', startsAt: '2030-02-03T09:00:00Z', endsAt: '2030-02-03T10:00:00Z', recurrenceRule: HOSTILE_RULES[n++ % HOSTILE_RULES.length],
    }, auth(attacker));
    // A new `from` each time (a minute later), so no answer comes from the cache: every page is computed.
    const hostileRead = () => {
      const from = Date.UTC(2030, 0, 1) + (n++ % 100_000) * 60_000;
      const to = from + 366 * 86_400_000;
      const url = `${base}/events?from=${new Date(from).toISOString()}&to=${new Date(to).toISOString()}`;
      // The body is read but not parsed: parsing megabytes here would block this (the service's) event loop.
      return fetch(url, { headers: auth(attacker) }).then(async (res) => (await res.arrayBuffer(), res));
    };

    const phases: HostilePhase[] = [];
    for (const [name, label, attack] of [
      ['idle', 'idle (no hostile requests)', null],
      ['hostile rules', `${attackers} attackers POSTing hostile recurrence rules`, hostileWrite],
      ['heavy pages', `${attackers} attackers GETting a year of the heavy hourly series (first pages)`, hostileRead],
    ] as const) {
      phases.push({ name, ...(await phase(label, seconds, attackers, attack, root, base, auth(victim))) });
    }
    return phases;
  } finally {
    await service.stop();
  }
}

export async function phase(
  label: string, seconds: number, attackers: number, attack: (() => Promise<{ status: number }>) | null,
  root: string, base: string, victimAuth: Record<string, string>,
): Promise<Omit<HostilePhase, 'name'>> {
  const until = performance.now() + seconds * 1000;
  const statuses: Record<string, number> = {};
  let requests = 0;
  const healthz: number[] = [];
  const victim: number[] = [];
  const delay = monitorEventLoopDelay({ resolution: 5 });
  delay.enable();
  const attackerLoop = async () => {
    while (attack && performance.now() < until) {
      const res = await attack();
      requests++;
      statuses[res.status] = (statuses[res.status] ?? 0) + 1;
    }
  };
  const probeLoop = async () => {
    while (performance.now() < until) {
      const t = performance.now();
      await (await fetch(`${root}/healthz`)).arrayBuffer();
      healthz.push(performance.now() - t);
      await sleep(HEALTHZ_EVERY_MS);
    }
  };
  const victimLoop = async () => {
    while (performance.now() < until) {
      const t = performance.now();
      const start = Date.UTC(2031, 0, 1) + victimSlot++ * 3_600_000;
      const created = await json(`${base}/events`, 'POST', { title: 'Mine', startsAt: new Date(start).toISOString(), endsAt: new Date(start + 1_800_000).toISOString() }, victimAuth);
      if (created.status !== 201 || (await json(`${base}/events/${created.body.event.id}`, 'GET', undefined, victimAuth)).status !== 200) {
        throw new Error(`the victim's write was not readable: ${created.status}`);
      }
      victim.push(performance.now() - t);
      await sleep(100);
    }
  };
  await Promise.all([...Array.from({ length: attackers }, attackerLoop), probeLoop(), victimLoop()]);
  delay.disable();
  const ms = (ns: number) => ns / 1e6;
  return {
    label, requests, statuses, healthz: spread(healthz), victim: spread(victim),
    eventLoopDelay: { p50: ms(delay.percentile(50)), p99: ms(delay.percentile(99)), max: ms(delay.max) },
  };
}
