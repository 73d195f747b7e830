/**
 * The reads that can travel in time (`asOf=` on GET /events, /tasks, /routines) and `stateAsOf` for operators (the
 * CLI's `state --as-of <instant> <what>`): which streams each depends on, replayed by time-travel.ts.
 */
import type { ListTasksQuery } from '../../contracts/tasks';
import type { Projection } from '../../projections/projection';
import type { PageQuery } from '../../contracts/paging';
import { publicView, type ReadModels } from '../../projections/read-models';
import { ROUTINES, routinesProjection } from '../../projections/routines.projection';
import { SCHEDULE, scheduleProjection } from '../../projections/schedule.projection';
import { TASKS, tasksProjection, viewId } from '../../projections/tasks.projection';
import { eventsPage, type EventsPageQuery } from '../../read-api/events/events-page';
import { locateEvent } from '../../read-api/events/events.queries';
import { MAX_SHARED_CALENDARS } from '../../read-api/spaces/calendar-access';
import { routinesPage } from '../../read-api/routines/routines.queries';
import { taskPage } from '../../read-api/tasks/tasks.queries';
import { claimDecider } from '../../write-api/accounts/claim.decider';
import { userDecider } from '../../write-api/accounts/user.decider';
import { focusDecider } from '../../write-api/focus/focus.decider';
import { goalsDecider } from '../../write-api/goals/goals.decider';
import { routinesDecider, routinesStream } from '../../write-api/routines/routines.decider';
import { scheduleDecider, scheduleStream } from '../../write-api/schedule/schedule.decider';
import { tasksDecider, tasksStream } from '../../write-api/tasks/tasks.decider';
import type { Decider } from '../commands/decider';
import { invalid } from '../errors';
import { answerAsOf, historyUpTo, replay, type HistoryReader } from './time-travel';

/** Boards (owners' task streams) a caller's assigned tasks are read from, at most. */
const MAX_BOARDS = 50;

/** The Space schedules of the caller's Spaces and of the calendars shared with them, with those roles as they are now. */
export async function eventsAsOf(app: HistoryReader, userId: string, instant: string, page: EventsPageQuery): Promise<Buffer> {
  const schedule = await app.readModels.docs(SCHEDULE);
  const [memberships, calendarMembers] = await Promise.all([
    schedule('memberships').find({ userId }),
    schedule('calendarMembers').find({ userId, deletedAt: null }, { limit: MAX_SHARED_CALENDARS }),
  ]);
  const spaceIds = new Set([...memberships, ...calendarMembers].map((m) => m.spaceId as string));
  const streams = [...spaceIds].map(scheduleStream);
  return answerAsOf(app, scheduleProjection, streams, instant, (models) => eventsPage(models, userId, page), { memberships, calendarMembers });
}

/** The caller's board, and the boards that assigned them a task (as the read model says now). */
async function boardsOf(models: ReadModels, userId: string): Promise<string[]> {
  const assigned = await (await models.docs(TASKS))('tasks').find({ _viewerId: userId, createdBy: { $ne: userId } }, { limit: 1000 });
  const owners = [...new Set(assigned.map((t) => t.createdBy as string))].slice(0, MAX_BOARDS);
  return [userId, ...owners].map(tasksStream);
}

export async function tasksAsOf(app: HistoryReader, userId: string, instant: string, query: ListTasksQuery) {
  const streams = await boardsOf(app.readModels, userId);
  return answerAsOf(app, tasksProjection, streams, instant, (models) => taskPage(models, userId, query));
}

export async function routinesAsOf(app: HistoryReader, userId: string, instant: string, query: PageQuery) {
  return answerAsOf(app, routinesProjection, [routinesStream(userId)], instant, (models) => routinesPage(models, userId, query));
}

// ---- stateAsOf -----------------------------------------------------------------------------------------------

type AnyDecider = Decider<unknown, { type: string; data: unknown }, unknown>;

/** Aggregates by stream id prefix (`<aggregate>-<id>`). */
const DECIDERS: Array<[prefix: string, decider: unknown]> = [
  ['space-', scheduleDecider], ['tasks-', tasksDecider], ['routines-', routinesDecider], ['user-', userDecider],
  ['goals-', goalsDecider], ['focus-', focusDecider], ['email-', claimDecider], ['username-', claimDecider],
];

interface Located {
  stream: string;
  docId: string;
}

/** Read models by name: where an item's document is, and the stream that holds the item (as the read model is now). */
const READ_MODELS: Record<string, { projection: Projection; collection: string; locate(models: ReadModels, id: string): Promise<Located | null> }> = {
  events: {
    projection: scheduleProjection,
    collection: 'events',
    locate: async (models, id) => {
      const event = await locateEvent(models, id);
      return event ? { stream: scheduleStream(event.spaceId), docId: id } : null;
    },
  },
  tasks: {
    projection: tasksProjection,
    collection: 'tasks',
    locate: async (models, id) => {
      const [row] = await (await models.docs(TASKS))('tasks').find({ id }, { limit: 1 });
      return row ? { stream: tasksStream(row.createdBy as string), docId: viewId(row.createdBy as string, id) } : null;
    },
  },
  routines: {
    projection: routinesProjection,
    collection: 'routines',
    locate: async (models, id) => {
      const routine = await (await models.docs(ROUTINES))('routines').get(id);
      return routine ? { stream: routinesStream(routine.ownerId as string), docId: id } : null;
    },
  },
};

/** Maps and sets as plain JSON; helper structures (class instances such as indexes) left out. */
function plain(value: unknown): unknown {
  if (value instanceof Map) return Object.fromEntries([...value].map(([k, v]) => [k, plain(v)]));
  if (value instanceof Set) return [...value].map(plain);
  if (Array.isArray(value)) return value.map(plain);
  if (value && typeof value === 'object') {
    if (Object.getPrototypeOf(value) !== Object.prototype) return undefined;
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]).filter(([, v]) => v !== undefined));
  }
  return value;
}

export interface StateAsOf {
  what: string;
  id: string;
  asOf: string;
  /** Log position of the last event folded; null when nothing had happened yet. */
  position: number | null;
  state: unknown;
}

/**
 * Any aggregate or read model as it was at `instant`:
 *   - `what = 'stream'`, `id` a stream id (`space-…`, `tasks-…`, `routines-…`, `user-…`, `goals-…`, `focus-…`,
 *     `email-…`, `username-…`): the aggregate's decider state folded up to the instant;
 *   - `what` a read model (`events`, `tasks`, `routines`) and `id` an item id: the item's document as its projection
 *     had it then (null before it existed), from the stream that holds it now.
 */
export async function stateAsOf(app: HistoryReader, what: string, id: string, instant: string): Promise<StateAsOf> {
  const asOf = new Date(instant).toISOString();
  if (what === 'stream') {
    const found = DECIDERS.find(([prefix]) => id.startsWith(prefix));
    if (!found) throw invalid(`No aggregate has streams named like ${id}`, [{ path: 'id', message: 'unknown stream kind' }]);
    const decider = found[1] as AnyDecider;
    const history = await historyUpTo(app, [id], asOf);
    const state = history.reduce((s, e) => decider.evolve(s, { type: e.type, data: e.data }), decider.initialState());
    return { what, id, asOf, position: history.at(-1)?.position ?? null, state: plain(state) };
  }
  const model = READ_MODELS[what];
  if (!model) throw invalid(`what is "stream" or one of ${Object.keys(READ_MODELS).join(', ')}`, [{ path: 'what', message: 'unknown' }]);
  const located = await model.locate(app.readModels, id);
  if (!located) return { what, id, asOf, position: null, state: null };
  const history = await historyUpTo(app, [located.stream], asOf);
  const replayed = await replay(model.projection, history);
  try {
    const doc = await (await replayed.models.docs(model.projection.name))(model.collection).get(located.docId);
    return { what, id, asOf, position: history.at(-1)?.position ?? null, state: doc ? publicView(doc) : null };
  } finally {
    await replayed.close();
  }
}
