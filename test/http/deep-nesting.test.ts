/**
 * Free-form objects nest at most MAX_JSON_DEPTH levels, and no body at all nests without bound: 5,000 levels in
 * `preferences` of PATCH /me or `diagnostics` of a bug report are 400 invalid_request (not a stack overflow's 500),
 * change nothing, and leave the service answering. Bodies are sent as text: the test's own JSON.stringify would
 * overflow first.
 */
import { MAX_JSON_DEPTH } from '../../contracts/free-form';
import { expectInvalid } from '../support/api-expect';
import { signUp, useTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
useTestService((s) => (svc = s));

const JSON_TYPE = { 'content-type': 'application/json' };
/** `{"a":{"a":…1…}}` with `levels` objects. */
const nested = (levels: number) => `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;
const head = () => svc.service.context.events.headPosition();

const patchMe = (c: Client, preferences: string, headers = {}) =>
  c.call('PATCH', '/me', `{"preferences":${preferences}}`, { ...JSON_TYPE, ...headers });
const reportBug = (c: Client, diagnostics: string, headers = {}) =>
  c.call('POST', '/bug-reports', `{"message":"The week view jumps","diagnostics":${diagnostics}}`, { ...JSON_TYPE, ...headers });

describe('nesting depth of free-form objects', () => {
  it.each([5_000, 100_000])('PATCH /me with preferences %i levels deep: 400, the profile unchanged', async (levels) => {
    const c = await signUp(svc.base);
    const before = (await c.call('GET', '/me')).body.user;
    const position = await head();
    expectInvalid(await patchMe(c, nested(levels)));
    expectInvalid(await patchMe(c, `{"theme":${nested(levels)}}`, { 'If-Match': '*' }));
    expect((await c.call('GET', '/me')).body.user).toEqual(before);
    expect(await head()).toBe(position);
  });

  it.each([5_000, 100_000])('POST /bug-reports with diagnostics %i levels deep: 400, nothing written', async (levels) => {
    const c = await signUp(svc.base);
    const position = await head();
    expectInvalid(await reportBug(c, nested(levels)));
    expectInvalid(await reportBug(c, nested(levels), { 'Idempotency-Key': `deep-${levels}` }));
    expect((await c.call('GET', '/bug-reports')).body.bugReports).toEqual([]);
    expect(await head()).toBe(position);
  });

  it(`takes ${MAX_JSON_DEPTH} levels and refuses one more, naming where`, async () => {
    const c = await signUp(svc.base);
    const deepest = await patchMe(c, nested(MAX_JSON_DEPTH));
    expect(deepest.status).toBe(200);
    let value = deepest.body.user.preferences;
    for (let level = 1; level < MAX_JSON_DEPTH; level++) value = value.a;
    expect(value).toEqual({ a: 1 });

    const refused = await patchMe(c, nested(MAX_JSON_DEPTH + 1));
    expectInvalid(refused, `body.preferences${'.a'.repeat(MAX_JSON_DEPTH)}`);
    expect(refused.body.error.details.issues[0].message).toBe(`nested more than ${MAX_JSON_DEPTH} levels`);
    expect((await reportBug(c, nested(MAX_JSON_DEPTH))).status).toBe(201);
    expectInvalid(await reportBug(c, nested(MAX_JSON_DEPTH + 1)), `body.diagnostics${'.a'.repeat(MAX_JSON_DEPTH)}`);
    expect((await c.call('GET', '/bug-reports')).body.bugReports).toHaveLength(1);
  });

  it('bounds automation action config the same way', async () => {
    const c = await signUp(svc.base);
    const position = await head();
    const body = `{"name":"Deep","enabled":false,"trigger":{"type":"task.completed"},`
      + `"actions":[{"kind":"create_task","config":{"title":"t","extra":${nested(MAX_JSON_DEPTH)}}}]}`;
    expectInvalid(await c.call('POST', '/automations', body, JSON_TYPE), `body.actions.0.config${'.extra'}${'.a'.repeat(MAX_JSON_DEPTH - 1)}`);
    expect(await head()).toBe(position);
  });

  it('refuses a deep body on an operation that reads none, with an Idempotency-Key, and keeps answering', async () => {
    const c = await signUp(svc.base);
    const deep = '['.repeat(200_000) + ']'.repeat(200_000);
    const res = await c.call('POST', '/auth/logout', deep, { ...JSON_TYPE, 'Idempotency-Key': 'deep-logout' });
    expectInvalid(res);
    expect(res.body.error.details.issues[0]).toMatchObject({ path: expect.stringMatching(/^body(\.0)+$/), message: expect.stringMatching(/^nested more than \d+ levels$/) });
    expect((await c.call('GET', '/me')).status).toBe(200);
  });

  it('says the bound in the document', async () => {
    const doc = (await (await fetch(`${svc.base}/openapi.json`)).json()) as any;
    const schemas = doc.components.schemas;
    const bound = `nested at most ${MAX_JSON_DEPTH} levels`;
    expect(JSON.stringify(schemas.UpdateProfileBody.properties.preferences)).toContain(bound);
    expect(JSON.stringify(schemas.CreateBugReportBody.properties.diagnostics)).toContain(bound);
  });
});
