/**
 * A typed client as an integrator would build one: types generated from the live /openapi.json by
 * openapi-typescript, calls through openapi-fetch, compiled with `tsc --strict`, then run against the service:
 * create an event, patch it with If-Match (and see a stale ETag refused), delete it with If-Match; and create an API
 * key with only `{name, scopes}` (fields with defaults are optional in requests).
 */
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { request, useServiceWithUser } from '../support/service';

const run = promisify(execFile);
const ROOT = path.join(__dirname, '../..');
const bin = (name: string) => path.join(ROOT, 'node_modules/.bin', name);

const svc = useServiceWithUser();

/** The integrator's program: every call typed from the generated `paths`; prints what it saw as JSON. */
const PROGRAM = `
import createClient from 'openapi-fetch';
declare const process: { env: Record<string, string | undefined> };
import type { paths } from './api.js';

const api = createClient<paths>({ baseUrl: process.env.API_BASE!, headers: { Authorization: \`Bearer \${process.env.API_TOKEN!}\` } });

const created = await api.POST('/events', {
  params: { header: { 'Idempotency-Key': 'typed-client-create' } },
  body: { title: 'Typed planning', startsAt: '2032-05-03T09:00:00Z', endsAt: '2032-05-03T10:00:00Z', timeZone: 'Europe/Berlin' },
});
if (!created.data) throw new Error(\`create failed: \${created.response.status}\`);
const id: string = created.data.event.id;
const etag1 = created.response.headers.get('ETag') ?? '';

const patched = await api.PATCH('/events/{id}', {
  params: { path: { id }, header: { 'If-Match': etag1 } },
  body: { title: 'Typed planning (moved)', startsAt: '2032-05-03T13:00:00Z', endsAt: '2032-05-03T14:00:00Z' },
});
const etag2 = patched.response.headers.get('ETag') ?? '';

const stale = await api.PATCH('/events/{id}', { params: { path: { id }, header: { 'If-Match': etag1 } }, body: { title: 'lost update' } });
const staleCode: string | undefined = stale.error?.error.code;

const deleted = await api.DELETE('/events/{id}', { params: { path: { id }, header: { 'If-Match': etag2 } } });
const after = await api.GET('/events/{id}', { params: { path: { id } } });

const key = await api.POST('/api-keys', { body: { name: 'typed client', scopes: ['events:read'] } });

console.log(JSON.stringify({
  created: { status: created.response.status, title: created.data.event.title, version: created.data.event.version, etag1 },
  patched: { status: patched.response.status, title: patched.data?.event.title, version: patched.data?.event.version, etag2 },
  stale: { status: stale.response.status, code: staleCode },
  deleted: deleted.response.status,
  after: { status: after.response.status, code: after.error?.error.code },
  key: { status: key.response.status, environment: key.data?.apiKey.environment, prefix: key.data?.key.slice(0, 8) },
}));
`;

/** Strict for the program; declaration files (the generated types, the libraries) are used, not re-checked, for speed. */
const TSCONFIG = {
  compilerOptions: {
    strict: true, target: 'ES2022', lib: ['ES2022', 'DOM'], module: 'NodeNext', moduleResolution: 'NodeNext', types: [],
    skipLibCheck: true, outDir: 'out',
  },
  files: ['client.mts'],
};

it('is generated from /openapi.json, compiles under --strict, and creates, patches with If-Match and deletes an event', async () => {
  mkdirSync(path.join(ROOT, '.tmp'), { recursive: true });
  // Inside the project, so the program resolves openapi-fetch and @types/node from its node_modules.
  const dir = mkdtempSync(path.join(ROOT, '.tmp', 'typed-client-'));
  try {
    const doc = (await request(svc.base.replace(/\/api\/v1$/, ''), 'GET', '/openapi.json')).body;
    writeFileSync(path.join(dir, 'openapi.json'), JSON.stringify(doc));
    await run(bin('openapi-typescript'), ['openapi.json', '-o', 'api.d.ts'], { cwd: dir });
    writeFileSync(path.join(dir, 'client.mts'), PROGRAM);
    writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify(TSCONFIG));
    await run(bin('tsc'), ['-p', 'tsconfig.json'], { cwd: dir }).catch((err: { stdout?: string }) => {
      throw new Error(`tsc --strict refused the typed client:\n${err.stdout}`);
    });

    const { stdout } = await run(process.execPath, [path.join(dir, 'out', 'client.mjs')], {
      env: { ...process.env, API_BASE: svc.base, API_TOKEN: svc.user.token },
    });
    const seen = JSON.parse(stdout);
    expect(seen.created).toEqual({ status: 201, title: 'Typed planning', version: 1, etag1: '"v1"' });
    expect(seen.patched).toEqual({ status: 200, title: 'Typed planning (moved)', version: 2, etag2: '"v2"' });
    expect(seen.stale).toEqual({ status: 412, code: 'version_mismatch' });
    expect(seen.deleted).toBe(204);
    expect(seen.after).toEqual({ status: 404, code: 'not_found' });
    expect(seen.key).toEqual({ status: 201, environment: 'live', prefix: 'ck_live_' });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}, 90_000);
