/**
 * An Idempotency-Key outlives the process that was running its request (issue 8.5): a repeat while the lease holds is
 * 409 idempotency_key_in_use with Retry-After; once the lease ran out (the process died), the repeat runs the request
 * again and gets the first run's result, even when that run had already stored its events.
 */
import type { Doc } from '../../services/readstore/read-store.port';
import { IDEMPOTENCY } from '../../services/http/idempotency';
import { signUp, useTestService, type TestService } from '../support/service';

let svc: TestService;
useTestService((s) => (svc = s));

const records = () => svc.service.context.store.collection<Doc & { _pos: number }>(IDEMPOTENCY);

/** Puts the key's record back to "in progress", as a process that died after appending would have left it. */
async function leaveInProgress(leaseUntil: number): Promise<void> {
  const page = await records().find({}, { limit: 2 });
  expect(page).toHaveLength(1);
  const [record] = page;
  await records().delete(record._id);
  await records().insertNew({ ...record, _pos: record._pos + 1, state: 'pending', reply: undefined, owner: 'dead-process', leaseUntil });
}

describe('Idempotency-Key after a crash', () => {
  it('answers 409 with Retry-After while the lease holds, then completes with the first run\'s event', async () => {
    const c = await signUp(svc.base);
    const body = { title: 'crash-safe', startsAt: '2031-03-01T09:00:00Z', endsAt: '2031-03-01T10:00:00Z' };
    const headers = { 'idempotency-key': 'crash-1' };
    const first = await c.call('POST', '/events', body, headers);
    expect(first.status).toBe(201);

    await leaveInProgress(Date.now() + 8_000);
    const busy = await c.call('POST', '/events', body, headers);
    expect(busy.status).toBe(409);
    expect(busy.body.error.code).toBe('idempotency_key_in_use');
    expect(Number(busy.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(Number(busy.headers.get('retry-after'))).toBeLessThanOrEqual(8);

    await leaveInProgress(Date.now() - 1); // the lease ran out: its process is gone
    const retried = await c.call('POST', '/events', body, headers);
    expect(retried.status).toBe(201);
    expect(retried.body.event.id).toBe(first.body.event.id);
    expect(retried.body.event.title).toBe('crash-safe');

    const again = await c.call('POST', '/events', body, headers); // the recovered answer is now the stored one
    expect(again.status).toBe(201);
    expect(again.body.event.id).toBe(first.body.event.id);
    const listed = await c.call('GET', '/events?from=2031-03-01T00:00:00Z&to=2031-03-02T00:00:00Z');
    expect(listed.body.events.filter((e: { title: string }) => e.title === 'crash-safe')).toHaveLength(1);
  });
});
