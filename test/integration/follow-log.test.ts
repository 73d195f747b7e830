import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { followLog } from '../../services/eventstore/follow-log';
import { openSqliteEventStore } from '../../services/eventstore/sqlite-event-store';
import { newId } from '../../services/ids';

const meta = { userId: null, correlationId: 'c', causationId: 'c', occurredAt: '2026-11-22T00:00:00Z', schemaVersion: 1 };

it('resubscribes after a failure from the position reached, so nothing is skipped or applied twice', async () => {
  const store = await openSqliteEventStore(path.join(mkdtempSync(path.join(tmpdir(), 'follow-')), 'events.sqlite'));
  for (let n = 0; n < 10; n++) await store.append('s', [{ id: newId(), type: 't', data: { n }, metadata: meta }], 'any');
  const applied: number[] = [];
  let reached = 0;
  let failures = 0;
  const follower = followLog(
    store,
    () => reached,
    async (e) => {
      const n = (e.data as { n: number }).n;
      if (n === 4 && failures++ < 2) throw new Error('write failed'); // fails twice, then succeeds
      applied.push(n);
      reached = e.position;
    },
    pino({ level: 'silent' }),
    'test',
  );
  const end = Date.now() + 5000;
  while (applied.length < 10 && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
  await follower.stop();
  await store.close();
  expect(failures).toBe(3);
  expect(applied).toEqual([...Array(10).keys()]);
});
