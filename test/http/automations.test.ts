/**
 * The automations API over real HTTP: create (on, off, refused when not ready), the flat list with `rules`, one
 * automation, PATCH on only when ready (422 `automation_not_ready` with `details.problems`) and off always, edits,
 * If-Match, DELETE, runs of an automation, idempotent creates, the limit, scopes, bad input and other people's ids.
 * Contract: api-spec.md "Automations" and section 3, addendum.md "Focus, routines, automations, assistant".
 */
import { AUTOMATION_LIMITS } from '../../contracts/automations';
import { expectError, expectInvalid, expectNotFound } from '../support/api-expect';
import { request, signUp, useTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
useTestService((started) => (svc = started), { RATE_LIMIT_PER_CREDENTIAL: '100000' });

const OTHER_ID = '00000000-0000-4000-8000-000000000123';

const ready = {
  name: 'Finished work',
  enabled: true,
  trigger: { type: 'task.completed' },
  actions: [
    { kind: 'send_notification', config: { title: 'Done: {{data.title}}' } },
    { kind: 'create_task', config: { title: 'Follow up', dueInDays: 2 } },
  ],
};

async function create(c: Client, body: unknown = ready) {
  const res = await c.call('POST', '/automations', body);
  expect(res.status).toBe(201);
  return res.body.automation as { id: string; version: number; isActive: boolean; problems: Array<{ path: string; message: string }> };
}

const listOf = async (c: Client) => {
  const res = await c.call('GET', '/automations');
  expect(res.status).toBe(200);
  return res.body.automations as Array<Record<string, unknown>>;
};

describe('POST /automations', () => {
  it('creates a ready automation switched on: 201 with the automation, its ETag and the secret once', async () => {
    const c = await signUp(svc.base);
    const res = await c.call('POST', '/automations', ready);
    expect(res.status).toBe(201);
    expect(res.body.secret).toMatch(/^whsec_[A-Za-z0-9_-]{20,}$/);
    expect(res.body.automation).toMatchObject({
      name: 'Finished work', isActive: true, enabled: true, ready: true, problems: [], runCount: 0, lastRun: null, version: 1,
      ownerId: c.userId, trigger: { type: 'task.completed', filters: {} },
      actions: [{ kind: 'send_notification', config: { title: 'Done: {{data.title}}' } }, { kind: 'create_task', config: { title: 'Follow up', dueInDays: 2 } }],
    });
    expect(res.headers.get('etag')).toBe('"v1"');
    expect(res.headers.get('x-calendar-position')).toMatch(/^\d+$/);

    const one = await c.call('GET', `/automations/${res.body.automation.id}`);
    expect(one.status).toBe(200);
    expect(one.body.automation).toEqual(res.body.automation);
    expect(JSON.stringify(one.body)).not.toContain('whsec_');
  });

  it('keeps an automation that cannot run off, with every problem listed by path', async () => {
    const c = await signUp(svc.base);
    const draft = await create(c, {
      name: 'Draft', enabled: false,
      trigger: { type: 'event.starting', filters: { 'data.nope': 1 } },
      actions: [
        { kind: 'create_event', config: { title: 'Prep' } },
        { kind: 'call_webhook', config: { url: 'http://127.0.0.1:9/hook' } },
        { kind: 'teleport', config: {} },
      ],
    });
    expect(draft.isActive).toBe(false);
    const paths = draft.problems.map((p) => p.path);
    expect(paths).toEqual(expect.arrayContaining([
      'trigger.type', 'actions.0.config.startsInMinutes', 'actions.0.config.durationMinutes', 'actions.1.config.url', 'actions.2.kind',
    ]));
    expect(draft.problems.find((p) => p.path === 'trigger.type')!.message).toMatch(/time-based/);
    for (const p of draft.problems) expect(typeof p.message).toBe('string');
    const [summary] = await listOf(c);
    expect(summary).toMatchObject({ id: draft.id, isActive: false, ready: false });
  });

  it('lists unknown trigger types, unknown filter paths and missing actions as problems', async () => {
    const c = await signUp(svc.base);
    const unknown = await create(c, { name: 'x', enabled: false, trigger: { type: 'task.exploded' } });
    expect(unknown.problems).toEqual([
      { path: 'trigger.type', message: expect.stringMatching(/unknown trigger type/) },
      { path: 'actions', message: expect.any(String) },
    ]);
    const badPath = await create(c, {
      name: 'y', enabled: false, trigger: { type: 'task.completed', filters: { 'data.projectID': 'x', 'previous.dueAt': null, 'data.title': 'ok' } },
      actions: [{ kind: 'send_notification', config: { title: 't' } }],
    });
    expect(badPath.problems.map((p) => p.path).sort()).toEqual(['trigger.filters.data.projectID', 'trigger.filters.previous.dueAt']);
    const due = await create(c, {
      name: 'z', enabled: true, trigger: { type: 'task.due_changed', filters: { 'previous.dueAt': null, 'data.projectId': null } },
      actions: [{ kind: 'send_notification', config: { title: 't' } }],
    });
    expect(due).toMatchObject({ isActive: true, problems: [] });
  });

  it('refuses to create an automation on that cannot run: 422 automation_not_ready, nothing stored', async () => {
    const c = await signUp(svc.base);
    const res = await c.call('POST', '/automations', { ...ready, actions: [{ kind: 'create_task', config: {} }] });
    expectError(res, 422, 'automation_not_ready');
    expect(res.body.error.details.problems).toEqual([{ path: 'actions.0.config.title', message: expect.any(String) }]);
    expect(await listOf(c)).toEqual([]);
  });

  it('is off unless `enabled` says otherwise', async () => {
    const c = await signUp(svc.base);
    const { enabled: _enabled, ...withoutEnabled } = ready;
    expect((await create(c, withoutEnabled)).isActive).toBe(false);
  });

  it('answers a retried create (same Idempotency-Key) with the same automation and secret, storing one', async () => {
    const c = await signUp(svc.base);
    const headers = { 'Idempotency-Key': 'create-automation-1' };
    const first = await c.call('POST', '/automations', ready, headers);
    const again = await c.call('POST', '/automations', ready, headers);
    expect(first.status).toBe(201);
    expect(again.body).toEqual(first.body);
    expect(await listOf(c)).toHaveLength(1);
  });

  it(`refuses automation number ${AUTOMATION_LIMITS.perUser + 1} with 409 automation_limit_reached`, async () => {
    const c = await signUp(svc.base);
    for (let i = 0; i < AUTOMATION_LIMITS.perUser; i += 10) {
      await Promise.all(Array.from({ length: 10 }, () => create(c)));
    }
    expectError(await c.call('POST', '/automations', ready), 409, 'automation_limit_reached');
    const page = await c.call('GET', '/automations?limit=60');
    expect(page.body.automations).toHaveLength(60);
    const rest = await c.call('GET', `/automations?limit=60&pageToken=${page.body.nextPageToken}`);
    expect(rest.body.automations).toHaveLength(AUTOMATION_LIMITS.perUser - 60);
    expect(rest.body.nextPageToken).toBeNull();
  });
});

describe('GET /automations', () => {
  it('answers flat summaries, oldest first, with `rules` repeating them', async () => {
    const c = await signUp(svc.base);
    const first = await create(c);
    const second = await create(c, { name: 'Hook', enabled: false, trigger: { type: 'booking.created' }, actions: [{ kind: 'call_webhook', config: { url: 'https://example.com/x' } }] });
    const res = await c.call('GET', '/automations');
    expect(res.status).toBe(200);
    expect(res.body.automations).toEqual([
      expect.objectContaining({
        id: first.id, name: 'Finished work', triggerType: 'task.completed', actionKinds: ['send_notification', 'create_task'],
        isActive: true, enabled: true, ready: true, runCount: 0, lastRunAt: null, lastRunStatus: null,
      }),
      expect.objectContaining({ id: second.id, triggerType: 'booking.created', actionKinds: ['call_webhook'], isActive: false }),
    ]);
    expect(res.body.rules).toEqual(res.body.automations);
    expect(res.body.nextPageToken).toBeNull();
    for (const s of res.body.automations) expect(Object.values(s).some((v) => v !== null && typeof v === 'object' && !Array.isArray(v))).toBe(false);
  });
});

describe('PATCH /automations/{id}', () => {
  it('switches on only when ready: 422 with the problems and nothing changed, then on once fixed, off always', async () => {
    const c = await signUp(svc.base);
    const draft = await create(c, { name: 'Draft', enabled: false, trigger: { type: 'task.completed' }, actions: [] });

    const refused = await c.call('PATCH', `/automations/${draft.id}`, { isActive: true });
    expectError(refused, 422, 'automation_not_ready');
    expect(refused.body.error.details.problems).toEqual([{ path: 'actions', message: expect.any(String) }]);
    expect((await c.call('GET', `/automations/${draft.id}`)).body.automation).toMatchObject({ isActive: false, version: 1 });

    const off = await c.call('PATCH', `/automations/${draft.id}`, { isActive: false });
    expect(off.status).toBe(200);
    expect(off.body.automation).toMatchObject({ isActive: false, ready: false });

    const fixed = await c.call('PATCH', `/automations/${draft.id}`, { actions: [{ kind: 'send_notification', config: { title: 'Hi' } }] });
    expect(fixed.status).toBe(200);
    expect(fixed.body.automation).toMatchObject({ isActive: false, ready: true, problems: [] });
    const on = await c.call('PATCH', `/automations/${draft.id}`, { isActive: true });
    expect(on.status).toBe(200);
    expect(on.body.automation).toMatchObject({ isActive: true, enabled: true });
    expect(on.headers.get('etag')).toBe(`"v${on.body.automation.version}"`);
    expect((await listOf(c))[0]).toMatchObject({ id: draft.id, isActive: true });

    const offAgain = await c.call('PATCH', `/automations/${draft.id}`, { isActive: false });
    expect(offAgain.body.automation.isActive).toBe(false);
  });

  it('keeps an active automation ready: an edit that would break it is 422, and so is a private receiver URL', async () => {
    const c = await signUp(svc.base);
    const on = await create(c);
    expectError(await c.call('PATCH', `/automations/${on.id}`, { actions: [] }), 422, 'automation_not_ready');
    const privateUrl = await c.call('PATCH', `/automations/${on.id}`, { actions: [{ kind: 'call_webhook', config: { url: 'http://10.1.2.3/hook' } }] });
    expectError(privateUrl, 422, 'automation_not_ready');
    expect(privateUrl.body.error.details.problems[0]).toEqual({ path: 'actions.0.config.url', message: expect.stringMatching(/private/) });
    const renamed = await c.call('PATCH', `/automations/${on.id}`, { name: 'Renamed', trigger: { type: 'task.created', filters: { 'data.priority': 'high' } } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.automation).toMatchObject({ name: 'Renamed', isActive: true, trigger: { type: 'task.created', filters: { 'data.priority': 'high' } }, actions: ready.actions });
  });

  it('honours If-Match: a stale ETag is 412 version_mismatch', async () => {
    const c = await signUp(svc.base);
    const a = await create(c);
    const changed = await c.call('PATCH', `/automations/${a.id}`, { name: 'v2' }, { 'If-Match': '"v1"' });
    expect(changed.status).toBe(200);
    expectError(await c.call('PATCH', `/automations/${a.id}`, { name: 'v3' }, { 'If-Match': '"v1"' }), 412, 'version_mismatch');
    expectError(await c.call('DELETE', `/automations/${a.id}`, undefined, { 'If-Match': '"v1"' }), 412, 'version_mismatch');
  });
});

describe('DELETE /automations/{id}', () => {
  it('deletes: 204, then 404 everywhere and gone from the list', async () => {
    const c = await signUp(svc.base);
    const a = await create(c);
    const res = await c.call('DELETE', `/automations/${a.id}`);
    expect(res.status).toBe(204);
    expect(res.body).toBeFalsy();
    expectNotFound(await c.call('GET', `/automations/${a.id}`));
    expectNotFound(await c.call('GET', `/automations/${a.id}/runs`));
    expectNotFound(await c.call('PATCH', `/automations/${a.id}`, { isActive: false }));
    expectNotFound(await c.call('DELETE', `/automations/${a.id}`));
    expect(await listOf(c)).toEqual([]);
  });
});

describe('GET /automations/{id}/runs', () => {
  it('answers an empty page for an automation that has not run', async () => {
    const c = await signUp(svc.base);
    const a = await create(c);
    const res = await c.call('GET', `/automations/${a.id}/runs`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ runs: [], nextPageToken: null });
  });
});

describe('other people and scopes', () => {
  it('other people\'s automations are 404 on every route and never listed', async () => {
    const owner = await signUp(svc.base);
    const other = await signUp(svc.base);
    const a = await create(owner);
    for (const [method, path, body] of [
      ['GET', `/automations/${a.id}`], ['GET', `/automations/${a.id}/runs`], ['PATCH', `/automations/${a.id}`, { isActive: false }],
      ['DELETE', `/automations/${a.id}`], ['GET', `/automations/${OTHER_ID}`], ['PATCH', `/automations/${OTHER_ID}`, { isActive: true }],
    ] as Array<[string, string, unknown?]>) {
      expectNotFound(await other.call(method, path, body));
    }
    expect(await listOf(other)).toEqual([]);
    expect((await owner.call('GET', `/automations/${a.id}`)).body.automation).toMatchObject({ isActive: true, version: 1 });
  });

  it('automations:read reads, automations:write writes', async () => {
    const c = await signUp(svc.base);
    const a = await create(c);
    const key = async (scope: string) => (await c.call('POST', '/api-keys', { name: scope, scopes: [scope] })).body.key as string;
    const reader = { authorization: `Bearer ${await key('automations:read')}` };
    const writer = { authorization: `Bearer ${await key('automations:write')}` };
    expect((await request(svc.base, 'GET', '/automations', undefined, reader)).status).toBe(200);
    expect((await request(svc.base, 'GET', `/automations/${a.id}/runs`, undefined, reader)).status).toBe(200);
    expectError(await request(svc.base, 'POST', '/automations', ready, reader), 403, 'insufficient_scope');
    expect((await request(svc.base, 'PATCH', `/automations/${a.id}`, { isActive: false }, writer)).status).toBe(200);
    expectError(await request(svc.base, 'GET', '/automations', undefined, writer), 403, 'insufficient_scope');
  });
});

describe('bad input: 400 invalid_request naming the field, nothing written', () => {
  const action = (kind: string, config: unknown) => ({ ...ready, actions: [{ kind, config }] });
  const cases: Array<[string, unknown, string]> = [
    ['no name', { ...ready, name: undefined }, 'body.name'],
    ['a blank name', { ...ready, name: '   ' }, 'body.name'],
    ['enabled not a boolean', { ...ready, enabled: 'yes' }, 'body.enabled'],
    ['no trigger', { ...ready, trigger: undefined }, 'body.trigger'],
    ['a trigger type that is not a string', { ...ready, trigger: { type: 7 } }, 'body.trigger.type'],
    ['an overlong trigger type', { ...ready, trigger: { type: 'x'.repeat(101) } }, 'body.trigger.type'],
    ['an unknown trigger field', { ...ready, trigger: { type: 'task.completed', when: 'now' } }, 'body.trigger'],
    ['a filter path into a prototype', { ...ready, trigger: { type: 'task.completed', filters: { 'data.__proto__': 1 } } }, 'body.trigger.filters.data.__proto__'],
    ['a filter path that is not dotted', { ...ready, trigger: { type: 'task.completed', filters: { 'data..x': 1 } } }, 'body.trigger.filters.data..x'],
    ['a filter value that is an object', { ...ready, trigger: { type: 'task.completed', filters: { 'data.title': { $ne: 1 } } } }, 'body.trigger.filters.data.title'],
    ['too many filters', { ...ready, trigger: { type: 'task.completed', filters: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`data.f${i}`, i])) } }, 'body.trigger.filters'],
    ['actions not a list', { ...ready, actions: { kind: 'create_task' } }, 'body.actions'],
    ['too many actions', { ...ready, actions: Array.from({ length: 21 }, () => ready.actions[0]) }, 'body.actions'],
    ['an unknown action field', { ...ready, actions: [{ kind: 'create_task', config: { title: 'x' }, when: 1 }] }, 'body.actions.0'],
    ['an action kind that is not a string', action(5 as never, {}), 'body.actions.0.kind'],
    ['a config that is not an object', action('create_task', 'title'), 'body.actions.0.config'],
    ['a title that is not a string', action('create_task', { title: 5 }), 'body.actions.0.config.title'],
    ['a blank title', action('send_notification', { title: '  ' }), 'body.actions.0.config.title'],
    ['a negative dueInDays', action('create_task', { title: 'x', dueInDays: -1 }), 'body.actions.0.config.dueInDays'],
    ['a fractional duration', action('create_event', { title: 'x', startsInMinutes: 0, durationMinutes: 1.5 }), 'body.actions.0.config.durationMinutes'],
    ['an unknown config field of a known kind', action('create_task', { title: 'x', assignee: 'me' }), 'body.actions.0.config'],
    ['a config field name that is not a name', action('teleport', { 'to.$where': 1 }), 'body.actions.0.config.to.$where'],
    ['a url that is not a URL', action('call_webhook', { url: 'not a url' }), 'body.actions.0.config.url'],
    ['a ftp url', action('call_webhook', { url: 'ftp://example.com/x' }), 'body.actions.0.config.url'],
    ['an unknown body field', { ...ready, owner: OTHER_ID }, 'body.owner'],
  ];

  it.each(cases)('POST with %s', async (_what, body, path) => {
    const c = await signUp(svc.base);
    expectInvalid(await c.call('POST', '/automations', body), path);
    expect(await listOf(c)).toEqual([]);
  });

  it('PATCH with nothing, a non-boolean isActive or an unknown field; ids that are not uuids; bad paging', async () => {
    const c = await signUp(svc.base);
    const a = await create(c);
    expectInvalid(await c.call('PATCH', `/automations/${a.id}`, {}));
    expectInvalid(await c.call('PATCH', `/automations/${a.id}`, { isActive: 'true' }), 'body.isActive');
    expectInvalid(await c.call('PATCH', `/automations/${a.id}`, { ownerId: OTHER_ID }), 'body.ownerId');
    expectInvalid(await c.call('PATCH', `/automations/${a.id}`, { actions: [{ kind: 'create_task', config: { title: 1 } }] }), 'body.actions.0.config.title');
    expectInvalid(await c.call('PATCH', '/automations/not-a-uuid', { isActive: true }), 'path.id');
    expectInvalid(await c.call('GET', '/automations?limit=0'), 'query.limit');
    expectInvalid(await c.call('GET', '/automations?pageToken=bogus'), 'query.pageToken');
    expectInvalid(await c.call('GET', `/automations/${a.id}/runs?limit=9999`), 'query.limit');
    expect((await c.call('GET', `/automations/${a.id}`)).body.automation).toMatchObject({ version: 1, name: 'Finished work' });
  });
});
