/**
 * The reminder worker as the automations role runs it (time-based work lives there, beside the runs it will one
 * day start): claims in the read store, events appended through the sealing log, the poll interval from
 * REMINDER_POLL_MS.
 */
import type { AppContext } from '../app-context';
import { ReminderClaims } from './claims';
import { ReminderWorker } from './reminder-worker';

/** Beyond the read model's longest wait (MIN_POSITION_WAIT_MS): how long a claim holds while its event is recorded and shows. */
const LEASE_EXTRA_MS = 5_000;

export async function startReminderWorker(app: AppContext): Promise<ReminderWorker> {
  const claims = new ReminderClaims(app.store);
  await claims.ensureIndexes();
  const worker = new ReminderWorker(
    { events: app.events, readModels: app.readModels, watermarks: app.watermarks, claims, store: app.store },
    { pollMs: app.config.REMINDER_POLL_MS, leaseMs: app.config.MIN_POSITION_WAIT_MS + LEASE_EXTRA_MS, catchUpWaitMs: app.config.MIN_POSITION_WAIT_MS },
    app.log.child({ role: 'automations', worker: 'reminders' }),
    (type) => app.metrics.reminders.inc({ outcome: type === 'reminder.fired' ? 'fired' : 'missed' }),
  );
  worker.start();
  return worker;
}
