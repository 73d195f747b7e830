/**
 * kill -9 in the middle of a request sent with an Idempotency-Key, restart, retry with the same key and body: the
 * retry completes (issue 8.5). The request is a sign-up with a costly password hash, so it is still running when a
 * probe with the same key sees it in progress and the process is killed.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../bench/util';
import { request } from '../support/service';
import { killed, requireBuild, startChild } from '../support/service-child';

const env = { PASSWORD_HASH_COST: String(1 << 17) };

describe('Idempotency-Key across SIGKILL', () => {
  beforeAll(requireBuild);

  it('completes a retried sign-up after the process died mid-request', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'calendar-idem-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api/v1`;
    let body = {};
    let headers = {};
    let child = await startChild(dataDir, port, env);
    // Which of two requests sent at once arrives first is chance: when a probe got there first, it ran the sign-up
    // itself and nothing was in progress to kill. Then again with another key and address.
    let inFlight: Promise<unknown>;
    let probe: Awaited<ReturnType<typeof request>>;
    let attempt = 0;
    do {
      attempt++;
      body = { email: `crash-${attempt}@example.com`, password: 'long enough', name: 'Crash' };
      headers = { 'idempotency-key': `signup-during-crash-${attempt}` };
      inFlight = request(base, 'POST', '/auth/signup', body, headers).catch(() => null);
      await new Promise((r) => setTimeout(r, 20)); // a head start
      probe = await request(base, 'POST', '/auth/signup', body, headers);
      for (let i = 0; i < 500 && probe.status !== 409 && probe.status !== 201; i++) probe = await request(base, 'POST', '/auth/signup', body, headers);
    } while (probe.status === 201 && attempt < 5);
    expect(probe.body.error.code).toBe('idempotency_key_in_use');
    await killed(child);
    const lost = await inFlight;
    expect(lost).toBeNull(); // the connection died with the process: the client never got an answer

    child = await startChild(dataDir, port, env);
    try {
      let retry = await request(base, 'POST', '/auth/signup', body, headers);
      for (let i = 0; i < 5 && retry.status === 409; i++) {
        expect(retry.body.error.code).toBe('idempotency_key_in_use');
        await new Promise((r) => setTimeout(r, Number(retry.headers.get('retry-after')) * 1000));
        retry = await request(base, 'POST', '/auth/signup', body, headers);
      }
      expect(retry.status).toBe(201);
      const me = await request(base, 'GET', '/me', undefined, { authorization: `Bearer ${retry.body.session.token}` });
      expect(me.status).toBe(200);
      expect(me.body.user.id).toBe(retry.body.user.id);

      const again = await request(base, 'POST', '/auth/signup', body, headers);
      expect(again.status).toBe(201);
      expect(again.body.user.id).toBe(retry.body.user.id);
      const twice = await request(base, 'POST', '/auth/signup', body); // one account only
      expect(twice.status).toBe(409);
      expect(twice.body.error.code).toBe('email_taken');
    } finally {
      await killed(child);
    }
  }, 120_000);
});
