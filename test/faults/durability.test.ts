/**
 * An acknowledged write survives SIGKILL: the service runs as a child process (the built dist), is killed right
 * after answers arrive, restarted on the same DATA_DIR, and every acknowledged event must be there.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../bench/util';
import { killed, requireBuild, startChild as start } from '../support/service-child';
import { request } from '../support/service';

describe('durability under SIGKILL', () => {
  beforeAll(requireBuild);

  it('keeps every event whose 201 was sent, across kill -9 and restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'calendar-kill-'));
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/api/v1`;
    let child = await start(dataDir, port);
    const signup = await request(base, 'POST', '/auth/signup', { email: 'kill@example.com', password: 'long enough', name: 'K' });
    expect(signup.status).toBe(201);
    const auth = { authorization: `Bearer ${signup.body.session.token}` };

    const first = await request(base, 'POST', '/events', { title: 'acked', startsAt: '2026-12-01T09:00:00Z', endsAt: '2026-12-01T10:00:00Z' }, auth);
    expect(first.status).toBe(201);
    await killed(child); // right after the 201

    child = await start(dataDir, port);
    // A burst in flight when the process dies: the ones answered 201 must survive, the others may be lost.
    const acked: string[] = [];
    let killAt: () => void = () => undefined;
    const fewAcked = new Promise<void>((resolve) => (killAt = resolve));
    const burst = Array.from({ length: 200 }, (_, i) =>
      request(base, 'POST', '/events', { title: `burst ${i}`, busy: false, startsAt: '2026-12-02T09:00:00Z', endsAt: '2026-12-02T10:00:00Z' }, auth)
        .then((r) => {
          if (r.status === 201) acked.push(r.body.event.id);
          if (acked.length === 5) killAt();
        })
        .catch(() => undefined),
    );
    await fewAcked;
    await killed(child);
    await Promise.all(burst);
    expect(acked.length).toBeGreaterThanOrEqual(5);

    child = await start(dataDir, port);
    try {
      const again = await request(base, 'GET', `/events/${first.body.event.id}`, undefined, auth);
      expect(again.status).toBe(200);
      expect(again.body.event.title).toBe('acked');
      for (const id of acked) {
        expect((await request(base, 'GET', `/events/${id}`, undefined, auth)).status).toBe(200);
      }
    } finally {
      await killed(child);
    }
  }, 180_000);
});
