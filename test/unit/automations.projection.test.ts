/**
 * The automations projection: from which log position an automation acts (switched on, its trigger changed),
 * filters kept as a list and answered as an object again, replays changing nothing, unusable events ignored.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { AutomationRecord } from '../../contracts/automations';
import { automationsProjection, recordOf, type AutomationDoc } from '../../projections/automations.projection';
import type { ProjectionDocs } from '../../projections/projection';
import type { RecordedEvent } from '../../services/eventstore/event-store.port';
import { openEmbeddedReadStore } from '../../services/readstore/embedded-read-store';
import type { ReadStore } from '../../services/readstore/read-store.port';

const OWNER = '11111111-1111-4111-8111-111111111111';
let store: ReadStore;
let docs: ProjectionDocs;
let position = 0;
let ids = 0;

beforeAll(async () => {
  store = await openEmbeddedReadStore(path.join(mkdtempSync(path.join(tmpdir(), 'automations-projection-')), 'read.sqlite'));
  docs = (name) => store.collection(`test_${name}`);
});
afterAll(() => store.close());

const at = '2031-05-01T08:00:00.000Z';
const record = (id: string, overrides: Partial<AutomationRecord> = {}): AutomationRecord => ({
  id, ownerId: OWNER, name: 'a', isActive: false, trigger: { type: 'task.completed', filters: { 'data.projectId': 'p1' } },
  actions: [{ kind: 'send_notification', config: { title: 'Hi' } }], problems: [], createdAt: at, updatedAt: at, deletedAt: null, version: 1,
  ...overrides,
});

async function apply(type: string, data: unknown): Promise<RecordedEvent> {
  const e: RecordedEvent = {
    id: `e-${++position}`, type, data, streamId: `automations-${OWNER}`, revision: position, position,
    metadata: { userId: OWNER, correlationId: 'c', causationId: 'c', occurredAt: at, schemaVersion: 1 },
  };
  await automationsProjection.apply(e, docs);
  return e;
}

const doc = async (id: string) => (await docs<AutomationDoc>('automations').get(id))!;
const newId = () => `00000000-0000-4000-8000-${String(++ids).padStart(12, '0')}`;

it('acts from the change that switched it on, keeps that position across other edits, and forgets it while off', async () => {
  const id = newId();
  await apply('automation.created', record(id));
  expect((await doc(id))._activeFromPos).toBeNull();
  const on = await apply('automation.updated', record(id, { isActive: true, version: 2 }));
  expect((await doc(id))._activeFromPos).toBe(on.position);
  await apply('automation.updated', record(id, { isActive: true, name: 'renamed', version: 3 }));
  expect((await doc(id))._activeFromPos).toBe(on.position);
  const retriggered = await apply('automation.updated', record(id, { isActive: true, version: 4, trigger: { type: 'task.completed', filters: { 'data.projectId': 'p2' } } }));
  expect((await doc(id))._activeFromPos).toBe(retriggered.position);
  await apply('automation.updated', record(id, { isActive: false, version: 5 }));
  expect((await doc(id))._activeFromPos).toBeNull();
  await apply('automation.deleted', record(id, { isActive: true, deletedAt: at, version: 6 }));
  expect((await doc(id))._activeFromPos).toBeNull();
});

it('keeps filters as a list and answers the record as its events carry it; a replay changes nothing', async () => {
  const id = newId();
  const created = record(id, { isActive: true, trigger: { type: 'task.created', filters: { 'data.priority': 'high', 'data.projectId': null } } });
  const e = await apply('automation.created', created);
  const stored = await doc(id);
  expect(stored._filters).toEqual([{ path: 'data.priority', value: 'high' }, { path: 'data.projectId', value: null }]);
  expect(Object.keys(stored.trigger)).toEqual(['type']);
  expect(recordOf(stored)).toEqual(created);
  await automationsProjection.apply({ ...e, data: record(id, { name: 'stale' }) }, docs);
  expect(recordOf(await doc(id))).toEqual(created);
});

it.each([null, {}, { id: 'not-a-uuid' }, 'text'])('ignores unusable data %j', async (data) => {
  await expect(apply('automation.created', data)).resolves.toBeDefined();
});
