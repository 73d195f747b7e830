/**
 * Reminders across a SIGKILL of the whole service (a child process on the built dist, embedded stores), started
 * again on the same data: a reminder that fell due while the service was down fires once when it is back; a burst
 * of reminders due at one instant, killed while they fire, ends with exactly one notification each.
 */
import Database from 'better-sqlite3';
import path from 'node:path';
import { until } from '../support/receiver';
import { remindedEvent } from '../support/reminders';
import type { ApiResponse } from '../support/service';
import { killed, restartableService, useFaultSuite } from '../support/service-child';
import { untilSettled } from '../support/settled';

jest.setTimeout(600_000); // the waits below fail when reminders stop moving (see untilSettled), not when a machine is slow

/** A quick poll, and a short lease (MIN_POSITION_WAIT_MS + 5 s) for the claims a killed worker leaves. */
const ENV = { REMINDER_POLL_MS: '50', MIN_POSITION_WAIT_MS: '1000' };
const BURST = 150;
/** Events created at once. */
const CREATING = 10;
const NOTIFY = [{ minutesBefore: 0, method: 'notification' }];

const suite = useFaultSuite();

const service = () => restartableService(suite, 'reminders-kill', ENV);

/** reminder.fired events in the log of a stopped service (the log file read as it is on disk). */
function firedIn(dataDir: string): number {
  const db = new Database(path.join(dataDir, 'events.sqlite'), { readonly: true });
  try {
    return (db.prepare("SELECT count(*) AS n FROM events WHERE type = 'reminder.fired'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

type Call = Awaited<ReturnType<typeof service>>['call'];

/** Reminder notifications per event id, every page. */
async function remindersByEvent(call: Call): Promise<Map<string, number>> {
  const counts = new Map<string, number>();
  let token: string | null = null;
  do {
    const res: ApiResponse = await call('GET', `/notifications?limit=500${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
    expect(res.status).toBe(200);
    for (const n of res.body.notifications as Array<{ kind: string; eventId: string }>) {
      if (n.kind === 'reminder') counts.set(n.eventId, (counts.get(n.eventId) ?? 0) + 1);
    }
    token = res.body.nextPageToken;
  } while (token);
  return counts;
}

it('fires a reminder that fell due while the service was down once, when it is back', async () => {
  const svc = await service();
  const event = await remindedEvent(svc.call, 3000, NOTIFY, { title: 'Due while down' });
  await killed(svc.child);
  await until(() => Date.now() > Date.parse(event.startsAt) + 500, 30_000, 'the reminder\'s time to pass');

  await svc.start();
  await until(async () => (await remindersByEvent(svc.call)).get(event.id) === 1, 60_000, 'the reminder after the restart');
  // A later reminder has come and gone: the first has not come again.
  const later = await remindedEvent(svc.call, 1500, NOTIFY, { title: 'After the restart' });
  await until(async () => (await remindersByEvent(svc.call)).has(later.id), 60_000, 'the later reminder');
  expect([...(await remindersByEvent(svc.call))].sort()).toEqual([[event.id, 1], [later.id, 1]].sort());
});

it(`killed while ${BURST} reminders due at one instant fire: after the restart each came exactly once`, async () => {
  const svc = await service();
  // Far enough ahead for every event to be created before any is due: twice what creating them takes here now.
  const probe = Date.now();
  await Promise.all(Array.from({ length: CREATING }, () => remindedEvent(svc.call, 3_600_000, [], { title: 'Probe' })));
  const at = Date.now() + 5_000 + 2 * (Date.now() - probe) * Math.ceil(BURST / CREATING);
  const when = { startsAt: new Date(at).toISOString(), endsAt: new Date(at + 3_600_000).toISOString() };
  const ids: string[] = [];
  let next = 0;
  await Promise.all(Array.from({ length: CREATING }, async () => {
    while (next < BURST) ids.push((await remindedEvent(svc.call, 0, NOTIFY, { title: `Burst ${next++}`, ...when })).id);
  }));
  expect(Date.now()).toBeLessThan(at);
  await until(async () => (await remindersByEvent(svc.call)).size > 0, at - Date.now() + 60_000, 'the burst under way');
  await killed(svc.child);
  const recordedAtKill = firedIn(svc.dataDir);
  await svc.start();
  await untilSettled(`${BURST} reminders`, async () => {
    const counts = await remindersByEvent(svc.call);
    return { done: counts.size === BURST, progress: counts.size };
  });
  const counts = await remindersByEvent(svc.call);
  expect(ids.filter((id) => counts.get(id) !== 1)).toEqual([]);
  expect(counts.size).toBe(BURST);
  expect(firedIn(svc.dataDir)).toBe(BURST);
  // Killed once the first showed: some were recorded before (64 of 150 in one run here), the others after.
  expect(recordedAtKill).toBeGreaterThan(0);
});
