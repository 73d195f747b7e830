/**
 * Routines: named sets of periods (with items) repeating on ISO weekdays, marked done or skipped, or moved, per date.
 * Minutes are minutes of the day in the owner's profile time zone.
 */
import { z } from 'zod';
import { FromDate } from './availability';
import { AsOf, DateTime, ErrorEnvelope, IdParams, IsoDate, laterThan, NonBlankText, Uuid } from './common';
import { op } from './operation';
import { NextPageToken, PageQuery } from './paging';
import { Color } from './spaces';

export const ROUTINE_LIMITS = {
  routinesPerUser: 20,
  periodsPerRoutine: 10,
  itemsPerPeriod: 20,
  /** GET /routines/instances: dates from `from` to `to`, both included. */
  instanceDays: 62,
  /** GET /routines/conflicts: `days`. */
  conflictDays: 14,
  /** routineBlocks (the availability engine's input): dates in one call; the engine answers for up to 400 days. */
  blockDays: 410,
} as const;

const Minute = z.number().int().min(0).max(1440).describe('Minute of the day, 0-1440 (1440: the midnight that ends the day)');
const StartMinute = z.number().int().min(0).max(1439).describe('Minute of the day, 0-1439');
const Name = NonBlankText(200);
export const RoutineType = z.enum(['personal', 'work']);
export const RoutinePriority = z.enum(['low', 'normal', 'high']);
export const DayStatus = z.enum(['done', 'skipped']);
const Days = z
  .array(z.number().int().min(1).max(7))
  .min(1)
  .max(7)
  .refine((days) => new Set(days).size === days.length, 'must not repeat a day')
  .meta({ uniqueItems: true })
  .describe('ISO weekdays: Monday 1 ... Sunday 7, each at most once');

// ---- examples ----------------------------------------------------------------------------------------------------

const ROUTINE_ID = '6f1c2a9e-3b7d-4c1e-9a2f-5d8e0b4c7a11';
const PERIOD_ID = '0b9d4e21-7c3a-4f5b-8e6d-2a1c9f7b3e40';
const ITEM_IDS = ['a3e5c7d9-1b2f-4a6c-8d0e-3f5a7b9c1d22', 'c8d0e2f4-6a8b-4c1d-9e3f-5a7b9c1d3e33'];
const OWNER_ID = '9e8d7c6b-5a4f-4e3d-8c2b-1a0f9e8d7c55';
const AT = '2026-09-01T07:30:00.000Z';

const periodInputExample = {
  name: 'Morning run', startMinute: 420, endMinute: 465, items: [{ title: 'Stretch' }, { title: 'Run 5 km' }],
  windowStartMinute: 360, windowEndMinute: 540, priority: 'high', canMove: true,
};
const periodExample = {
  id: PERIOD_ID, name: 'Morning run', startMinute: 420, endMinute: 465,
  items: [{ id: ITEM_IDS[0], title: 'Stretch' }, { id: ITEM_IDS[1], title: 'Run 5 km' }],
  windowStartMinute: 360, windowEndMinute: 540, priority: 'high', canMove: true,
};
const routineExample = {
  id: ROUTINE_ID, name: 'Mornings', type: 'personal', color: '#2f855a', isActive: true, days: [1, 2, 3, 4, 5],
  periods: [periodExample], ownerId: OWNER_ID, createdAt: AT, updatedAt: AT,
};
const routineViewExample = { ...routineExample, version: 1, deletedAt: null };
const instanceExample = {
  routineId: ROUTINE_ID, routineName: 'Mornings', periodId: PERIOD_ID, name: 'Morning run', date: '2026-10-26',
  status: 'done', startMinute: 450, endMinute: 495, moved: true, startsAt: '2026-10-26T06:30:00.000Z',
  endsAt: '2026-10-26T07:15:00.000Z', windowStartMinute: 360, windowEndMinute: 540, priority: 'high', canMove: true,
  items: [{ id: ITEM_IDS[0], title: 'Stretch', done: true }, { id: ITEM_IDS[1], title: 'Run 5 km', done: false }],
};

// ---- resources -------------------------------------------------------------------------------------------------

export const RoutineItem = z.object({ id: Uuid, title: z.string() }).meta({ id: 'RoutineItem', examples: [periodExample.items[0]] });

export const RoutinePeriod = z
  .object({
    id: Uuid,
    name: z.string(),
    startMinute: z.number().int(),
    endMinute: z.number().int(),
    items: z.array(RoutineItem),
    windowStartMinute: z.number().int().nullable().describe('Earliest start the period may move to; null: the start of the day'),
    windowEndMinute: z.number().int().nullable().describe('Latest end the period may move to; null: the end of the day'),
    priority: RoutinePriority,
    canMove: z.boolean(),
  })
  .meta({ id: 'RoutinePeriod', examples: [periodExample] });
export type RoutinePeriod = z.infer<typeof RoutinePeriod>;

export const Routine = z
  .object({
    id: Uuid,
    name: z.string(),
    type: RoutineType,
    color: z.string().nullable(),
    isActive: z.boolean(),
    days: z.array(z.number().int().min(1).max(7)).describe('ISO weekdays, Monday 1 to Sunday 7'),
    periods: z.array(RoutinePeriod),
    ownerId: Uuid,
    createdAt: DateTime,
    updatedAt: DateTime,
  })
  .meta({ id: 'Routine', description: 'A routine as its domain events and webhooks carry it.', examples: [routineExample] });
export type Routine = z.infer<typeof Routine>;

export const RoutineView = Routine.extend({
  version: z.number().int().describe('Increases with every change; the ETag is derived from it'),
  deletedAt: DateTime.nullable().describe('Set once the routine is deleted (sync rows)'),
}).meta({ id: 'RoutineView', description: 'A routine as the API answers with it.', examples: [routineViewExample] });
export type RoutineView = z.infer<typeof RoutineView>;

export const RoutinePeriodDay = z
  .object({ period: RoutinePeriod, date: IsoDate, routine: Routine })
  .meta({
    id: 'RoutinePeriodDay',
    description: 'A period marked for one date (the period and the routine as defined when it was marked).',
    examples: [{ period: periodExample, date: '2026-10-26', routine: routineExample }],
  });

export const RoutineInstance = z
  .object({
    routineId: Uuid,
    routineName: z.string(),
    periodId: Uuid,
    name: z.string().describe('The period\'s name'),
    date: IsoDate,
    status: DayStatus.nullable(),
    startMinute: z.number().int().describe('That day\'s start (moved or as defined)'),
    endMinute: z.number().int(),
    moved: z.boolean().describe('True when that day\'s times differ from the period\'s'),
    startsAt: DateTime.describe('That day\'s start as an instant, in the owner\'s time zone'),
    endsAt: DateTime,
    windowStartMinute: z.number().int().nullable(),
    windowEndMinute: z.number().int().nullable(),
    priority: RoutinePriority,
    canMove: z.boolean(),
    items: z.array(z.object({ id: Uuid, title: z.string(), done: z.boolean() })).describe('Done state for that date'),
  })
  .meta({ id: 'RoutineInstance', description: 'One period of a routine on one date.', examples: [instanceExample] });
export type RoutineInstance = z.infer<typeof RoutineInstance>;

// ---- request bodies --------------------------------------------------------------------------------------------

const ItemInput = z.strictObject({ title: NonBlankText(200) });
const ItemPatch = ItemInput.extend({ id: Uuid.optional().describe('Keeps this item\'s id') });

const periodFields = {
  name: Name,
  startMinute: laterThan(StartMinute, 'windowStartMinute', { orEqual: true }),
  endMinute: laterThan(Minute, 'startMinute'),
  windowStartMinute: StartMinute.nullable().optional(),
  windowEndMinute: laterThan(Minute, 'endMinute', { orEqual: true }).nullable().optional(),
  priority: RoutinePriority.optional().describe('Default `normal`'),
  canMove: z.boolean().optional().describe('Default true; a period that cannot move refuses other times for a day'),
};

export const RoutinePeriodInput = z
  .strictObject({ ...periodFields, items: z.array(ItemInput).max(ROUTINE_LIMITS.itemsPerPeriod).optional() })
  .meta({ id: 'RoutinePeriodInput', examples: [periodInputExample] });

export const RoutinePeriodPatch = z
  .strictObject({
    id: Uuid.optional().describe('Keeps this period\'s id (and that of its items given by id or by the same title)'),
    ...periodFields,
    items: z.array(ItemPatch).max(ROUTINE_LIMITS.itemsPerPeriod).optional(),
  })
  .meta({
    id: 'RoutinePeriodPatch',
    description: 'A period of the new list. Without `id`, a period with the same name, startMinute and endMinute keeps its id.',
    examples: [{ ...periodInputExample, id: PERIOD_ID, items: [{ id: ITEM_IDS[0], title: 'Stretch' }, { title: 'Run 6 km' }] }],
  });
export type RoutinePeriodPatch = z.infer<typeof RoutinePeriodPatch>;

const Periods = <T extends z.ZodType>(period: T) => z.array(period).min(1).max(ROUTINE_LIMITS.periodsPerRoutine);

export const CreateRoutineBody = z
  .object({
    name: Name,
    type: RoutineType.optional().describe('Default `personal`'),
    color: Color.nullable().optional(),
    isActive: z.boolean().optional().describe('Default true'),
    days: Days,
    periods: Periods(RoutinePeriodInput),
  })
  .meta({
    id: 'CreateRoutineBody',
    examples: [{ name: 'Mornings', type: 'personal', color: '#2f855a', days: [1, 2, 3, 4, 5], periods: [periodInputExample] }],
  });
export type CreateRoutineBody = z.infer<typeof CreateRoutineBody>;

export const UpdateRoutineBody = z
  .object({
    name: Name,
    type: RoutineType,
    color: Color.nullable(),
    isActive: z.boolean(),
    days: Days,
    periods: Periods(RoutinePeriodPatch).describe('The full new list'),
  })
  .partial()
  .refine((b) => {
    const ids = (b.periods ?? []).flatMap((p) => (p.id ? [p.id] : []));
    return new Set(ids).size === ids.length;
  }, { path: ['periods'], message: 'must not name a period id twice' })
  .meta({
    id: 'UpdateRoutineBody',
    examples: [{ isActive: true, days: [1, 3, 5], periods: [{ id: PERIOD_ID, name: 'Morning run', startMinute: 450, endMinute: 495, items: [{ id: ITEM_IDS[0], title: 'Stretch' }] }] }],
  });
export type UpdateRoutineBody = z.infer<typeof UpdateRoutineBody>;

export const PeriodDayBody = z
  .object({
    status: DayStatus.nullable().describe('`done`, `skipped`, or null to clear'),
    startMinute: StartMinute.optional().describe('With endMinute: that day\'s times (kept for the day when omitted)'),
    endMinute: laterThan(Minute, 'startMinute').optional().describe('With startMinute'),
  })
  .refine((b) => (b.startMinute === undefined) === (b.endMinute === undefined), {
    path: ['endMinute'], message: 'startMinute and endMinute come together',
  })
  .meta({ id: 'PeriodDayBody', examples: [{ status: 'done', startMinute: 450, endMinute: 495 }, { status: null }] });
export type PeriodDayBody = z.infer<typeof PeriodDayBody>;

export const ItemDayBody = z.object({ done: z.boolean() }).meta({ id: 'ItemDayBody', examples: [{ done: true }] });

// ---- queries, params, answers ----------------------------------------------------------------------------------

export const ListRoutinesQuery = PageQuery.extend({ asOf: AsOf.optional() });
export const InstancesQuery = z.object({
  from: IsoDate.describe('First date (YYYY-MM-DD), included'),
  to: laterThan(IsoDate.describe(`Last date, included; at most ${ROUTINE_LIMITS.instanceDays} dates in all`), 'from', {
    orEqual: true, maxDays: ROUTINE_LIMITS.instanceDays - 1,
  }),
});
export const ConflictsQuery = z.object({
  from: FromDate.optional().describe('First date; default today where the owner is'),
  days: z.coerce.number().int().min(1).max(ROUTINE_LIMITS.conflictDays).optional().describe('Number of dates, default 7'),
});
export const PeriodDayParams = z.object({ periodId: Uuid, date: IsoDate });
export const ItemDayParams = z.object({ itemId: Uuid, date: IsoDate });

export const RoutineResponse = z.object({ routine: RoutineView }).meta({ id: 'RoutineResponse', examples: [{ routine: routineViewExample }] });
export const RoutineListResponse = z
  .object({ routines: z.array(RoutineView), nextPageToken: NextPageToken })
  .meta({ id: 'RoutineListResponse', examples: [{ routines: [routineViewExample], nextPageToken: null }] });
export const InstancesResponse = z
  .object({ timeZone: z.string(), instances: z.array(RoutineInstance) })
  .meta({ id: 'RoutineInstancesResponse', examples: [{ timeZone: 'Europe/Berlin', instances: [instanceExample] }] });
export const InstanceResponse = z
  .object({ instance: RoutineInstance })
  .meta({ id: 'RoutineInstanceResponse', examples: [{ instance: instanceExample }] });

const conflictExample = {
  routineId: ROUTINE_ID, routineName: 'Mornings', periodId: PERIOD_ID, name: 'Morning run', date: '2026-10-27',
  startMinute: 420, endMinute: 465, startsAt: '2026-10-27T06:00:00.000Z', endsAt: '2026-10-27T06:45:00.000Z',
  events: [{ id: '4d2b6f80-1c3e-4a5b-9d7f-8e0a2c4b6d99', title: 'Team breakfast', startsAt: '2026-10-27T06:00:00.000Z', endsAt: '2026-10-27T07:00:00.000Z' }],
  suggestion: { startMinute: 480, endMinute: 525, startsAt: '2026-10-27T07:00:00.000Z', endsAt: '2026-10-27T07:45:00.000Z' },
};

const Times = z.object({ startMinute: z.number().int(), endMinute: z.number().int(), startsAt: DateTime, endsAt: DateTime });
export const RoutineConflict = z
  .object({
    routineId: Uuid,
    routineName: z.string(),
    periodId: Uuid,
    name: z.string(),
    date: IsoDate,
    ...Times.shape,
    events: z.array(z.object({ id: Uuid, title: z.string(), startsAt: DateTime, endsAt: DateTime })).describe('Busy events overlapping it'),
    suggestion: Times.nullable().describe('The free time that day nearest the period\'s start (inside its window); null when none fits or it cannot move'),
  })
  .meta({ id: 'RoutineConflict', examples: [conflictExample] });

export const ConflictsResponse = z
  .object({ timeZone: z.string(), from: IsoDate, days: z.number().int(), conflicts: z.array(RoutineConflict) })
  .meta({ id: 'RoutineConflictsResponse', examples: [{ timeZone: 'Europe/Berlin', from: '2026-10-26', days: 7, conflicts: [conflictExample] }] });

// ---- operations ------------------------------------------------------------------------------------------------

const error = (description: string) => ({ description, schema: ErrorEnvelope });
const notFound = error('Not found (also for routines of other people)');
const stale = error('`If-Match` carried a stale ETag (`version_mismatch`)');
const tag = 'Routines';

export const routineOperations = [
  op({
    method: 'get', path: '/routines', tag, summary: 'List routines with their periods', query: ListRoutinesQuery,
    description: 'Oldest first, deleted ones left out; paged with `limit` and `pageToken`.',
    responses: { 200: { description: 'Routines', schema: RoutineListResponse } },
  }),
  op({
    method: 'post', path: '/routines', etag: true, tag, summary: 'Create a routine', body: CreateRoutineBody,
    description: `At most ${ROUTINE_LIMITS.routinesPerUser} routines per person, ${ROUTINE_LIMITS.periodsPerRoutine} periods per routine, ${ROUTINE_LIMITS.itemsPerPeriod} items per period.`,
    responses: { 201: { description: 'Created, with an ETag', schema: RoutineResponse }, 409: error('`routine_limit_reached`') },
  }),
  op({
    method: 'get', path: '/routines/conflicts', heavy: true, tag, summary: 'Routine periods a busy event landed on, each with a suggested free time',
    description: 'Periods without a status on the dates from `from` on; all-day events do not count.',
    query: ConflictsQuery,
    responses: { 200: { description: 'Conflicts, by start', schema: ConflictsResponse } },
  }),
  op({
    method: 'get', path: '/routines/instances', tag, summary: 'Each period of each active routine on each date, with its status, times and items',
    query: InstancesQuery,
    responses: { 200: { description: 'Instances, by start', schema: InstancesResponse } },
  }),
  op({
    method: 'put', path: '/routines/items/{itemId}/days/{date}', tag, summary: 'Mark an item done or not done for a date',
    params: ItemDayParams, body: ItemDayBody,
    responses: { 200: { description: 'The instance the item belongs to', schema: InstanceResponse }, 404: error('Unknown item, or its period does not occur on that date') },
  }),
  op({
    method: 'put', path: '/routines/periods/{periodId}/days/{date}', tag, summary: 'Set a period\'s status and times for a date',
    description: '`done` emits routine.period.completed, `skipped` routine.period.skipped; null clears the status. Setting what is already set changes nothing.',
    params: PeriodDayParams, body: PeriodDayBody,
    responses: {
      200: { description: 'The instance', schema: InstanceResponse },
      404: error('Unknown period, or it does not occur on that date'),
      409: error('`period_not_movable`: other times for a period whose canMove is false; `outside_window`: times outside the period\'s window'),
    },
  }),
  op({
    method: 'get', path: '/routines/{id}', etag: true, tag, summary: 'Get a routine with its periods and items', params: IdParams,
    responses: { 200: { description: 'The routine, with an ETag', schema: RoutineResponse }, 404: notFound },
  }),
  op({
    method: 'patch', path: '/routines/{id}', etag: true, tag, summary: 'Update a routine', params: IdParams, body: UpdateRoutineBody,
    description: '`periods` replaces the whole list; a period keeps its id when given its `id`, or else when name, startMinute and endMinute are unchanged.',
    responses: {
      200: { description: 'Updated, with an ETag', schema: RoutineResponse }, 404: notFound,
      409: error('`unknown_id`: a period or item `id` that this routine does not have (read it again)'), 412: stale,
    },
  }),
  op({
    method: 'delete', path: '/routines/{id}', etag: true, tag, summary: 'Delete a routine', params: IdParams,
    responses: { 204: { description: 'Deleted' }, 404: notFound, 412: stale },
  }),
];
