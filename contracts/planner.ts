/**
 * The planner: proposes calendar blocks for open tasks or weekly goals in the person's free time (the availability
 * engine's), says why each block went where it did and why an item could not be placed, and writes kept blocks as
 * linked events in one decision of the Space schedule. docs/planner.md has the rules.
 */
import { z } from 'zod';
import { FromDate, Instant } from './availability';
import { DateTime, documentedAs, ErrorEnvelope, IsoDate, laterThan, NonBlankText, Uuid } from './common';
import { Event } from './events';
import { op } from './operation';

export const PLANNER_LIMITS = {
  /** The default range: today and the next 7 days where the person is. */
  defaultDays: 8,
  /** The longest range a plan may cover. */
  maxDays: 31,
  /** Named ids per plan, and the open tasks or goals one plan considers. */
  ids: 100,
  items: 100,
  /** Blocks per apply, and the longest block. */
  applyBlocks: 50,
  blockMinutes: 1440,
} as const;

/** Rules of placement (docs/planner.md). */
export const PLANNER_RULES = {
  /** A task without an estimate is planned for this long. */
  defaultEstimateMinutes: 30,
  /** A task split over several blocks gets none shorter than this. */
  minTaskBlockMinutes: 30,
  /** Goal blocks without their own bounds. */
  defaultMinBlockMinutes: 30,
  defaultMaxBlockMinutes: 120,
  /** Blocks start on the person's clock at multiples of this. */
  stepMinutes: 15,
} as const;

export const PlanKind = z.enum(['tasks', 'goals']);

export const BLOCK_REASONS = ['before_due', 'no_due_date', 'split', 'preferred_period', 'working_hours'] as const;
export const UNPLACED_REASONS = [
  'past_due', 'no_time_before_due', 'no_free_time', 'already_planned', 'zero_estimate', 'task_done',
  'less_than_min_block', 'not_enough_free_time', 'past_deadline',
] as const;

const TASK_ID = 'c3d4e5f6-a7b8-4c9d-8e0f-1a2b3c4d5e6f';
const OTHER_TASK_ID = 'd4e5f6a7-b8c9-4d0e-8f1a-2b3c4d5e6f70';
const GOAL_ID = '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f';
const USER_ID = '5d2c8e3a-1b4f-4c6d-8e9a-0f1b2c3d4e5f';

const DateOrInstant = z.union([FromDate, Instant]);

export const PlanBody = z
  .object({
    kind: PlanKind.describe('`tasks`: open tasks by due date, priority and estimate; `goals`: weekly goals'),
    from: DateOrInstant.optional().describe(
      'Start: a date (its local midnight in the profile\'s time zone) or a date-time; default today. Time before now is never planned',
    ),
    to: laterThan(DateOrInstant.describe(
      `End: a date (included: up to the next local midnight) or a date-time (excluded); default the end of the ${PLANNER_LIMITS.defaultDays - 1}th day after the date of from (today and the next 7 days); the range spans at most ${PLANNER_LIMITS.maxDays} dates. A range that ends where it starts plans nothing`,
    ), 'from', { orEqual: true, maxDays: PLANNER_LIMITS.maxDays - 1 }).optional(),
    ids: z
      .array(Uuid)
      .min(1)
      .max(PLANNER_LIMITS.ids)
      .refine((ids) => new Set(ids.map((id) => id.toLowerCase())).size === ids.length, 'must not repeat an id')
      .meta({ uniqueItems: true })
      .optional()
      .describe('Only these tasks (or goals); one that is unknown or not the caller\'s is 404'),
  })
  .meta({
    id: 'PlanBody',
    examples: [{ kind: 'tasks', from: '2026-11-30', to: '2026-12-04' }, { kind: 'goals', ids: [GOAL_ID] }],
  });
export type PlanBody = z.infer<typeof PlanBody>;

export const PlanReason = z
  .object({ code: z.string(), message: z.string() })
  .meta({
    id: 'PlanReason',
    description: `Why a block went where it did (${BLOCK_REASONS.map((c) => `\`${c}\``).join(', ')}) or why an item was not placed (${UNPLACED_REASONS.map((c) => `\`${c}\``).join(', ')})`,
    examples: [{ code: 'before_due', message: 'First free time long enough before it is due (2026-12-02 17:00 Europe/Berlin)' }],
  });
export type PlanReason = z.infer<typeof PlanReason>;

export const BlockKind = z.enum(['task', 'focus']);

const taskBlockExample = {
  kind: 'task', taskId: TASK_ID, goalId: null, title: 'Draft the Q3 roadmap',
  startsAt: '2026-11-30T08:00:00.000Z', endsAt: '2026-11-30T09:30:00.000Z', minutes: 90,
  reason: { code: 'before_due', message: 'First free time long enough before it is due (2026-12-02 17:00 Europe/Berlin)' },
};
const goalBlockExample = {
  kind: 'focus', taskId: null, goalId: GOAL_ID, title: 'Learn Spanish',
  startsAt: '2026-11-30T07:00:00.000Z', endsAt: '2026-11-30T08:30:00.000Z', minutes: 90,
  reason: { code: 'preferred_period', message: 'Free in the morning (06:00-12:00), the goal\'s preferred period; 90 of 180 minutes still to plan in the week of 2026-11-30' },
};

export const PlannedBlock = z
  .object({
    kind: BlockKind.describe('`task` for a task, `focus` for a goal'),
    taskId: Uuid.nullable(),
    goalId: Uuid.nullable(),
    title: z.string(),
    startsAt: DateTime,
    endsAt: DateTime,
    minutes: z.number().int(),
    reason: PlanReason,
  })
  .meta({ id: 'PlannedBlock', description: 'A proposed block; send it back in POST /planner/apply to keep it', examples: [taskBlockExample, goalBlockExample] });

const unplacedExample = {
  kind: 'task', id: OTHER_TASK_ID, title: 'Prepare the board deck', minutes: 240, weekStart: null,
  reason: { code: 'no_time_before_due', message: 'Needs 240 minutes before it is due (2026-11-30 12:00 Europe/Berlin); only 150 are free by then' },
};

export const UnplacedItem = z
  .object({
    kind: z.enum(['task', 'goal']),
    id: Uuid,
    title: z.string(),
    minutes: z.number().int().describe('Minutes left without a block'),
    weekStart: IsoDate.nullable().describe('Goals: the Monday of the week concerned; tasks: null'),
    reason: PlanReason,
  })
  .meta({ id: 'UnplacedItem', description: 'A task or goal (or a goal\'s week) the plan could not (fully) place', examples: [unplacedExample] });

export const PlanResponse = z
  .object({
    kind: PlanKind,
    timeZone: z.string().describe('The profile\'s time zone, in which dates and periods were read'),
    from: DateTime,
    to: DateTime,
    blocks: z.array(PlannedBlock).describe('By start'),
    unplaced: z.array(UnplacedItem).describe('In planning order'),
  })
  .meta({
    id: 'PlanResponse',
    examples: [{
      kind: 'tasks', timeZone: 'Europe/Berlin', from: '2026-11-29T23:00:00.000Z', to: '2026-12-04T23:00:00.000Z',
      blocks: [taskBlockExample], unplaced: [unplacedExample],
    }],
  });

const applyBlockFields = {
  kind: BlockKind.describe('`task` (needs `taskId`) or `focus`'),
  taskId: Uuid.nullable().optional().describe('One of the caller\'s tasks (owned or assigned to them); 404 otherwise'),
  goalId: Uuid.nullable().optional().describe('One of the caller\'s goals; 404 otherwise'),
  startsAt: Instant,
  endsAt: laterThan(Instant.describe(`A block lasts at most ${PLANNER_LIMITS.blockMinutes} minutes`), 'startsAt', {
    maxDays: PLANNER_LIMITS.blockMinutes / 1440,
  }),
  title: NonBlankText(500).optional().describe('Default: the task\'s title or the goal\'s name'),
  minutes: z.number().optional().describe('Ignored (a planned block may be sent back as it is)'),
  reason: PlanReason.optional().describe('Ignored'),
};

export const ApplyBlock = documentedAs(
  z
    .strictObject(applyBlockFields)
    .refine((b) => b.kind !== 'task' || !!b.taskId, { path: ['taskId'], message: 'a task block needs taskId' })
    .meta({ id: 'ApplyBlock', examples: [taskBlockExample, { kind: 'focus', goalId: GOAL_ID, startsAt: '2026-12-01T07:00:00Z', endsAt: '2026-12-01T08:00:00Z' }] }),
  // Published as its two cases, so that the document says a task block needs `taskId`.
  z.union([
    z.strictObject({ ...applyBlockFields, kind: z.literal('task'), taskId: Uuid.describe(applyBlockFields.taskId.description!) }),
    z.strictObject({ ...applyBlockFields, kind: z.literal('focus') }),
  ]),
);
export type ApplyBlock = z.infer<typeof ApplyBlock>;

export const ApplyBody = z
  .object({ blocks: z.array(ApplyBlock).min(1).max(PLANNER_LIMITS.applyBlocks) })
  .meta({ id: 'ApplyBody', description: 'The blocks to keep, as POST /planner/plan proposed them or changed', examples: [{ blocks: [taskBlockExample] }] });
export type ApplyBody = z.infer<typeof ApplyBody>;

const eventExample = {
  id: '8b9c0d1e-2f3a-4b4c-9d5e-6f7a8b9c0d1e', spaceId: '1a2b3c4d-5e6f-4a7b-8c9d-0e1f2a3b4c5d',
  calendarId: '2b3c4d5e-6f7a-4b8c-9d0e-1f2a3b4c5d6e', title: 'Draft the Q3 roadmap', description: null, location: null,
  meetingUrl: null, kind: 'task', startsAt: '2026-11-30T08:00:00.000Z', endsAt: '2026-11-30T09:30:00.000Z',
  timeZone: 'Europe/Berlin', allDay: false, busy: true, recurrenceRule: null, taskId: TASK_ID, goalId: null,
  resources: [], attendees: [], reminders: [], allowOverlap: false, exceptions: [], icalUid: null, icalRecurrenceId: null, status: 'confirmed', createdBy: USER_ID,
  createdAt: '2026-11-29T18:02:11.000Z', updatedAt: '2026-11-29T18:02:11.000Z', deletedAt: null, version: 1,
};

export const ApplyResponse = z
  .object({ events: z.array(Event).describe('The created events, in the order of the blocks') })
  .meta({ id: 'ApplyResponse', examples: [{ events: [eventExample] }] });

const error = (description: string) => ({ description, schema: ErrorEnvelope });

export const plannerOperations = [
  op({
    method: 'post', path: '/planner/plan', heavy: true, tag: 'Planner', summary: 'Propose blocks for open tasks or weekly goals',
    description: 'Writes nothing. Blocks go into free time as the availability engine computes it (events, fixed and '
      + 'movable routine periods, working hours, before now); the same inputs always give the same plan.',
    body: PlanBody,
    responses: {
      200: { description: 'Proposed blocks and the items that could not be placed', schema: PlanResponse },
      404: error('A named id is unknown or not the caller\'s (`not_found`, `details.ids`)'),
      422: error('`expansion_limit_exceeded`: too many events in the range'),
    },
  }),
  op({
    method: 'post', path: '/planner/apply', tag: 'Planner', summary: 'Write kept blocks to the default calendar',
    description: 'All or nothing: the blocks become events (kind `task` or `focus`, linked by `taskId` / `goalId`) in '
      + 'one decision of the default calendar\'s Space; a block that overlaps a busy event of that Space is 409.',
    body: ApplyBody,
    responses: {
      200: { description: 'The created events', schema: ApplyResponse },
      404: error('A task or goal that is unknown or not the caller\'s (`not_found`)'),
      409: error('`time_conflict`: `details.conflicts` = [{id, startsAt, endsAt}] for busy events, or [{block, startsAt, '
        + 'endsAt}] for blocks of the same apply that overlap an earlier one (`block` is its index); nothing written'),
    },
  }),
];
