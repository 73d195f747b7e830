/**
 * Walks every row of the access table (services/http/access.ts): with no credential (401 unauthenticated), with an
 * API key lacking the row's scope (403 insufficient_scope, naming the scope), and with an API key on each
 * session-only row (403 session_required).
 */
import { access, type AccessRule } from '../../services/http/access';
import { request, signUp, startTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
let base: string;
let owner: Client;
const keys = new Map<string, string>();

const concrete = (path: string) =>
  path
    .replace(/\{(id|itemId|periodId)\}/g, '00000000-0000-4000-8000-000000000001')
    .replace('{date}', '2026-12-01')
    .replace('{username}', 'nobody')
    .replace('{slug}', 'nothing');

async function keyWith(scope: string): Promise<string> {
  if (!keys.has(scope)) {
    const res = await owner.call('POST', '/api-keys', { name: `walk ${scope}`, scopes: [scope] });
    if (res.status !== 201) throw new Error(`could not create a key: ${res.status} ${JSON.stringify(res.body)}`);
    keys.set(scope, res.body.key);
  }
  return keys.get(scope)!;
}

const rows = Object.entries(access) as Array<[string, AccessRule]>;
const guarded = rows.filter(([, rule]) => rule.kind !== 'public');
const scoped = rows.filter(([, rule]) => rule.kind === 'scope') as Array<[string, Extract<AccessRule, { kind: 'scope' }>]>;
const sessionOnly = rows.filter(([, rule]) => rule.kind === 'session');

beforeAll(async () => {
  svc = await startTestService({ RATE_LIMIT_PER_CREDENTIAL: '100000', RATE_LIMIT_PER_IP: '100000' });
  base = svc.base;
  owner = await signUp(base);
});
afterAll(() => svc.stop());

describe('every row of the access table', () => {
  it('lists rows of every kind', () => {
    expect(scoped.length).toBeGreaterThan(30);
    expect(sessionOnly.length).toBeGreaterThan(30);
  });

  it.each(guarded.map(([row]) => row))('%s: no credential -> 401 unauthenticated', async (row) => {
    const [method, path] = row.split(' ');
    const res = await request(base, method, concrete(path), method === 'GET' || method === 'DELETE' ? undefined : {});
    expect({ row, status: res.status, code: res.body?.error?.code }).toEqual({ row, status: 401, code: 'unauthenticated' });
  });

  it.each(scoped.map(([row, rule]) => [row, rule.scope]))('%s: a key without %s -> 403 insufficient_scope', async (row, scope) => {
    const other = scope === 'devices:write' ? 'sync:read' : 'devices:write';
    const [method, path] = row.split(' ');
    const res = await request(base, method, concrete(path), method === 'GET' || method === 'DELETE' ? undefined : {}, {
      authorization: `Bearer ${await keyWith(other)}`,
    });
    expect({ row, status: res.status, code: res.body?.error?.code, required: res.body?.error?.details?.required }).toEqual({
      row, status: 403, code: 'insufficient_scope', required: scope,
    });
  });

  it.each(sessionOnly.map(([row]) => row))('%s: an API key -> 403 session_required', async (row) => {
    const [method, path] = row.split(' ');
    const res = await request(base, method, concrete(path), method === 'GET' || method === 'DELETE' ? undefined : {}, {
      authorization: `Bearer ${await keyWith('events:read')}`,
    });
    expect({ row, status: res.status, code: res.body?.error?.code }).toEqual({ row, status: 403, code: 'session_required' });
  });
});
