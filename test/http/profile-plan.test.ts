/**
 * Profile and plan over real HTTP: GET /me/plan (plan, this month's AI answers, plans on offer, upgrade location),
 * GET /organizations (shared Spaces, paged, per user), and the profile's time zone and bounds.
 * Contract: api-spec.md "Profile"; decisions in docs/api-decisions.md.
 */
import { AiAnswers } from '../../read-api/plan/ai-answers';
import { type ApiResponse, type Client, signUp, type TestService, useTestService } from '../support/service';

let svc: TestService;
let base: string;
useTestService((started) => {
  svc = started;
  base = started.base;
}, { WEB_ORIGIN: 'https://app.example.com' });

function expectError(res: ApiResponse, status: number, code: string): void {
  expect({ status: res.status, code: res.body?.error?.code }).toEqual({ status, code });
}

function expectInvalid(res: ApiResponse, field: string): void {
  expectError(res, 400, 'invalid_request');
  expect(res.body.error.details.issues.some((i: { path: string }) => i.path.includes(field))).toBe(true);
}

const keyWith = async (c: Client, scopes: string[]) => (await c.call('POST', '/api-keys', { name: 'Key', scopes })).body.key as string;
const withKey = (key: string, path: string) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${key}` } });

describe('GET /me/plan', () => {
  it('answers the plan, this month\'s AI answers from 0, the plans on offer and where to upgrade', async () => {
    const c = await signUp(base);
    const res = await c.call('GET', '/me/plan');
    expect(res.status).toBe(200);
    const now = new Date();
    const month = now.toISOString().slice(0, 7);
    expect(res.body).toEqual({
      plan: expect.objectContaining({ id: 'free', name: 'Free', price: null }),
      aiAnswers: {
        month, used: 0, limit: res.body.plan.aiAnswersPerMonth,
        resetsAt: new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString(),
      },
      plans: [expect.objectContaining({ id: 'free' }), expect.objectContaining({ id: 'pro', price: { amount: 800, currency: 'EUR', interval: 'month' } })],
      upgradeUrl: 'https://app.example.com/settings/plan',
    });
    expect(res.body.plans[0]).toEqual(res.body.plan);
    expect(res.body.plans[1].aiAnswersPerMonth).toBeGreaterThan(res.body.plan.aiAnswersPerMonth);
  });

  it('counts the answers the assistant records, once per answer, per user and month', async () => {
    const a = await signUp(base);
    const b = await signUp(base);
    const answers = new AiAnswers(svc.service.context.store);
    expect(await answers.record(a.userId, 'message-1')).toBe(true);
    expect(await answers.record(a.userId, 'message-1')).toBe(false);
    await Promise.all(['message-2', 'message-3', 'message-4'].map((id) => answers.record(a.userId, id)));
    await answers.record(a.userId, 'last-month', new Date(Date.UTC(2020, 0, 15)));
    expect((await a.call('GET', '/me/plan')).body.aiAnswers.used).toBe(4);
    expect((await b.call('GET', '/me/plan')).body.aiAnswers.used).toBe(0);
    expect(await answers.usage(a.userId, new Date(Date.UTC(2020, 0, 31)))).toBe(1);
  });

  it('is session only: an API key gets 403 session_required', async () => {
    const c = await signUp(base);
    const res = await withKey(await keyWith(c, ['organizations:read']), '/me/plan');
    expect(res.status).toBe(403);
    expect(((await res.json()) as any).error.code).toBe('session_required');
  });
});

describe('GET /organizations', () => {
  it('lists the shared Spaces the caller belongs to, never personal ones or other people\'s', async () => {
    const a = await signUp(base);
    const b = await signUp(base);
    expect((await a.call('GET', '/organizations')).body).toEqual({ organizations: [], nextPageToken: null });
    const created = await a.call('POST', '/spaces', { name: 'Design team' });
    expect(created.status).toBe(201);
    const space = created.body.space;
    const listed = await a.call('GET', '/organizations');
    expect(listed.status).toBe(200);
    expect(listed.body).toEqual({
      organizations: [{ id: space.id, name: 'Design team', role: 'owner', spaceIds: [space.id], createdAt: space.createdAt }],
      nextPageToken: null,
    });
    expect((await b.call('GET', '/organizations')).body.organizations).toEqual([]);
  });

  it('pages with limit and pageToken', async () => {
    const c = await signUp(base);
    const names = ['One', 'Two', 'Three'];
    for (const name of names) expect((await c.call('POST', '/spaces', { name })).status).toBe(201);
    const seen: string[] = [];
    let token: string | null = null;
    for (let pages = 0; pages < 10; pages++) {
      const res: ApiResponse = await c.call('GET', `/organizations?limit=1${token ? `&pageToken=${encodeURIComponent(token)}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.organizations.length).toBeLessThanOrEqual(1);
      seen.push(...res.body.organizations.map((o: { name: string }) => o.name));
      token = res.body.nextPageToken;
      if (!token) break;
    }
    expect(seen.sort()).toEqual([...names].sort());
    expectInvalid(await c.call('GET', '/organizations?limit=abc'), 'limit');
  });

  it('takes organizations:read', async () => {
    const c = await signUp(base);
    expect((await withKey(await keyWith(c, ['organizations:read']), '/organizations')).status).toBe(200);
    const denied = await withKey(await keyWith(c, ['spaces:read']), '/organizations');
    expect(denied.status).toBe(403);
    expect(((await denied.json()) as any).error).toMatchObject({ code: 'insufficient_scope', details: { required: 'organizations:read' } });
  });
});

describe('PATCH /me: time zone and bounds', () => {
  it('keeps an IANA zone in its IANA spelling whatever the letter case', async () => {
    const c = await signUp(base);
    expect((await c.call('PATCH', '/me', { timeZone: 'europe/berlin' })).body.user.timeZone).toBe('Europe/Berlin');
    expect((await c.call('PATCH', '/me', { timeZone: 'AMERICA/NEW_YORK' })).body.user.timeZone).toBe('America/New_York');
    expect((await c.call('PATCH', '/me', { timeZone: 'UTC' })).body.user.timeZone).toBe('UTC');
  });

  it.each([
    ['a UTC offset instead of a zone', { timeZone: '+02:00' }, 'timeZone'],
    ['a module name that is not a name', { enabledModules: { 'Tasks!': true } }, 'enabledModules'],
    ['a module switched on with a string', { enabledModules: { tasks: 'yes' } }, 'enabledModules'],
    ['more than 100 preferences', { preferences: Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i])) }, 'preferences'],
    ['preferences over 16 KB', { preferences: { notes: 'x'.repeat(17_000) } }, 'preferences'],
    ['weekStartsOn that is not an integer', { weekStartsOn: 1.5 }, 'weekStartsOn'],
  ])('refuses %s with 400 and changes nothing', async (_label, body, field) => {
    const c = await signUp(base);
    const before = (await c.call('GET', '/me')).body.user;
    expectInvalid(await c.call('PATCH', '/me', body), field);
    expect((await c.call('GET', '/me')).body.user).toEqual(before);
  });

  it('switches modules off and on by name', async () => {
    const c = await signUp(base);
    const res = await c.call('PATCH', '/me', { enabledModules: { routines: false, insights: true } });
    expect(res.status).toBe(200);
    expect(res.body.user.enabledModules).toMatchObject({ routines: false, insights: true, tasks: true });
  });
});
