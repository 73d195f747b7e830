/**
 * Automations: a trigger (a webhook event type, with optional filters on its payload) and actions that run in order
 * for the owner. Bodies, resources, runs, domain event data and operations.
 *
 * Bad input (wrong types, sizes, unknown fields) is 400. What makes an automation unable to run (no actions, an
 * unknown or unavailable trigger type, an unknown action kind, a missing required config field, a receiver URL that
 * may not be called) is not bad input: it is a readiness problem, listed on the automation, and only switching it
 * on (or creating it on) is refused for it (422 `automation_not_ready`).
 */
import { z } from 'zod';
import { DateTime, documentedAs, ErrorEnvelope, IdParams, NonBlankText, Uuid } from './common';
import { FreeFormObject } from './free-form';
import { op } from './operation';
import { NextPageToken, PageQuery } from './paging';
import { notFoundAnswer, staleEtagAnswer } from './responses';

export const AUTOMATION_LIMITS = { perUser: 100, actions: 20, filters: 20, configFields: 20 } as const;

export const ACTION_KINDS = ['create_task', 'create_event', 'send_notification', 'call_webhook'] as const;
export type ActionKind = (typeof ACTION_KINDS)[number];

const OWNER = '5b0c6d7e-1f2a-4b3c-8d4e-5f6a7b8c9d0e';
const AUTOMATION = '9a1b2c3d-4e5f-4a6b-8c7d-0e1f2a3b4c5d';
const RUN = '4f3e2d1c-0b9a-5876-9543-210fedcba987';
const TRIGGER_EVENT = 'e1d2c3b4-a596-4877-8695-a4b3c2d1e0f9';
const PROJECT = '2f1e0d9c-8b7a-4695-a4b3-c2d1e0f9a8b7';
const TASK = 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f';

/** Characters a text may hold when it is not blank; `{{data.title}}` placeholders are filled from the payload. */
const Text = (max: number) => z.string().min(1).max(max).regex(/\S/, 'must not be blank');
const PLACEHOLDERS = 'May hold `{{path}}` placeholders, filled from the trigger payload (e.g. `{{data.title}}`).';

/** The config fields of each kind: all optional here (a missing required one is a readiness problem). */
export const ACTION_CONFIGS = {
  create_task: z.strictObject({
    title: Text(500).describe(`Required. ${PLACEHOLDERS}`),
    dueInDays: z.number().int().min(0).max(3650).describe('The task is due this many days after the trigger').optional(),
  }).partial(),
  create_event: z.strictObject({
    title: Text(500).describe(`Required. ${PLACEHOLDERS}`),
    startsInMinutes: z.number().int().min(0).max(525_600).describe('Required. Start, in minutes after the trigger'),
    durationMinutes: z.number().int().min(1).max(1440).describe('Required'),
  }).partial(),
  send_notification: z.strictObject({
    title: Text(500).describe(`Required. ${PLACEHOLDERS}`),
    body: z.string().max(2_000).nullable().describe(PLACEHOLDERS),
  }).partial(),
  call_webhook: z.strictObject({
    url: z.url({ protocol: /^https?$/ }).max(2_000).describe('Required. http(s); private addresses are not allowed'),
  }).partial(),
} satisfies Record<ActionKind, z.ZodObject>;

/** The config fields an action of each kind needs before its automation can be switched on. */
export const REQUIRED_CONFIG: Record<ActionKind, readonly string[]> = {
  create_task: ['title'],
  create_event: ['title', 'startsInMinutes', 'durationMinutes'],
  send_notification: ['title'],
  call_webhook: ['url'],
};

export const isActionKind = (kind: string): kind is ActionKind => (ACTION_KINDS as readonly string[]).includes(kind);

const FORBIDDEN_SEGMENTS = new Set(['__proto__', 'prototype', 'constructor']);

/** A dotted path into the delivered payload: `data.projectId`, `data.attendees.0.email`, `previous.dueAt`. */
export const PayloadPath = z
  .string()
  .max(200)
  .regex(/^[A-Za-z0-9_]+(\.[A-Za-z0-9_]+){0,9}$/, 'must be a dotted path such as data.projectId')
  .refine((p) => !p.split('.').some((s) => FORBIDDEN_SEGMENTS.has(s)), 'must not name __proto__, prototype or constructor');

export const FilterValue = z.union([z.string().max(500), z.number(), z.boolean(), z.null()]);

export const Filters = z
  .record(PayloadPath, FilterValue)
  .refine((f) => Object.keys(f).length <= AUTOMATION_LIMITS.filters, `at most ${AUTOMATION_LIMITS.filters} filters`)
  .describe('Dotted payload paths to the values they must hold (all must match; null also matches a missing value). '
    + 'Paths start at the payload a webhook of the type delivers: `id`, `type`, `createdAt`, `data`, `previous`.');

export const TriggerInput = z
  .strictObject({
    type: z.string().min(1).max(100).describe('A webhook event type (GET /webhooks/event-types); time-based types are unavailable'),
    filters: Filters.optional(),
  })
  .meta({ id: 'AutomationTriggerInput', examples: [{ type: 'task.completed', filters: { 'data.projectId': PROJECT } }] });

const ActionConfig = FreeFormObject(
  'By kind: `create_task` {title, dueInDays?}; `create_event` {title, startsInMinutes, durationMinutes}; '
    + '`send_notification` {title, body?}; `call_webhook` {url}',
  {
    key: z.string().regex(/^[A-Za-z][A-Za-z0-9_]{0,63}$/, 'must be a field name (letters, digits, _)'),
    maxKeys: AUTOMATION_LIMITS.configFields,
  },
);

export const ActionInput = z
  .strictObject({
    kind: z.string().min(1).max(50).describe(`One of ${ACTION_KINDS.join(', ')}`),
    config: ActionConfig.default({}),
  })
  .superRefine((action, ctx) => {
    if (!isActionKind(action.kind)) return; // an unknown kind is a readiness problem
    const parsed = ACTION_CONFIGS[action.kind].safeParse(action.config);
    for (const issue of parsed.error?.issues ?? []) {
      ctx.addIssue({ code: 'custom', path: ['config', ...issue.path.map(String)], message: issue.message });
    }
  })
  .meta({ id: 'AutomationActionInput', examples: [{ kind: 'send_notification', config: { title: 'Done: {{data.title}}' } }] });
// Published as one case per kind (its config's own fields only), and one for any other kind (a readiness problem).
documentedAs(ActionInput, z.union([
  ...ACTION_KINDS.map((kind) => z.strictObject({ kind: z.literal(kind), config: ACTION_CONFIGS[kind].optional() })),
  z.strictObject({
    kind: z.string().min(1).max(50).meta({ not: { enum: [...ACTION_KINDS] } }),
    config: ActionConfig.optional(),
  }),
]));
export type ActionInput = z.infer<typeof ActionInput>;

const Name = NonBlankText(200);
const Actions = z.array(ActionInput).max(AUTOMATION_LIMITS.actions).describe('Run in this order; the first failure stops the chain');

const createExample = {
  name: 'Follow up on finished work',
  enabled: true,
  trigger: { type: 'task.completed', filters: { 'data.projectId': PROJECT } },
  actions: [
    { kind: 'send_notification', config: { title: 'Done: {{data.title}}', body: 'Time for the follow-up' } },
    { kind: 'create_task', config: { title: 'Follow up on {{data.title}}', dueInDays: 2 } },
    { kind: 'call_webhook', config: { url: 'https://hooks.example.com/calendar/finished' } },
  ],
};

export const CreateAutomationBody = z
  .object({
    name: Name,
    enabled: z.boolean().default(false).describe('Switch it on at once (default false); 422 `automation_not_ready` if it cannot run'),
    trigger: TriggerInput,
    actions: Actions.default([]).describe('Run in this order; the first failure stops the chain. Without any, it cannot be switched on'),
  })
  .meta({ id: 'CreateAutomationBody', examples: [createExample] });
export type CreateAutomationBody = z.infer<typeof CreateAutomationBody>;

export const UpdateAutomationBody = z
  .object({ isActive: z.boolean(), name: Name, trigger: TriggerInput, actions: Actions })
  .partial()
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: 'send at least one field' })
  .meta({
    id: 'UpdateAutomationBody',
    description: '`isActive` switches it on (only when ready) or off (always). `name`, `trigger` and `actions` replace '
      + 'the current ones; an active automation must stay ready.',
    examples: [{ isActive: true }, { isActive: false }],
  });
export type UpdateAutomationBody = z.infer<typeof UpdateAutomationBody>;

export const Problem = z
  .object({ path: z.string().describe('Where in the automation, e.g. `actions.1.config.url`'), message: z.string() })
  .meta({ id: 'AutomationProblem', examples: [{ path: 'actions.0.config.title', message: 'create_task needs title' }] });
export type Problem = z.infer<typeof Problem>;

const Trigger = z.object({ type: z.string(), filters: z.record(z.string(), FilterValue) });
const Action = z.object({ kind: z.string(), config: z.record(z.string(), z.unknown()) });

const recordExample = {
  id: AUTOMATION, ownerId: OWNER, name: createExample.name, isActive: true,
  trigger: createExample.trigger, actions: createExample.actions, problems: [],
  createdAt: '2031-06-01T08:00:00.000Z', updatedAt: '2031-06-01T08:00:00.000Z', deletedAt: null, version: 1,
};
const lastRunExample = { id: RUN, status: 'succeeded', startedAt: '2031-06-03T16:20:00.412Z', finishedAt: '2031-06-03T16:20:00.893Z' };

/** An automation as its events carry it. */
export const AutomationRecord = z
  .object({
    id: Uuid,
    ownerId: Uuid,
    name: z.string(),
    isActive: z.boolean(),
    trigger: Trigger,
    actions: z.array(Action),
    problems: z.array(Problem).describe('Why it cannot run (empty: ready); computed when it was last written'),
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: DateTime.nullable(),
    version: z.number().int(),
  })
  .meta({ id: 'AutomationRecord', examples: [recordExample] });
export type AutomationRecord = z.infer<typeof AutomationRecord>;

export const RUN_STATUSES = ['running', 'succeeded', 'failed', 'cancelled'] as const;
export const STEP_STATUSES = ['pending', 'retrying', 'succeeded', 'failed', 'skipped'] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];
export type StepStatus = (typeof STEP_STATUSES)[number];

const LastRun = z
  .object({ id: Uuid, status: z.enum(RUN_STATUSES), startedAt: DateTime, finishedAt: DateTime.nullable() })
  .describe('The most recent run; null before the first');

const automationExample = { ...recordExample, enabled: true, ready: true, runCount: 7, lastRun: lastRunExample };

export const Automation = AutomationRecord.omit({ deletedAt: true })
  .extend({
    enabled: z.boolean().describe('The same as `isActive` (the name the create body uses)'),
    ready: z.boolean().describe('No problems: it may be switched on'),
    runCount: z.number().int().describe('Runs so far (one per matching trigger event)'),
    lastRun: LastRun.nullable(),
  })
  .meta({
    id: 'Automation',
    examples: [automationExample],
  });
export type Automation = z.infer<typeof Automation>;

const summaryExample = {
  id: AUTOMATION, name: createExample.name, triggerType: 'task.completed',
  actionKinds: ['send_notification', 'create_task', 'call_webhook'], isActive: true, enabled: true, ready: true, runCount: 7,
  lastRunAt: lastRunExample.startedAt, lastRunStatus: 'succeeded',
  createdAt: '2031-06-01T08:00:00.000Z', updatedAt: '2031-06-01T08:00:00.000Z',
};

export const AutomationSummary = z
  .object({
    id: Uuid,
    name: z.string(),
    triggerType: z.string(),
    actionKinds: z.array(z.string()).describe('The kinds of its actions, in order'),
    isActive: z.boolean().describe('On or off'),
    enabled: z.boolean().describe('The same as `isActive`'),
    ready: z.boolean(),
    runCount: z.number().int(),
    lastRunAt: DateTime.nullable().describe('When the most recent run started'),
    lastRunStatus: z.enum(RUN_STATUSES).nullable(),
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({
    id: 'AutomationSummary',
    examples: [summaryExample],
  });
export type AutomationSummary = z.infer<typeof AutomationSummary>;

export const AutomationList = z
  .object({
    automations: z.array(AutomationSummary).describe('Oldest first'),
    rules: z.array(AutomationSummary).describe('The same list, for older clients'),
    nextPageToken: NextPageToken,
  })
  .meta({ id: 'AutomationList', examples: [{ automations: [summaryExample], rules: [summaryExample], nextPageToken: null }] });

export const AutomationCreated = z
  .object({
    automation: Automation,
    secret: z.string().describe('`whsec_…`: signs its `call_webhook` requests like webhook deliveries; shown only here'),
  })
  .meta({
    id: 'AutomationCreated',
    examples: [{ automation: { ...automationExample, runCount: 0, lastRun: null }, secret: 'whsec_3q2-7wEAAAAx1V9mZ0bKQmQ1c2V0aGlzZm9y' }],
  });

export const AutomationResponse = z
  .object({ automation: Automation })
  .meta({ id: 'AutomationResponse', examples: [{ automation: automationExample }] });

export const WebhookAttempt = z.object({
  at: DateTime,
  status: z.number().int().nullable(),
  responseTimeMs: z.number().int().nullable(),
  error: z.string().nullable(),
});

const runExample = {
  id: RUN, automationId: AUTOMATION, status: 'succeeded',
  triggerEvent: {
    id: TRIGGER_EVENT, type: 'task.completed', createdAt: '2031-06-03T16:20:00.301Z',
    data: { id: TASK, title: 'Send the Q3 report', status: 'done', projectId: PROJECT },
  },
  steps: [
    { index: 0, kind: 'send_notification', status: 'succeeded', output: { notificationId: '0d6f4f0e-5b1c-5e7a-9a43-6f1d2c3b4a51' }, error: null, attempts: [], finishedAt: '2031-06-03T16:20:00.520Z' },
    { index: 1, kind: 'create_task', status: 'succeeded', output: { taskId: '6a5b4c3d-2e1f-5a0b-9c8d-7e6f5a4b3c2d' }, error: null, attempts: [], finishedAt: '2031-06-03T16:20:00.611Z' },
    {
      index: 2, kind: 'call_webhook', status: 'succeeded', output: { deliveryId: '1b2c3d4e-5f6a-5b7c-8d9e-0f1a2b3c4d5e', status: 200 }, error: null,
      attempts: [{ at: '2031-06-03T16:20:00.640Z', status: 200, responseTimeMs: 241, error: null }], finishedAt: '2031-06-03T16:20:00.893Z',
    },
  ],
  startedAt: '2031-06-03T16:20:00.412Z', finishedAt: '2031-06-03T16:20:00.893Z',
};

export const RunStep = z
  .object({
    index: z.number().int(),
    kind: z.string(),
    status: z.enum(STEP_STATUSES).describe('`retrying`: a call_webhook waiting for its next attempt; `skipped`: not run '
      + 'because an earlier step failed or the run was cancelled'),
    output: z.record(z.string(), z.unknown()).nullable()
      .describe('What it made: `{taskId}`, `{eventId}`, `{notificationId}` or `{deliveryId, status}`'),
    error: z.object({ code: z.string(), message: z.string() }).nullable(),
    attempts: z.array(WebhookAttempt).describe('call_webhook only: every attempt'),
    finishedAt: DateTime.nullable(),
  })
  .meta({ id: 'AutomationRunStep', examples: [runExample.steps[2]] });

export const AutomationRun = z
  .object({
    id: Uuid,
    automationId: Uuid,
    status: z.enum(RUN_STATUSES).describe('`cancelled`: the automation was switched off or deleted before the chain ended'),
    triggerEvent: z
      .object({ id: Uuid, type: z.string(), createdAt: DateTime, data: z.unknown(), previous: z.unknown().optional() })
      .describe('The payload a webhook of the type delivered for the event (its `id` is the domain event id)'),
    steps: z.array(RunStep),
    startedAt: DateTime,
    finishedAt: DateTime.nullable(),
  })
  .meta({ id: 'AutomationRun', examples: [runExample] });
export type AutomationRun = z.infer<typeof AutomationRun>;

export const AutomationRunList = z
  .object({ runs: z.array(AutomationRun).describe('Newest trigger first'), nextPageToken: NextPageToken })
  .meta({ id: 'AutomationRunList', examples: [{ runs: [runExample], nextPageToken: null }] });

export const ListAutomationsQuery = PageQuery;
export const ListRunsQuery = PageQuery;

const notReady = {
  description: '`automation_not_ready`: it cannot run yet; `details.problems` = [{path, message}]',
  schema: ErrorEnvelope,
};
const notFound = notFoundAnswer('automations');

export const automationOperations = [
  op({
    method: 'get', path: '/automations', tag: 'Automations', summary: 'The caller\'s automations as flat summaries',
    description: 'Oldest first, paged. `rules` repeats `automations` for older clients.',
    query: ListAutomationsQuery,
    responses: { 200: { description: 'Summaries', schema: AutomationList } },
  }),
  op({
    method: 'post', path: '/automations', etag: true, tag: 'Automations', summary: 'Create an automation', body: CreateAutomationBody,
    description: 'Becomes a workflow: on each matching event (after creation) the actions run in order, as the owner. '
      + 'An automation that cannot run yet is kept off with its `problems` listed; asked to be created `enabled`, it is '
      + 'refused instead (422, nothing stored). The signing secret of its `call_webhook` requests is answered once.',
    responses: {
      201: { description: 'Created, with an ETag and the secret', schema: AutomationCreated },
      409: { description: `\`automation_limit_reached\`: a person has at most ${AUTOMATION_LIMITS.perUser}`, schema: ErrorEnvelope },
      422: notReady,
    },
  }),
  op({
    method: 'get', path: '/automations/{id}', etag: true, tag: 'Automations', summary: 'One automation with its trigger and actions',
    params: IdParams,
    responses: { 200: { description: 'The automation, with an ETag', schema: AutomationResponse }, 404: notFound },
  }),
  op({
    method: 'patch', path: '/automations/{id}', etag: true, tag: 'Automations', summary: 'Switch an automation on or off, or change it',
    params: IdParams, body: UpdateAutomationBody,
    description: 'On only when ready (else 422 and it stays as it was); off always. Honours If-Match.',
    responses: {
      200: { description: 'Updated, with an ETag', schema: AutomationResponse }, 404: notFound, 412: staleEtagAnswer, 422: notReady,
    },
  }),
  op({
    method: 'delete', path: '/automations/{id}', etag: true, tag: 'Automations', summary: 'Delete an automation and its runs',
    params: IdParams, responses: { 204: { description: 'Deleted; unfinished runs stop' }, 404: notFound, 412: staleEtagAnswer },
  }),
  op({
    method: 'get', path: '/automations/{id}/runs', tag: 'Automations', summary: 'Runs of an automation, each step\'s outcome',
    params: IdParams, query: ListRunsQuery,
    responses: { 200: { description: 'Runs, newest trigger first', schema: AutomationRunList }, 404: notFound },
  }),
];
