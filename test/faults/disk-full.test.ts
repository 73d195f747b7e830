/**
 * The embedded stores on a disk that fills up (a tmpfs as DATA_DIR, filled by a file beside them): writes are refused
 * with 507 insufficient_storage in the error envelope, /readyz answers 503 naming the stores that cannot write, no
 * refused write leaves anything behind (in the log or the read models), and once the file is removed the same
 * process takes writes again and is ready, without a restart.
 */
import { expectError } from '../support/api-expect';
import { until } from '../support/receiver';
import { signUp, startTestService, type Client, type TestService } from '../support/service';
import { describeOnSmallFilesystem, fillUp } from '../support/small-fs';

jest.setTimeout(120_000);

/** Writes tried while the disk is full, at most: the first few may still fit in space the files hold already. */
const MAX_TRIES = 300;
const AFTER = 40;

describeOnSmallFilesystem('a full disk', 64, (dir) => {
  let svc: TestService;
  let c: Client;
  beforeAll(async () => {
    // The embedded stores whatever engines the environment names: they are the ones on this disk.
    svc = await startTestService({ DATA_DIR: dir(), MONGO_URL: undefined, KAFKA_BROKERS: undefined, EVENTSTORE_URL: undefined });
    c = await signUp(svc.base);
  });
  afterAll(() => svc?.stop());

  const head = () => svc.service.context.events.headPosition();
  const readyz = async () => {
    const res = await fetch(`${svc.service.url}/readyz`);
    return { status: res.status, body: (await res.json()) as { status: string; stores: Record<string, string>; problems: string[] } };
  };
  const report = (message: string) => c.call('POST', '/bug-reports', { message, diagnostics: { padding: 'x'.repeat(8_000) } });
  const reported = async () => {
    const messages: string[] = [];
    let token: string | null = null;
    for (let page = 0; page < 20; page++) {
      const query = `?limit=100${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`;
      const res = await c.call('GET', `/bug-reports${query}`, undefined, { 'X-Calendar-Min-Position': String(await head()) });
      expect(res.status).toBe(200);
      messages.push(...res.body.bugReports.map((r: { message: string }) => r.message));
      token = res.body.nextPageToken;
      if (!token) break;
    }
    return messages;
  };

  it('refuses with 507, is not ready, keeps nothing of what it refused, and recovers once there is room', async () => {
    expect((await report('before the disk filled')).status).toBe(201);
    expect((await readyz()).status).toBe(200);
    const headBefore = await head();

    const free = fillUp(dir());
    const stored: string[] = [];
    const refused: string[] = [];
    let ready: Awaited<ReturnType<typeof readyz>> | undefined;
    try {
      for (let i = 0; i < MAX_TRIES && refused.length < 5; i++) {
        const res = await report(`while full ${i}`);
        if (res.status === 201) stored.push(`while full ${i}`);
        else {
          expectError(res, 507, 'insufficient_storage');
          expect(res.headers.get('x-calendar-position')).toBeNull();
          refused.push(`while full ${i}`);
        }
      }
      expect(refused).toHaveLength(5);
      // Signing in writes a session to the read store: it may still fit there, or is refused the same way; never a 500.
      const login = await c.call('POST', '/auth/login', { email: c.email, password: 'correct horse' });
      expect(login.status === 200 ? 'stored' : login.body.error?.code).toMatch(/^(stored|insufficient_storage)$/);

      ready = await readyz();
      expect(ready.status).toBe(503);
      expect(ready.body.status).toBe('not_ready');
      expect(ready.body.stores['event store']).toMatch(/^cannot write: /);
      expect(ready.body.stores['read store']).toMatch(/^cannot write: /);
      expect(ready.body.problems).toEqual(expect.arrayContaining([expect.stringMatching(/^event store: cannot write: /)]));
      // Only what was answered 201 reached the log.
      expect(await head()).toBe(headBefore + stored.length);
    } finally {
      free();
    }

    const after: number[] = [];
    for (let i = 0; i < AFTER; i++) after.push((await report(`after ${i}`)).status);
    expect(after).toEqual(Array(AFTER).fill(201));
    await until(async () => (await readyz()).status === 200, 30_000, '/readyz 200 again');
    expect((await readyz()).body.stores).toEqual({ 'event store': 'ok', 'read store': 'ok', bus: 'ok' });

    const messages = await reported();
    expect(messages.length).toBe(1 + stored.length + AFTER);
    expect(new Set(messages)).toEqual(new Set(['before the disk filled', ...stored, ...Array.from({ length: AFTER }, (_, i) => `after ${i}`)]));
    for (const message of refused) expect(messages).not.toContain(message);
  });
});
