/** Weekly goals: how much time a person wants to give something each week, and how this week is going. */
import { z } from 'zod';
import { DateTime, ErrorEnvelope, IdParams, IsoDate, laterThan, NonBlankText, Uuid } from './common';
import { NextPageToken, PageQuery } from './paging';
import { op } from './operation';
import { notFoundAnswer, staleEtagAnswer } from './responses';
import { Color } from './spaces';

export const MAX_GOALS = 100;
export const PreferredPeriod = z.enum(['morning', 'afternoon', 'evening']);

const BlockMinutes = z.number().int().min(5).max(1440);
const Deadline = z.union([IsoDate, DateTime]).describe('A date (`YYYY-MM-DD`) or a date-time, kept as given');

const goalExample = {
  id: '3c4d5e6f-7a8b-4c9d-8e0f-1a2b3c4d5e6f', userId: '5d2c8e3a-1b4f-4c6d-8e9a-0f1b2c3d4e5f', name: 'Learn Spanish',
  weeklyMinutes: 180, preferredPeriod: 'morning', minBlockMinutes: 30, maxBlockMinutes: 90, deadline: '2027-06-30',
  color: '#22aa66', createdAt: '2026-11-20T08:00:00.000Z', updatedAt: '2026-11-20T08:00:00.000Z', deletedAt: null, version: 1,
};

export const Goal = z
  .object({
    id: Uuid,
    userId: Uuid,
    name: z.string(),
    weeklyMinutes: z.number().int(),
    preferredPeriod: PreferredPeriod.nullable(),
    minBlockMinutes: z.number().int().nullable(),
    maxBlockMinutes: z.number().int().nullable(),
    deadline: z.string().nullable(),
    color: z.string().nullable(),
    createdAt: DateTime,
    updatedAt: DateTime,
    deletedAt: DateTime.nullable().describe('Set once deleted (sync rows)'),
    version: z.number().int().describe('Increases with every change; the ETag is derived from it'),
  })
  .meta({ id: 'Goal', examples: [goalExample] });
export type Goal = z.infer<typeof Goal>;

const fields = {
  name: NonBlankText(200),
  weeklyMinutes: z.number().int().min(1).max(10_080).describe('Minutes per week, at most a whole week'),
  preferredPeriod: PreferredPeriod.nullable().optional(),
  minBlockMinutes: BlockMinutes.nullable().optional(),
  maxBlockMinutes: laterThan(BlockMinutes, 'minBlockMinutes', { orEqual: true }).nullable().optional(),
  deadline: Deadline.nullable().optional(),
  color: Color.nullable().optional(),
};

const bodyExample = {
  name: 'Learn Spanish', weeklyMinutes: 180, preferredPeriod: 'morning', minBlockMinutes: 30, maxBlockMinutes: 90,
  deadline: '2027-06-30', color: '#22aa66',
};

export const CreateGoalBody = z
  .object(fields)
  .meta({ id: 'CreateGoalBody', examples: [bodyExample] });
export type CreateGoalBody = z.infer<typeof CreateGoalBody>;

export const UpdateGoalBody = z
  .object(fields)
  .meta({
    id: 'UpdateGoalBody',
    description: '`name` and `weeklyMinutes` are required; an optional field left out keeps its value, null clears it.',
    examples: [{ name: 'Learn Spanish', weeklyMinutes: 240 }],
  });
export type UpdateGoalBody = z.infer<typeof UpdateGoalBody>;

export const GoalWithProgress = Goal.extend({
  plannedMinutes: z.number().int().describe('Minutes of calendar blocks linked to the goal in the week'),
  doneMinutes: z.number().int().describe('Minutes of stopped focus sessions for the goal, plus blocks already over'),
}).meta({ id: 'GoalWithProgress', examples: [{ ...goalExample, plannedMinutes: 150, doneMinutes: 60 }] });

export const GoalResponse = z.object({ goal: Goal }).meta({ id: 'GoalResponse', examples: [{ goal: goalExample }] });

export const GoalListResponse = z
  .object({
    weekStart: IsoDate.describe('Monday of the current week where the caller is (the profile\'s time zone)'),
    goals: z.array(GoalWithProgress),
    nextPageToken: NextPageToken,
  })
  .meta({
    id: 'GoalListResponse',
    examples: [{ weekStart: '2026-11-23', goals: [{ ...goalExample, plannedMinutes: 150, doneMinutes: 60 }], nextPageToken: null }],
  });

export const ListGoalsQuery = PageQuery;


export const goalOperations = [
  op({
    method: 'get', path: '/goals', tag: 'Goals', summary: 'Goals with this week\'s planned and done minutes',
    description: 'Weeks start on Monday in the profile\'s time zone. Oldest goal first; paged.',
    query: ListGoalsQuery,
    responses: { 200: { description: 'Goals', schema: GoalListResponse } },
  }),
  op({
    method: 'post', path: '/goals', etag: true, tag: 'Goals', summary: 'Create a weekly goal', body: CreateGoalBody,
    responses: {
      201: { description: 'Created, with an ETag', schema: GoalResponse },
      409: { description: `\`goal_limit_reached\`: a person has at most ${MAX_GOALS} goals`, schema: ErrorEnvelope },
    },
  }),
  op({
    method: 'put', path: '/goals/{id}', etag: true, tag: 'Goals', summary: 'Update a goal', params: IdParams, body: UpdateGoalBody,
    responses: {
      200: { description: 'Updated, with an ETag', schema: GoalResponse }, 404: notFoundAnswer('goals'), 412: staleEtagAnswer,
    },
  }),
  op({
    method: 'delete', path: '/goals/{id}', etag: true, tag: 'Goals', summary: 'Delete a goal', params: IdParams,
    responses: { 204: { description: 'Deleted' }, 404: notFoundAnswer('goals'), 412: staleEtagAnswer },
  }),
];
