/**
 * Hostile input on the task and project routes: every answer is a 4xx in the error envelope (never a 5xx) and the
 * event log does not grow. Contract: addendum.md "Errors" (400 invalid_request writes nothing).
 */
import { prng } from '../support/prng';
import { request, signUp, startTestService, type Client, type TestService } from '../support/service';

let svc: TestService;
let user: Client;
let taskId: string;
let projectId: string;

const random = prng(20311122);
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)];

const HOSTILE: unknown[] = [
  null, true, 0, -1, 1.5, 1e308, '', ' ', 'x'.repeat(20_000), '\u0000', [], [1], {}, { $gt: '' }, { $ne: null },
  { __proto__: { admin: true } }, 'not-a-uuid', '2026-13-45T25:61:00Z', "' OR 1=1 --",
];
const POLLUTION = ['__proto__', 'constructor', '$where', 'createdBy', 'ownerId', 'version', 'rank', 'deletedAt', 'id'];
const BAD_IDS = ['not-a-uuid', '1', '%24gt', 'x'.repeat(300), '00000000-0000-0000-0000-00000000000g'];

/** Values each field refuses (so the whole body must be refused). */
const TASK_FIELDS: Record<string, unknown[]> = {
  title: [null, 5, '', '   ', 'x'.repeat(501), {}, []],
  notes: [5, 'x'.repeat(10_001), {}, []],
  projectId: [5, 'p', {}, [], { $ne: null }],
  listId: [5, 'l', {}, true],
  dueAt: ['yesterday', 5, '2026-02-30T10:00:00Z', {}, true],
  estimateMinutes: [-1, 1.5, '30', 10_081, {}],
  priority: ['urgent', 1, null, {}],
  assigneeId: [5, 'u', {}, []],
};
const PATCH_ONLY: Record<string, unknown[]> = {
  status: ['finished', 1, null, true, {}],
  beforeId: [5, 'x', null, {}],
  afterId: [5, 'x', null, {}],
};
const PROJECT_FIELDS: Record<string, unknown[]> = { name: [null, '', ' ', 5, 'x'.repeat(201), {}], color: ['red', '#12', 5, {}, '#gggggg'], archived: ['yes', 1, null, {}] };

function broken(valid: Record<string, unknown>, fields: Record<string, unknown[]>): Record<string, unknown> {
  const field = pick(Object.keys(fields));
  return random() < 0.2 ? { ...valid, [pick(POLLUTION)]: pick(HOSTILE) } : { ...valid, [field]: pick(fields[field]) };
}

type Case = { method: string; path: string; body?: unknown };

function cases(): Case[] {
  const out: Case[] = [];
  for (let i = 0; i < 700; i++) {
    switch (i % 7) {
      case 0: out.push({ method: 'POST', path: '/tasks', body: broken({ title: 'fuzz' }, TASK_FIELDS) }); break;
      case 1: out.push({ method: 'PATCH', path: `/tasks/${taskId}`, body: broken({}, { ...TASK_FIELDS, ...PATCH_ONLY }) }); break;
      case 2: {
        const method = pick(['GET', 'PATCH', 'DELETE']);
        out.push({ method, path: `/${pick(['tasks', 'projects'])}/${encodeURIComponent(pick(BAD_IDS))}`, body: method === 'PATCH' ? {} : undefined });
        break;
      }
      case 3: out.push({ method: 'POST', path: '/projects', body: broken({ name: 'fuzz' }, { name: PROJECT_FIELDS.name, color: PROJECT_FIELDS.color }) }); break;
      case 4: out.push({ method: 'PATCH', path: `/projects/${projectId}`, body: broken({}, PROJECT_FIELDS) }); break;
      case 5: out.push({ method: 'POST', path: `/projects/${projectId}/lists`, body: pick([{ name: pick(PROJECT_FIELDS.name) }, { [pick(POLLUTION)]: 1 }, '[]', 'null', '{"name":']) }); break;
      default: {
        const param = pick(['status', 'projectId', 'listId', 'assignee', 'dueBefore', 'dueAfter', 'limit', 'pageToken']);
        const value = String(pick(HOSTILE.filter((v) => !Array.isArray(v)))).slice(0, 500);
        out.push({ method: 'GET', path: `/tasks?${param}=${encodeURIComponent(value)}` });
      }
    }
  }
  return out;
}

beforeAll(async () => {
  svc = await startTestService({ RATE_LIMIT_PER_CREDENTIAL: '100000', RATE_LIMIT_PER_IP: '100000' });
  user = await signUp(svc.base);
  projectId = (await user.call('POST', '/projects', { name: 'target' })).body.project.id;
  taskId = (await user.call('POST', '/tasks', { title: 'target', projectId })).body.task.id;
}, 60_000);
afterAll(() => svc.stop());

it('answers hostile task and project requests with 4xx envelopes and stores nothing', async () => {
  const head = await svc.service.context.events.headPosition();
  const all = cases();
  const bad: string[] = [];
  for (let i = 0; i < all.length; i += 20) {
    const batch = all.slice(i, i + 20);
    const answers = await Promise.all(batch.map((c) => request(svc.base, c.method, c.path, c.body, { authorization: `Bearer ${user.token}` })));
    answers.forEach((res, j) => {
      const ok = res.status >= 400 && res.status < 500 && typeof res.body?.error?.code === 'string';
      if (!ok) bad.push(`${batch[j].method} ${batch[j].path.slice(0, 100)} ${JSON.stringify(batch[j].body)?.slice(0, 100)} -> ${res.status}`);
    });
  }
  expect(bad).toEqual([]);
  expect(await svc.service.context.events.headPosition()).toBe(head);
  expect((await user.call('GET', `/tasks/${taskId}`)).body.task).toMatchObject({ title: 'target', version: 1 });
  expect((await user.call('GET', `/projects/${projectId}`)).body.project).toMatchObject({ name: 'target', version: 1 });
}, 120_000);
