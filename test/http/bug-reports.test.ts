/** Bug reports over real HTTP: create (message required, bounded diagnostics) and list one's own, paged. */
import { MAX_DIAGNOSTICS_BYTES } from '../../contracts/bug-reports';
import { expectInvalid } from '../support/api-expect';
import { type Client, signUp } from '../support/service';
import { usePlanningService } from '../support/planning';

const api = usePlanningService();


async function report(c: Client, body: Record<string, unknown> = {}) {
  const res = await c.call('POST', '/bug-reports', { message: 'The week view jumps back to today', ...body });
  expect(res.status).toBe(201);
  return res.body.bugReport as Record<string, any>;
}

async function list(c: Client, query = '') {
  const res = await c.call('GET', `/bug-reports${query}`);
  expect(res.status).toBe(200);
  return res.body as { bugReports: Array<Record<string, any>>; nextPageToken: string | null };
}

describe('POST /bug-reports', () => {
  it('keeps the message, what was expected, the page and the diagnostics', async () => {
    const c = await signUp(api.base);
    const diagnostics = { appVersion: '3.4.1', platform: 'web', recentErrors: [{ code: 'E42', at: '2026-11-23T10:14:00Z' }] };
    const res = await c.call('POST', '/bug-reports', {
      message: 'Saving jumps back to today', expected: 'Stay on the week', pagePath: '/calendar/week/2026-12-07', diagnostics,
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body)).toEqual(['bugReport']);
    expect(res.body.bugReport).toMatchObject({
      userId: c.userId, message: 'Saving jumps back to today', expected: 'Stay on the week', pagePath: '/calendar/week/2026-12-07', diagnostics,
    });
    expect(res.headers.get('x-calendar-position')).toMatch(/^\d+$/);
    expect(await report(c)).toMatchObject({ expected: null, pagePath: null, diagnostics: {} });
  });

  it.each([
    [{}, 'body.message'],
    [{ message: '   ' }, 'body.message'],
    [{ message: 'x'.repeat(5001) }, 'body.message'],
    [{ message: 'Bad', expected: 5 }, 'body.expected'],
    [{ message: 'Bad', pagePath: 'x'.repeat(2001) }, 'body.pagePath'],
    [{ message: 'Bad', diagnostics: ['not', 'an', 'object'] }, 'body.diagnostics'],
    [{ message: 'Bad', diagnostics: 'text' }, 'body.diagnostics'],
    [{ message: 'Bad', diagnostics: { blob: 'x'.repeat(MAX_DIAGNOSTICS_BYTES) } }, 'body.diagnostics'],
    [{ message: 'Bad', severity: 'high' }, 'body.severity'],
  ])('400 for %j, and nothing is written', async (body, path) => {
    const c = await signUp(api.base);
    const before = await api.head();
    expectInvalid(await c.call('POST', '/bug-reports', body), path);
    expect(await api.head()).toBe(before);
    expect((await list(c)).bugReports).toEqual([]);
  });
});

describe('GET /bug-reports', () => {
  it('lists the caller\'s own reports, newest first, paged', async () => {
    const c = await signUp(api.base);
    const made = [];
    for (const message of ['first', 'second', 'third']) made.push(await report(c, { message }));
    expect((await list(c)).bugReports.map((r) => r.message)).toEqual(['third', 'second', 'first']);
    const page1 = await list(c, '?limit=2');
    expect(page1.bugReports.map((r) => r.id)).toEqual([made[2].id, made[1].id]);
    const page2 = await list(c, `?limit=2&pageToken=${page1.nextPageToken}`);
    expect(page2.bugReports.map((r) => r.id)).toEqual([made[0].id]);
    expect(page2.nextPageToken).toBeNull();
    expectInvalid(await c.call('GET', '/bug-reports?limit=501'), 'query.limit');
  });

  it('never shows another person\'s reports', async () => {
    const [a, b] = await Promise.all([signUp(api.base), signUp(api.base)]);
    const mine = await report(a, { message: 'A private report' });
    await report(b, { message: 'B report' });
    expect((await list(b)).bugReports.map((r) => r.message)).toEqual(['B report']);
    expect((await list(a)).bugReports.map((r) => r.id)).toEqual([mine.id]);
  });
});
