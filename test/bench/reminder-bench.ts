/**
 * Reminders, embedded mode, service in process with its default settings (REMINDER_POLL_MS 250): `count` reminders
 * due at one instant, the top of a minute (every event of `owners` people starting at the same minute, each with a
 * 10-minute reminder), the way reminders of meetings at 09:00 all fall due at 08:50. The events are copies of each
 * owner's template appended straight to the event store; the clock starts at their due instant.
 *
 * Due-to-notification: from the due instant to the moment the reminder's notification can be read (the
 * notifications projection has applied its reminder.fired), sampled every few milliseconds. Delivered: the
 * reminder.fired events recorded and the notifications the owners have; missed ones (their event had begun) would
 * be recorded as reminder.missed. Alone: `node dist/test/bench/reminder-bench.js [count] [owners]`.
 */
import pino from 'pino';
import { NOTIFICATIONS } from '../../projections/notifications.projection';
import { REMINDERS } from '../../projections/reminders.projection';
import { startService } from '../../services/composition';
import { loadConfig } from '../../services/config';
import { BENCH_SERVICE_ENV } from './children';
import type { Percentiles } from './lag-bench';
import { eventCloner } from './pipeline';
import { percentile, removeTempDirs, signUp, sleep, tempDir } from './util';

export interface ReminderBenchResult {
  reminders: number;
  owners: number;
  fired: number;
  missed: number;
  notifications: number;
  /** From the due instant to the last notification readable. */
  seconds: number;
  latency: Percentiles & { samples: number };
  /** CPU of this process (service and sampler, every thread) from the due instant to the last notification, per reminder. */
  cpuUsPerReminder: number;
  /** When seeding ran past the due instant, the figures mean nothing. */
  seededInTime: boolean;
}

const MINUTE = 60_000;
const REMINDER_MINUTES = 10;
const SAMPLE_MS = 5;
const DONE_WAIT_MS = 600_000;

export async function reminderBench(count: number, owners: number): Promise<ReminderBenchResult> {
  const config = loadConfig({
    PORT: '0', HOST: '127.0.0.1', DATA_DIR: tempDir('reminders'), LOG_LEVEL: 'silent', PASSWORD_HASH_COST: '1024', ...BENCH_SERVICE_ENV,
  });
  const service = await startService(config, pino({ level: 'silent' }));
  const ctx = service.context;
  try {
    const base = `${service.url}/api/v1`;
    // Room to seed and to let the projections catch up (a few ms per event here), then the next minute's start.
    const dueMs = Math.ceil((Date.now() + 30_000 + count * 3) / MINUTE) * MINUTE;
    const startsAt = new Date(dueMs + REMINDER_MINUTES * MINUTE).toISOString();
    const endsAt = new Date(dueMs + (REMINDER_MINUTES + 30) * MINUTE).toISOString();
    const reminders = [{ minutesBefore: REMINDER_MINUTES, method: 'notification' }];
    const users = await Promise.all(Array.from({ length: owners }, () => signUp(base)));
    const clones = await Promise.all(users.map((u) => eventCloner(service, base, { authorization: `Bearer ${u.token}` }, (n) => ({
      title: `Reminded ${n}`, startsAt, endsAt, reminders,
    }))));
    let next = 0;
    await Promise.all(Array.from({ length: 8 }, async () => {
      while (next < count) await clones[next++ % owners]();
    }));
    const from = await ctx.events.headPosition();
    await ctx.watermarks.waitFor(ctx.projectionNames, from, DONE_WAIT_MS);
    const seededInTime = Date.now() < dueMs;

    // The notifications projection's position over time, from before the due instant until every reminder settled.
    const samples: Array<[at: number, position: number]> = [];
    const due = (await ctx.readModels.docs(REMINDERS))('due');
    await sleep(Math.max(0, dueMs - Date.now() - 1000));
    const sampler = setInterval(() => void ctx.watermarks.position(NOTIFICATIONS).then((p) => samples.push([Date.now(), p])), SAMPLE_MS);
    await sleep(Math.max(0, dueMs - Date.now()));
    const cpu = process.cpuUsage();
    let cpuUs = 0;
    try {
      const deadline = Date.now() + DONE_WAIT_MS;
      while (Date.now() < dueMs || (await due.count({ state: 'pending', dueMs: { $lte: dueMs } })) > 0) {
        if (Date.now() > deadline) break;
        await sleep(100);
      }
      await ctx.watermarks.waitFor([NOTIFICATIONS], await ctx.events.headPosition(), DONE_WAIT_MS);
      const used = process.cpuUsage(cpu);
      cpuUs = used.user + used.system;
      await sleep(SAMPLE_MS * 2);
    } finally {
      clearInterval(sampler);
    }

    const recorded = (await ctx.events.readAll(from, count * 2 + 1000)).filter((e) => e.type.startsWith('reminder.'));
    const fired = recorded.filter((e) => e.type === 'reminder.fired');
    const latencies = fired.flatMap((e) => {
      const seen = samples.find(([, position]) => position >= e.position);
      return seen ? [seen[0] - Date.parse((e.data as { dueAt: string }).dueAt)] : [];
    });
    const notified = (await ctx.readModels.docs(NOTIFICATIONS))('notifications');
    const counts = await Promise.all(users.map((u) => notified.count({ userId: u.userId, _pos: { $gt: from } })));
    return {
      reminders: count, owners, fired: fired.length, missed: recorded.length - fired.length,
      notifications: counts.reduce((a, b) => a + b, 0), seconds: (Math.max(...latencies) || 0) / 1000, seededInTime, cpuUsPerReminder: cpuUs / count,
      latency: { p50: percentile(latencies, 50), p99: percentile(latencies, 99), max: Math.max(...latencies), samples: latencies.length },
    };
  } finally {
    await service.stop();
  }
}

if (require.main === module) {
  reminderBench(Number(process.argv[2] ?? 10_000), Number(process.argv[3] ?? 100))
    .then((result) => console.log(JSON.stringify(result, null, 2)))
    .catch((err: unknown) => {
      console.error(err);
      process.exitCode = 1;
    })
    .finally(removeTempDirs);
}
