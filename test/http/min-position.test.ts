/**
 * X-Calendar-Min-Position at its edges: a position past the end of the log is refused at once (400
 * position_beyond_log, although the service would wait a minute); a read that catches up says which position it
 * reflects; a read whose wait runs out (projections stopped) answers what it has, with that older position and
 * X-Calendar-Stale: true. The document describes both headers on every GET.
 */
import { expectError } from '../support/api-expect';
import { signUp, startTestService, type Client, type TestService } from '../support/service';

jest.setTimeout(60_000);

const MIN = 'X-Calendar-Min-Position';
const minPosition = (p: number | string) => ({ [MIN]: String(p) });
const positionOf = (res: { headers: Headers }) => Number(res.headers.get('x-calendar-position'));

describe('a service that would wait a minute', () => {
  let svc: TestService;
  let c: Client;
  beforeAll(async () => {
    // The suite's 30 s timeout fails a test that waits for the position instead of refusing it.
    svc = await startTestService({ MIN_POSITION_WAIT_MS: '60000' });
    c = await signUp(svc.base);
  });
  afterAll(() => svc?.stop());

  it.each([
    ['GET', '/me'],
    ['GET', '/tasks'],
    ['POST', '/planner/plan'],
  ])('refuses a position past the end of the log on %s %s at once', async (method, path) => {
    const head = await svc.service.context.events.headPosition();
    const body = method === 'POST' ? { kind: 'tasks' } : undefined;
    const res = await c.call(method, path, body, minPosition(head + 1000));
    expectError(res, 400, 'position_beyond_log');
    expect(res.body.error.details.issues).toEqual([{ path: `header.${MIN}`, message: 'past the end of the log' }]);
  });

  it('a read that caught up says the position it reflects, and is not stale', async () => {
    const created = await c.call('POST', '/tasks', { title: 'read me' });
    const written = positionOf(created);
    const read = await c.call('GET', `/tasks/${created.body.task.id}`, undefined, minPosition(written));
    expect(read.status).toBe(200);
    expect(positionOf(read)).toBeGreaterThanOrEqual(written);
    expect(read.headers.get('x-calendar-stale')).toBeNull();
    // The head itself is a position that exists.
    const atHead = await c.call('GET', '/me', undefined, minPosition(await svc.service.context.events.headPosition()));
    expect(atHead.status).toBe(200);
    // Without the header, a read carries neither.
    const plain = await c.call('GET', '/me');
    expect([plain.headers.get('x-calendar-position'), plain.headers.get('x-calendar-stale')]).toEqual([null, null]);
  });
});

describe('a read whose wait runs out', () => {
  let svc: TestService;
  beforeAll(async () => {
    svc = await startTestService({ MIN_POSITION_WAIT_MS: '300' });
  });
  afterAll(() => svc?.stop());

  it('answers what the read models hold, with their position and X-Calendar-Stale: true', async () => {
    const c = await signUp(svc.base);
    const before = await c.call('POST', '/tasks', { title: 'before the stop' });
    await svc.service.runner!.stop();
    try {
      const during = await c.call('POST', '/tasks', { title: 'while stopped' });
      expect(during.status).toBe(201);
      const stale = await c.call('GET', '/tasks', undefined, minPosition(positionOf(during)));
      expect(stale.status).toBe(200);
      expect(stale.headers.get('x-calendar-stale')).toBe('true');
      expect(positionOf(stale)).toBeGreaterThanOrEqual(positionOf(before));
      expect(positionOf(stale)).toBeLessThan(positionOf(during));
      expect(stale.body.tasks.map((t: { title: string }) => t.title)).toEqual(['before the stop']);
    } finally {
      await svc.service.runner!.start();
    }
    const head = await svc.service.context.events.headPosition();
    const fresh = await c.call('GET', '/tasks', undefined, minPosition(head));
    expect(fresh.headers.get('x-calendar-stale')).toBeNull();
    expect(positionOf(fresh)).toBeGreaterThanOrEqual(head);
    expect(fresh.body.tasks).toHaveLength(2);
  });

  it('the document describes both headers on every GET answer, and the refusal', async () => {
    const doc = (await (await fetch(`${svc.base}/openapi.json`)).json()) as any;
    for (const [path, item] of Object.entries(doc.paths as Record<string, any>)) {
      if (!item.get) continue;
      const ok = Object.entries(item.get.responses as Record<string, any>).filter(([status]) => status.startsWith('2'));
      for (const [status, response] of ok) {
        expect({ path, status, headers: Object.keys(response.headers ?? {}) })
          .toEqual({ path, status, headers: expect.arrayContaining(['X-Calendar-Position', 'X-Calendar-Stale']) });
      }
    }
    expect(doc.components.headers['X-Calendar-Stale'].description).toContain('X-Calendar-Min-Position');
    expect(doc.components.parameters[MIN].description).toContain('position_beyond_log');
  });
});
