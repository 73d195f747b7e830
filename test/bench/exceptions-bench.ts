/**
 * The calendars behind the GET /events figures of a series with exceptions: one user's hourly series (30 minutes, in
 * Europe/Berlin, from four weeks before the measured week), and another's the same with EXCEPTIONS exceptions, one at
 * every third hour from that start (cancelled, moved a quarter of an hour later, or retitled, in turn), 56 of them in
 * the measured week. Each request asks for that week with a `from` a millisecond earlier than the last, so every
 * answer is built (the service keeps built answers while nothing changes): the figure is the expansion's cost.
 *
 * Run alone (`node dist/test/bench/exceptions-bench.js`) it starts its own service child and prints both figures.
 */
import { cpuSecondsOf, startServiceChild, type ChildServer } from './children';
import { runLoad, type LoadResult, type LoadSpec } from './http-load';
import { benchSeconds, fmt, json, signUp } from './util';

export const EXCEPTIONS = 500;
const HOUR = 3_600_000;
/** The measured week: Monday 3 January 2033, far from the other benches' data. */
export const EXCEPTIONS_WEEK = { from: Date.UTC(2033, 0, 3), to: Date.UTC(2033, 0, 10) };
const SERIES_START = EXCEPTIONS_WEEK.from - 28 * 24 * HOUR;
const iso = (ms: number) => new Date(ms).toISOString();

/** Creates the series for the user behind `token` (with `exceptions` of them) and answers the load to measure. */
export async function seedSeriesWeek(url: string, token: string, exceptions: number): Promise<Omit<LoadSpec & { kind: 'get-events-uncached' }, 'seconds'>> {
  const base = `${url}/api/v1`;
  const auth = { authorization: `Bearer ${token}` };
  const created = await json(`${base}/events`, 'POST', {
    title: 'Hourly', startsAt: iso(SERIES_START), endsAt: iso(SERIES_START + HOUR / 2), timeZone: 'Europe/Berlin', recurrenceRule: 'FREQ=HOURLY',
  }, auth);
  if (created.status !== 201) throw new Error(`creating the series: ${created.status} ${JSON.stringify(created.body)}`);
  const id = created.body.event.id as string;
  for (let i = 0; i < exceptions; i++) {
    const original = SERIES_START + 3 * i * HOUR;
    const path = `${base}/events/${id}/occurrences/${encodeURIComponent(iso(original))}`;
    const kind = i % 3;
    const res = kind === 0
      ? await json(path, 'DELETE', undefined, auth)
      : await json(path, 'PATCH', kind === 1 ? { startsAt: iso(original + HOUR / 4), endsAt: iso(original + (3 * HOUR) / 4) } : { title: `Hour ${i}` }, auth);
    if (res.status >= 300) throw new Error(`exception ${i}: ${res.status} ${JSON.stringify(res.body)}`);
  }
  return { kind: 'get-events-uncached', url, token, fromMs: EXCEPTIONS_WEEK.from, toMs: EXCEPTIONS_WEEK.to };
}

/** Server CPU (µs, every thread) per successful response: steadier than the rate on a machine others share. */
async function cpuPerResponse(service: ChildServer, spec: LoadSpec): Promise<{ result: LoadResult; cpu: number | null }> {
  const before = cpuSecondsOf(service.child.pid);
  const result = await runLoad(spec.kind, spec);
  const after = cpuSecondsOf(service.child.pid);
  return { result, cpu: before === null || after === null ? null : ((after - before) * 1e6) / Math.max(1, result.ok) };
}

async function main(): Promise<void> {
  const service = await startServiceChild();
  try {
    const base = `${service.url}/api/v1`;
    const specs = [];
    for (const n of [0, EXCEPTIONS]) specs.push({ n, spec: await seedSeriesWeek(service.url, (await signUp(base)).token, n) });
    for (const { spec } of specs) await runLoad('warmup', { ...spec, seconds: 2 });
    // Two rounds, interleaved, so a neighbour's load falls on both sides alike.
    for (let round = 1; round <= 2; round++) {
      for (const { n, spec } of specs) {
        const { result, cpu } = await cpuPerResponse(service, { ...spec, seconds: benchSeconds() });
        process.stdout.write(`round ${round}, ${n} exceptions: ${fmt(result.rps, 0)} rps, p50 ${fmt(result.p50, 1)} ms, CPU ${cpu === null ? '?' : fmt(cpu, 0)} µs/response\n`);
      }
    }
  } finally {
    await service.stop();
  }
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err);
    process.exitCode = 1;
  });
}
