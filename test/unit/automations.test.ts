/**
 * Automations without I/O: readiness problems, payload paths (filters, placeholders), the decider's rule that an
 * active automation is ready, how a step's outcome is recorded on its run, and every contract example.
 */
import type { z } from 'zod';
import * as contract from '../../contracts/automations';
import type { AutomationRecord } from '../../contracts/automations';
import { Task } from '../../contracts/tasks';
import type { StepOutcome } from '../../services/automations/actions';
import { fillPlaceholders, matchesFilters, valueAt } from '../../services/automations/payload';
import { recorded } from '../../services/automations/run-chain';
import { newRun } from '../../services/automations/run-store';
import { automationsDecider } from '../../write-api/automations/automations.decider';
import { definitionProblems, schemaHasPath, type Definition } from '../../write-api/automations/readiness';
import { given } from '../support/given';

const USER = '11111111-1111-4111-8111-111111111111';
const ID = '22222222-2222-4222-8222-222222222222';
const NOW = '2031-06-01T08:00:00.000Z';
const notify = { kind: 'send_notification', config: { title: 'Hi' } };
const def = (trigger: Partial<Definition['trigger']>, actions: Definition['actions'] = [notify]): Definition => ({
  trigger: { type: 'task.completed', filters: {}, ...trigger }, actions,
});
const paths = (d: Definition) => definitionProblems(d).map((p) => p.path);

describe('readiness', () => {
  it('a webhook type with a known action is ready', () => {
    expect(definitionProblems(def({}))).toEqual([]);
    expect(definitionProblems(def({ type: 'form.submitted' }))).toEqual([]);
  });

  it('refuses time-based trigger types as unavailable and unknown ones as unknown', () => {
    for (const type of ['event.starting', 'routine.period.starting', 'routine.period.ending', 'task.overdue']) {
      expect(definitionProblems(def({ type }))).toEqual([{ path: 'trigger.type', message: expect.stringMatching(/time-based/) }]);
    }
    expect(definitionProblems(def({ type: 'task.finished' }))).toEqual([{ path: 'trigger.type', message: expect.stringMatching(/unknown trigger type/) }]);
  });

  it('needs actions, known kinds and each kind\'s required config', () => {
    expect(paths(def({}, []))).toEqual(['actions']);
    expect(paths(def({}, [{ kind: 'fly', config: {} }]))).toEqual(['actions.0.kind']);
    expect(paths(def({}, [
      notify, { kind: 'create_event', config: { title: 'x', durationMinutes: null } }, { kind: 'call_webhook', config: {} },
      { kind: 'create_task', config: { dueInDays: 1 } },
    ]))).toEqual(['actions.1.config.startsInMinutes', 'actions.1.config.durationMinutes', 'actions.2.config.url', 'actions.3.config.title']);
  });

  it('checks filter paths against the type\'s payload', () => {
    expect(paths(def({ filters: { 'data.projectId': 'p', 'data.title': 't', id: 'x', type: 'task.completed', createdAt: 'x' } }))).toEqual([]);
    expect(paths(def({ filters: { 'data.projectID': 'p', 'previous.dueAt': null, 'data.title.x': 1, 'id.x': 1, nope: 1 } }))).toEqual([
      'trigger.filters.data.projectID', 'trigger.filters.previous.dueAt', 'trigger.filters.data.title.x', 'trigger.filters.id.x', 'trigger.filters.nope',
    ]);
    expect(paths(def({ type: 'task.due_changed', filters: { 'previous.dueAt': null } }))).toEqual([]);
    expect(paths(def({ type: 'event.created', filters: { 'data.attendees.0.email': 'a@b.c', 'data.attendees.x': 1 } }))).toEqual([
      'trigger.filters.data.attendees.x',
    ]);
    expect(paths(def({ type: 'form.submitted', filters: { 'data.answers.0.answer': 'yes' } }))).toEqual([]);
  });

  it('walks object, nullable, array and open schemas', () => {
    const task: z.ZodType = Task;
    expect(schemaHasPath(task, ['dueAt'])).toBe(true);
    expect(schemaHasPath(task, ['dueAt', 'x'])).toBe(false);
    expect(schemaHasPath(task, ['missing'])).toBe(false);
    expect(schemaHasPath(contract.ActionInput, ['config', 'anything', 'deeper'])).toBe(true);
  });
});

describe('payload paths', () => {
  const payload = { id: 'e1', type: 'task.completed', data: { title: 'Report', n: 3, done: true, tags: ['a', 'b'], none: null, nested: { x: 1 } } };

  it('reads own properties and array indexes only', () => {
    expect(valueAt(payload, 'data.title')).toBe('Report');
    expect(valueAt(payload, 'data.tags.1')).toBe('b');
    expect(valueAt(payload, 'data.tags.length')).toBeUndefined();
    expect(valueAt(payload, 'data.constructor')).toBeUndefined();
    expect(valueAt(payload, 'data.title.length')).toBeUndefined();
  });

  it('matches when every filter holds; null matches null or missing', () => {
    expect(matchesFilters(payload, {})).toBe(true);
    expect(matchesFilters(payload, { 'data.title': 'Report', 'data.n': 3, 'data.done': true })).toBe(true);
    expect(matchesFilters(payload, { 'data.title': 'Report', 'data.n': '3' })).toBe(false);
    expect(matchesFilters(payload, { 'data.none': null, 'data.missing': null })).toBe(true);
    expect(matchesFilters(payload, { 'data.title': null })).toBe(false);
    expect(matchesFilters(payload, { 'data.nested': 1 })).toBe(false);
  });

  it('fills placeholders with scalars, nothing for the rest, and bounds the length', () => {
    expect(fillPlaceholders('Done: {{data.title}} ({{ data.n }}, {{data.done}})', payload, 100)).toBe('Done: Report (3, true)');
    expect(fillPlaceholders('{{data.nested}}{{data.missing}}x{{data.none}}', payload, 100)).toBe('x');
    expect(fillPlaceholders('{{data.title}}', payload, 3)).toBe('Rep');
    expect(fillPlaceholders('ab😀', payload, 3)).toBe('ab');
    expect(fillPlaceholders('{{not a path}}', payload, 100)).toBe('{{not a path}}');
  });
});

describe('automations decider', () => {
  const record = (overrides: Partial<AutomationRecord> = {}): AutomationRecord => ({
    id: ID, ownerId: USER, name: 'a', isActive: false, trigger: { type: 'task.completed', filters: {} }, actions: [notify],
    problems: [], createdAt: NOW, updatedAt: NOW, deletedAt: null, version: 1, ...overrides,
  });
  const created = (overrides: Partial<AutomationRecord> = {}) => ({ type: 'automation.created' as const, data: record(overrides) });
  const problems = [{ path: 'actions', message: 'add at least one action' }];

  it('switches a ready automation on, and any automation off', () => {
    given(automationsDecider, [created()]).when({ type: 'Update', id: ID, changes: { isActive: true }, now: NOW })
      .then([{ type: 'automation.updated', data: record({ isActive: true, version: 2 }) }]);
    given(automationsDecider, [created({ isActive: true, problems })])
      .when({ type: 'Update', id: ID, changes: { isActive: false, problems }, now: NOW })
      .then([{ type: 'automation.updated', data: record({ isActive: false, problems, version: 2 }) }]);
  });

  it('refuses to leave an automation on with problems: 422 automation_not_ready', () => {
    const err = given(automationsDecider, [created({ problems })])
      .when({ type: 'Update', id: ID, changes: { isActive: true }, now: NOW }).thenThrows('automation_not_ready');
    expect(err.status).toBe(422);
    expect(err.details).toEqual({ problems });
    given(automationsDecider, [created({ isActive: true })])
      .when({ type: 'Update', id: ID, changes: { actions: [], problems }, now: NOW }).thenThrows('automation_not_ready');
  });

  it('is 404 for someone else\'s or a deleted automation', () => {
    given(automationsDecider, []).when({ type: 'Update', id: ID, changes: { isActive: false }, now: NOW }).thenThrows('not_found');
    given(automationsDecider, [created(), { type: 'automation.deleted', data: record({ deletedAt: NOW, version: 2 }) }])
      .when({ type: 'Delete', id: ID, now: NOW }).thenThrows('not_found');
  });
});

describe('recording a step on its run', () => {
  const run = () => newRun({ id: ID, ownerId: USER, name: 'a', actions: [notify, notify, notify] }, {
    id: '33333333-3333-4333-8333-333333333333', type: 'task.completed', createdAt: NOW, data: {},
  }, 42);
  const attempt = { at: NOW, status: 500, responseTimeMs: 5, error: 'HTTP 500' };
  const statuses = (fields: ReturnType<typeof recorded>) => fields.steps!.map((s) => s.status);

  it('keeps the run going and its lease renewed after a success that is not the last', () => {
    const fields = recorded(run(), 0, { status: 'succeeded', output: { notificationId: 'n' } }, 10_000);
    expect(statuses(fields)).toEqual(['succeeded', 'pending', 'pending']);
    expect(fields.status).toBeUndefined();
    expect(fields.dueMs).toBeGreaterThan(Date.now() + 9_000);
    expect(fields.steps![0]).toMatchObject({ output: { notificationId: 'n' }, error: null, finishedAt: expect.any(String) });
  });

  it('ends the run at the first failure and skips the rest', () => {
    const outcome: StepOutcome = { status: 'failed', error: { code: 'webhook_failed', message: 'no' }, attempt };
    const fields = recorded(run(), 1, outcome, 10_000);
    expect(statuses(fields)).toEqual(['pending', 'failed', 'skipped']);
    expect(fields).toMatchObject({ status: 'failed', dueMs: null, lease: null, finishedAt: expect.any(String) });
    expect(fields.steps![1].attempts).toEqual([attempt]);
  });

  it('hands a waiting webhook call back, due at its retry', () => {
    const fields = recorded(run(), 0, { status: 'retrying', attempt, nextAttemptMs: 123 }, 10_000);
    expect(statuses(fields)).toEqual(['retrying', 'pending', 'pending']);
    expect(fields).toMatchObject({ dueMs: 123, lease: null });
    expect(fields.status).toBeUndefined();
  });

  it('finishes the run after the last step', () => {
    const done = { ...run(), steps: run().steps.map((s) => ({ ...s, status: s.index < 2 ? 'succeeded' as const : s.status })) };
    const fields = recorded(done, 2, { status: 'succeeded', output: {} }, 10_000);
    expect(fields).toMatchObject({ status: 'succeeded', dueMs: null, lease: null });
  });
});

describe('automation contract examples', () => {
  const named = Object.entries(contract as Record<string, unknown>).filter(
    (entry): entry is [string, z.ZodType] => typeof (entry[1] as z.ZodType)?.meta === 'function' && !!(entry[1] as z.ZodType).meta()?.id,
  );

  it('names every request and response schema', () => {
    expect(named.map(([name]) => name)).toEqual(expect.arrayContaining([
      'CreateAutomationBody', 'UpdateAutomationBody', 'Automation', 'AutomationSummary', 'AutomationList', 'AutomationCreated',
      'AutomationResponse', 'AutomationRun', 'AutomationRunList', 'TriggerInput', 'ActionInput', 'Problem',
    ]));
  });

  it.each(named)('%s has examples, each valid', (_name, schema) => {
    const examples = schema.meta()?.examples as unknown[] | undefined;
    expect(examples?.length).toBeGreaterThan(0);
    for (const example of examples!) expect(schema.safeParse(example).error?.issues).toBeUndefined();
  });
});
